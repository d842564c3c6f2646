// What the sync module needs from outside, as small interfaces: the device's store, a document repo and HTTP.
// The worker passes Automerge-repo over WebSocket (automerge-repo.ts) and the ledger store (store-port.ts);
// the unit tests pass fakes.
import type { SyncStatus } from '../api';
import type { KeyWrap, ReleaseRequest, SummaryReleaseRequest } from '../core/key-wraps';
import type { RefusedBlockReport } from '../core/merge';
import type { DeviceProof } from '../core/sync-proof';
import type { SyncedKeys } from '../core/sync-protocol';
import type { Block } from '../core/types';

// What a merge of another device's blocks did (workers/ledger/remote-intake.ts).
export interface RemoteMerge {
  added: number;
  refused: RefusedBlockReport[];
  waiting: unknown[]; // blocks naming a head not held yet: offer them again with the next ones
  notMerged?: string; // why nothing could be merged
}

export interface SyncStore {
  blocks(): readonly Block[]; // the device's verified blocks, in the ledger's order
  untouched(): boolean; // only the demo ledger as a reset left it (workers/ledger/backup-restore.ts decides the same)
  syncedKeys(): SyncedKeys | undefined; // the stored keys as they travel: no ledger private key
  liveFiles(): { id: string; cid: string }[]; // files the chain names and no block deleted
  readContent(documentId: string): Promise<ArrayBuffer | undefined>;
  mergeRemote(incoming: unknown[]): Promise<RemoteMerge>; // verifies each block with workers/core before it keeps it
  addRemoteContent(documentId: string, bytes: Uint8Array): Promise<boolean>; // checked against the content id the chain names
  // a file on its way: the screens show how far; receivedBytes = totalBytes once its bytes are stored here
  fileProgress(documentId: string, receivedBytes: number, totalBytes: number): void;
  adopt(genesis: string, blocks: unknown[], keys: SyncedKeys): Promise<void>; // the server's ledger replaces the untouched demo one
}

// Document keys as they travel (workers/ledger/key-sharing.ts): wrapped only, never in clear.
export interface SyncKeys {
  setCareNetworkKey(publicKey: string | null): void; // the server's, while connected
  wrapsToSend(): Promise<KeyWrap[]>;
  vouchedSubjects(): Promise<ReadonlySet<string>>; // documents and summary subjects whose listed wraps it may take back
  acceptWraps(wraps: unknown[]): Promise<number>; // stores the keys of the wraps to the signed-in user that open their file or epoch
}

export interface DocHandleLike<T> {
  readonly url: string;
  doc(): T | undefined;
  change(fn: (doc: T) => void): void;
  on(event: 'change', listener: () => void): void;
  off(event: 'change', listener: () => void): void;
}

export interface RepoLike {
  create<T>(initial: T): DocHandleLike<T>;
  find<T>(url: string): Promise<DocHandleLike<T>>;
  onConnection(listener: (online: boolean) => void): void; // the WebSocket to the server opened or closed
  shutdown(): Promise<void>;
}

export interface HttpAnswer {
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}

export interface SyncTransport {
  fetch(url: string, init?: { method: 'POST'; headers: Record<string, string>; body: string }): Promise<HttpAnswer>;
  openRepo(serverUrl: string): Promise<RepoLike>;
}

// What a device gives a connection and what it gets back (sync-client.ts starts one, sync-mirror.ts runs it).
export interface SyncOptions {
  serverUrl: string;
  deviceName: string;
  deviceId: string;
  deviceUrl?: string; // this device's document from an earlier connection
  store: SyncStore;
  keys?: SyncKeys; // absent: document keys do not travel
  // the signed-in user's proof for the server's challenge; null when nobody is signed in
  prove: (challenge: string, genesis: string, deviceId: string) => Promise<DeviceProof | null>;
  transport: SyncTransport;
  now: () => number;
  changed: () => void; // the status changed: the screens hear of it
  takeLedger?: LedgerTaking; // given only once the user agreed, with their password, to take another ledger
  sessionEnded?: () => void; // the server no longer knows this device's session (it was removed): join again
}

// How the signed-in user takes the server's ledger in place of this device's untouched demo one, and stays signed in.
export interface LedgerTaking {
  opens(keys: SyncedKeys): Promise<string | null>; // null when the password opens the user's key on it, else why not
  signIn(): Promise<void>; // with the same password, under the keys just taken
}

export interface SyncClient {
  deviceUrl: string;
  adopted: boolean; // this device took the server's ledger in place of its untouched demo one
  genesis: string; // the ledger it joined
  status(): Omit<SyncStatus, 'serverUrl' | 'deviceName'>;
  localChanged(): void; // blocks or files were written here, or another user signed in: sync at once
  // asks the server for a document's key under an emergency grant and stores it: null when it did, else why not
  release(request: ReleaseRequest): Promise<string | null>;
  // asks the server for a summary key of the granted patient's under an emergency grant and stores it, the same way
  releaseSummary(request: SummaryReleaseRequest): Promise<string | null>;
  // asks the server to remove another device of this user: null when it did, else why not
  removeDevice(deviceId: string): Promise<string | null>;
  close(): Promise<void>;
}
