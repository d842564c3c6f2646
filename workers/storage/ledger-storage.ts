// Persistence behind one small interface (DESIGN.md workers/storage): the service never sees IndexedDB.
import type { Block, EmergencyGrant, StoredDocument } from '../core/types';

export interface StoredState {
  blocks: Block[]; // in index order
  documents: StoredDocument[]; // metadata only; encrypted bytes are read on demand
  grants: EmergencyGrant[];
  meta: Record<string, unknown>;
}

// One atomic write: all of it is stored or none of it (an upload = documents + contents + block).
export interface StorageWrite {
  clear?: boolean; // empty every store first (reset demo data)
  blocks?: Block[]; // stored under Number(block.id)
  documents?: StoredDocument[];
  contents?: { id: string; bytes: ArrayBuffer }[]; // encrypted bytes by document id
  deleteContents?: string[];
  grants?: EmergencyGrant[];
  meta?: Record<string, unknown>;
}

export interface LedgerStorage {
  load(): Promise<StoredState>;
  readMeta(key: string): Promise<unknown>;
  readContent(documentId: string): Promise<ArrayBuffer | undefined>;
  commit(write: StorageWrite): Promise<void>; // rejects with nothing stored when any part fails
}
