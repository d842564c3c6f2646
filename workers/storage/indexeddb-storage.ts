import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Block, DocumentKey } from '../core/types';
import {
  REVISION_KEY,
  revisionConflict,
  storedRevision,
  type LedgerStorage,
  type StoredState,
  type StorageWrite,
} from './ledger-storage';

export const LEDGER_DB_NAME = 'medledger';
const LEDGER_DB_VERSION = 2; // 2 dropped the grants store: grants are derived from the chain

interface LedgerDb extends DBSchema {
  blocks: { key: number; value: Block }; // key: the block index
  documents: { key: string; value: DocumentKey }; // what cannot live on the chain: each file's key
  contents: { key: string; value: ArrayBuffer }; // encrypted bytes, apart so loading skips them
  meta: { key: string; value: unknown };
}

const STORES = ['blocks', 'documents', 'contents', 'meta'] as const;

// IndexedDB through idb: one database, every write in one readwrite transaction over all stores.
export function createIndexedDbStorage(name: string = LEDGER_DB_NAME): LedgerStorage {
  let opening: Promise<IDBPDatabase<LedgerDb>> | null = null;

  function database(): Promise<IDBPDatabase<LedgerDb>> {
    opening ??= openDB<LedgerDb>(name, LEDGER_DB_VERSION, {
      upgrade(db, oldVersion) {
        if (oldVersion < 1) {
          db.createObjectStore('blocks');
          db.createObjectStore('documents', { keyPath: 'id' });
          db.createObjectStore('contents');
          db.createObjectStore('meta');
        }
        // A version 1 ledger keeps its blocks; its format is recognised at load and a reset is offered.
        if (oldVersion === 1) (db as unknown as IDBDatabase).deleteObjectStore('grants');
      },
      // Another tab deletes or upgrades the database: let go so it is not blocked; reopen on next use.
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
        opening = null;
      },
      terminated() {
        opening = null;
      },
    }).catch((error: unknown) => {
      opening = null;
      throw error;
    });
    return opening;
  }

  return {
    async load(): Promise<StoredState> {
      const db = await database();
      const tx = db.transaction(['blocks', 'documents', 'contents', 'meta'], 'readonly');
      const [blocks, documents, contentIds, metaKeys, metaValues] = await Promise.all([
        tx.objectStore('blocks').getAll(),
        tx.objectStore('documents').getAll(),
        tx.objectStore('contents').getAllKeys(),
        tx.objectStore('meta').getAllKeys(),
        tx.objectStore('meta').getAll(),
      ]);
      await tx.done;
      return { blocks, documents, contentIds, meta: Object.fromEntries(metaKeys.map((key, i) => [key, metaValues[i]])) };
    },
    async readMeta(key) {
      return (await database()).get('meta', key);
    },
    async readContent(documentId) {
      return (await database()).get('contents', documentId);
    },
    async commit(write: StorageWrite) {
      const db = await database();
      const tx = db.transaction(STORES, 'readwrite');
      const pending: Promise<unknown>[] = [];
      // Every request settles as rejected after an abort; keep those from surfacing as unhandled.
      const track = (request: Promise<unknown>) => {
        request.catch(() => undefined);
        pending.push(request);
      };
      track(tx.done);
      try {
        if (write.expectedRevision !== undefined) {
          // Read inside the same readwrite transaction: no other tab can write between the check and the puts.
          const found = await tx.objectStore('meta').get(REVISION_KEY);
          if (storedRevision(found) !== write.expectedRevision) throw revisionConflict(write.expectedRevision, found);
        }
        if (write.clear) for (const store of STORES) track(tx.objectStore(store).clear());
        for (const block of write.blocks ?? []) track(tx.objectStore('blocks').put(block, Number(block.id)));
        for (const document of write.documents ?? []) track(tx.objectStore('documents').put(document));
        for (const { id, bytes } of write.contents ?? []) track(tx.objectStore('contents').put(bytes, id));
        for (const id of write.deleteDocuments ?? []) {
          track(tx.objectStore('documents').delete(id));
          track(tx.objectStore('contents').delete(id));
        }
        for (const [key, value] of Object.entries(write.meta ?? {})) track(tx.objectStore('meta').put(value, key));
        for (const key of write.deleteMeta ?? []) track(tx.objectStore('meta').delete(key));
        await Promise.all(pending);
      } catch (error) {
        try {
          tx.abort(); // a request that threw synchronously (e.g. DataCloneError) does not abort by itself
        } catch {
          // already finished or aborted
        }
        throw error;
      }
    },
  };
}
