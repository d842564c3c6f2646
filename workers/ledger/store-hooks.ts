// The store's hooks, named in one place: who fires each (workers/ledger/) and who listens (wired in workers/service.ts).
import type { ChangeKind } from '../api';
import type { LedgerState } from '../core/ledger-state';
import type { ChainRecord } from '../core/types';

export interface StoreHooks {
  // asked by writes.ts before every write: the expiries due (service.ts: dueExpiryRecords), recorded before the change
  dueRecords: (state: LedgerState, at: number) => ChainRecord[];
  // fired by writes.ts after a write, store.ts after a reset, restore or merged backup, remote-intake.ts after a merge
  // or a file from another device;
  // heard by changes.ts (this tab's screens and the other tabs) and the sync module (what changed here leaves at once)
  committed: (change: { revision: number; kinds: ChangeKind[] }) => void;
  // fired by writes.ts, store.ts and remote-intake.ts whenever a new snapshot is published; heard by expiry.ts,
  // which schedules the next grant expiry
  stateChanged: () => void;
  // fired by store.ts as the signatures of a long chain are checked in the background; heard by changes.ts, this
  // tab's screens only
  checked: (change: { revision: number; kinds: ChangeKind[] }) => void;
  // asked by writes.ts for the key a block is signed with: the session's (session.ts), when `author` is signed in
  signingKey: (author: string) => CryptoKey | undefined;
  // asked by store.ts before its first load reads the blocks: a long ledger's kept first screen is read first
  // (first-screen.ts), so that long read does not hold it up
  beforeLoad?: () => Promise<void>;
  // fired by writes.ts when the session's key is not the enrolled one; heard by session.ts, which signs out
  keyRefused: () => void;
}
