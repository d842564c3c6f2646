// What the ledger modules get from outside: storage, clock, ids, delays and the other tabs. The worker passes
// the real ones (ledger.worker.ts); tests pass memory storage and zero delays (tests/support/test-ledger.ts).
import type { ChangeKind } from '../api';
import { ledgerError, type LedgerErrorName } from '../core/errors';
import type { DemoLedger } from '../core/demo-ledger';
import type { SignatureChecker } from '../core/signatures';
import type { LedgerStorage } from '../storage/ledger-storage';
import type { SyncTransport } from '../sync/sync-ports';

// What one tab tells the others after it changed the stored ledger (BroadcastChannel in the worker).
export interface LedgerBroadcast {
  type: 'changed';
  revision: number;
  source: string;
  kinds: ChangeKind[];
}

export interface LedgerDeps {
  storage: LedgerStorage;
  now: () => number; // ms since the epoch: grants, timestamps, expiry
  randomId: () => string;
  uploadDelayMs: number;
  grantDelayMs: number;
  difficulty: number; // leading zero hex digits of the records chain
  // the ledger every fresh browser and every reset starts from (workers/core/demo-ledger.json in the worker); without
  // it a fresh ledger gets a genesis and keys of its own, as every browser did before (most unit tests)
  demoLedger?: DemoLedger;
  keyIterations: number; // PBKDF2 iterations for new users' keys: PBKDF2_ITERATIONS in the worker, few in tests
  notifyOthers?: (message: LedgerBroadcast) => void;
  listenToOthers?: (listener: (message: LedgerBroadcast) => void) => void;
  lock?: <T>(fn: () => Promise<T>) => Promise<T>; // exclusive across tabs (Web Locks in the worker)
  backupIterations?: number; // PBKDF2 rounds of a new backup's password key: BACKUP_ITERATIONS unless a test asks for fewer
  expiryTimer?: boolean; // record expiries on time with a timer (the worker); otherwise on the next call
  // checks signatures elsewhere (the worker: a pool of checker workers, one per core); otherwise in this thread
  signatureChecker?: SignatureChecker;
  syncTransport?: SyncTransport; // HTTP and the document repo of a sync server: Automerge-repo over WebSocket unless a test fakes it
}

export function fail(name: LedgerErrorName, message: string): never {
  throw ledgerError(name, message);
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

// A macrotask, so messages (a watchdog's probe, a cancel) are answered during long work.
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
