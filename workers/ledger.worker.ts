// The comlink entry. vite-plugin-comlink exposes this module's exports, so the UI calls `.ledger.method()`.
import { proxy, type Endpoint } from 'comlink';
import { guardEndpoint, guardReturnedProxies, isServiceCall } from './comlink-guard';
import { DIFFICULTY, GRANT_DELAY_MS, UPLOAD_DELAY_MS } from './core/constants';
import { SHIPPED_DEMO_LEDGER } from './core/demo-ledger';
import { PBKDF2_ITERATIONS } from './core/signatures';
import type { LedgerBroadcast, LedgerDeps } from './ledger/deps';
import { createLedgerService } from './service';
import { createSignaturePool } from './signature-pool';
import { createIndexedDbStorage } from './storage/indexeddb-storage';

const CHANNEL_NAME = 'medledger-ledger'; // every tab's worker listens here for the others' changes
const WRITE_LOCK_NAME = 'medledger-ledger-write'; // Web Locks: one tab appends at a time

const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL_NAME) : null;
const locks = typeof navigator === 'object' ? navigator.locks : undefined;

const workerDeps: LedgerDeps = {
  storage: createIndexedDbStorage(),
  now: () => Date.now(),
  randomId: () => crypto.randomUUID(),
  uploadDelayMs: UPLOAD_DELAY_MS,
  grantDelayMs: GRANT_DELAY_MS,
  difficulty: DIFFICULTY,
  notifyOthers: (message) => channel?.postMessage(message),
  listenToOthers: (listener) =>
    channel?.addEventListener('message', (event: MessageEvent<LedgerBroadcast>) => listener(event.data)),
  lock: locks ? async (fn) => await locks.request(WRITE_LOCK_NAME, fn) : undefined, // await: request() types the callback's promise as its value
  expiryTimer: true,
  keyIterations: PBKDF2_ITERATIONS,
  demoLedger: SHIPPED_DEMO_LEDGER, // every fresh browser and every reset holds the same ledger
  // one checker per core; Node (where a test imports this module) has no Worker: signatures are checked here
  signatureChecker:
    typeof Worker === 'function' ? createSignaturePool(Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2))) : undefined,
};
const service = createLedgerService(workerDeps);
const methods = new Set(Object.keys(service));

// Before comlink's expose (which runs after this module): only ledger.<method>(...) calls get through.
// (The worker scope is an endpoint; Node, where a test imports this module, has none to guard.)
const scope = globalThis as unknown as Partial<Endpoint>;
if (typeof scope.addEventListener === 'function')
  guardEndpoint(scope as Endpoint, (message) => isServiceCall(message, ['ledger'], methods));
guardReturnedProxies();

// proxy(): typed as a remote object, so `(await worker).ledger` is a Remote<LedgerService>, not a Promise of data.
export const ledger = proxy(service);
