import type { Block, DocumentKey } from '../core/types';
import {
  REVISION_KEY,
  revisionConflict,
  storedRevision,
  type LedgerStorage,
  type StoredState,
  type StorageWrite,
} from './ledger-storage';

// The default storage (unit tests, no IndexedDB): values are cloned in and out, as IndexedDB would.
export function createMemoryStorage(): LedgerStorage {
  let blocks = new Map<number, Block>();
  let documents = new Map<string, DocumentKey>();
  let contents = new Map<string, ArrayBuffer>();
  let meta = new Map<string, unknown>();

  return {
    async load(fromBlock = 0): Promise<StoredState> {
      return structuredClone({
        blocks: [...blocks.entries()]
          .filter(([index]) => !(index < fromBlock)) // a key that is no number (an edited id) is kept, as before
          .sort(([a], [b]) => a - b)
          .map(([, block]) => block),
        from: fromBlock,
        documents: [...documents.values()],
        contentIds: [...contents.keys()],
        meta: Object.fromEntries(meta),
      });
    },
    async readMeta(key) {
      return structuredClone(meta.get(key));
    },
    async readFirstBlock() {
      return structuredClone(blocks.get(0));
    },
    async readContent(documentId) {
      const bytes = contents.get(documentId);
      return bytes && bytes.slice(0);
    },
    async commit(write: StorageWrite) {
      const found = meta.get(REVISION_KEY);
      if (write.expectedRevision !== undefined && storedRevision(found) !== write.expectedRevision) {
        throw revisionConflict(write.expectedRevision, found);
      }
      // Clone everything before touching the maps: a value that cannot be stored fails with nothing changed. Then
      // the maps change in place (nothing after the clone throws): a write costs its own size, not the ledger's.
      const copy = structuredClone(write);
      if (copy.clear) [blocks, documents, contents, meta] = [new Map(), new Map(), new Map(), new Map()];
      for (const block of copy.blocks ?? []) blocks.set(Number(block.id), block);
      for (const document of copy.documents ?? []) documents.set(document.id, document);
      for (const { id, bytes } of copy.contents ?? []) contents.set(id, bytes);
      for (const id of copy.deleteDocuments ?? []) {
        documents.delete(id);
        contents.delete(id);
      }
      for (const [key, value] of Object.entries(copy.meta ?? {})) meta.set(key, value);
      for (const key of copy.deleteMeta ?? []) meta.delete(key);
    },
  };
}
