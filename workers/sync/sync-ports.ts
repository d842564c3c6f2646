// What the sync module needs from outside, as small interfaces: the device's store, a document repo and HTTP.
// The worker passes Automerge-repo over WebSocket (automerge-repo.ts) and the ledger store (store-port.ts);
// the unit tests pass fakes.
import type { KeyWrap } from '../core/key-wraps';
import type { SyncedKeys } from '../core/sync-protocol';
import type { Block } from '../core/types';

import type { RemoteMerge } from '../ledger/store';

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
