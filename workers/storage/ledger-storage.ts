// Persistence behind one small interface (docs/decisions/persistence.md): the service never sees IndexedDB.
import type { Block, DocumentKey } from '../core/types';

// The chain, and beside it only what cannot live on a chain: each file's key and encrypted bytes.
export interface StoredState {
  blocks: Block[]; // in index order, from block `from`
  from?: number; // the first block read (0 when absent): another tab's new blocks are read without the rest
  documents: DocumentKey[]; // one key per stored file
  contentIds: string[]; // ids of the stored encrypted bytes, which are read on demand
  meta: Record<string, unknown>;
}

// One atomic write: all of it is stored or none of it (an upload = documents + contents + block).
export interface StorageWrite {
  expectedRevision?: number; // store only if meta 'revision' is still this (absent counts as 0), else RevisionConflict
  clear?: boolean; // empty every store first (reset demo data)
  blocks?: Block[]; // stored under Number(block.id)
  documents?: DocumentKey[];
  contents?: { id: string; bytes: ArrayBuffer }[]; // encrypted bytes by document id
  deleteDocuments?: string[]; // drops the key and the bytes of each
  meta?: Record<string, unknown>;
  deleteMeta?: string[]; // e.g. the session key at Logout
}

export interface LedgerStorage {
  load(fromBlock?: number): Promise<StoredState>; // every document row, content id and meta entry; blocks from `fromBlock` on
  readMeta(key: string): Promise<unknown>;
  readFirstBlock?(): Promise<Block | undefined>; // the genesis alone, before the rest is read (workers/ledger/first-screen.ts)
  readContent(documentId: string): Promise<ArrayBuffer | undefined>;
  commit(write: StorageWrite): Promise<void>; // rejects with nothing stored when any part fails
}

export const REVISION_KEY = 'revision';
export const FORMAT_KEY = 'format'; // the block format of the stored ledger
export const LEDGER_FORMAT = 3; // 3: every block signed by its author; 2: every change a block, unsigned; 1 (no format stored) kept grants and file metadata beside the chain
export const KEYS_KEY = 'keys'; // the users' wrapped keys and the ledger key (workers/core/signatures.ts StoredKeys)
export const SESSION_KEY = 'session'; // the signed-in user's id and unwrapped, non-extractable key, until Logout
export const FIRST_SCREEN_KEY = 'firstScreen'; // a long ledger's kept first screen (workers/ledger/first-screen.ts), until Logout
export const REVISION_CONFLICT = 'RevisionConflict'; // another tab wrote first: reload and build the change again

export function revisionConflict(expected: number, found: unknown): Error {
  const error = new Error(`Expected stored revision ${expected}, found ${String(found ?? 0)}`);
  error.name = REVISION_CONFLICT;
  return error;
}

// A stored revision that is not a whole number counts as 0: NaN never equals itself and Infinity + 1 is Infinity,
// so either would fail or skip every revision check from then on.
export function storedRevision(value: unknown): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 0;
}
