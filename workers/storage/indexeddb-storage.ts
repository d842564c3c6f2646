import { LEDGER_DB_NAME } from '../core/constants';
import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction } from 'idb';
import type { Block, DocumentKey } from '../core/types';
import {
  REVISION_KEY,
  revisionConflict,
  storedRevision,
  type LedgerStorage,
  type StoredState,
  type StorageWrite,
} from './ledger-storage';

const LEDGER_DB_VERSION = 3; // 3 stores blocks in pages; 2 dropped the grants store: grants are derived from the chain
// 100,000 blocks in a worker: getAll of one row per block 1.1-1.4 s, of pages of 1,000 0.34-0.42 s (250: 0.5-0.6 s); a 1,000-block page rewrites in 3.3 ms.
export const BLOCKS_PER_PAGE = 1000;

interface LedgerDb extends DBSchema {
  pages: { key: number; value: Block[] }; // key: Math.floor(index / BLOCKS_PER_PAGE); block `index` at index % BLOCKS_PER_PAGE
  documents: { key: string; value: DocumentKey }; // what cannot live on the chain: each file's key
  contents: { key: string; value: ArrayBuffer }; // encrypted bytes, apart so loading skips them
  meta: { key: string; value: unknown };
}

// Versions 1 and 2 kept one row per block, keyed by its index.
interface UnpagedLedgerDb extends DBSchema {
  blocks: { key: number; value: Block };
}

const STORES = ['pages', 'documents', 'contents', 'meta'] as const;

// The page a block is stored in and its place there: from Number(block.id), its index on a valid chain.
function placeOf(index: number): { page: number; offset: number } {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`A block is stored by its index, not ${index}`);
  return { page: Math.floor(index / BLOCKS_PER_PAGE), offset: index % BLOCKS_PER_PAGE };
}

// The blocks of a write by page, each with its place in the page, in the order written (a later one wins).
function byPage(blocks: readonly Block[]): Map<number, [number, Block][]> {
  const pages = new Map<number, [number, Block][]>();
  for (const block of blocks) {
    const { page, offset } = placeOf(Number(block.id));
    if (!pages.has(page)) pages.set(page, []);
    pages.get(page)!.push([offset, block]);
  }
  return pages;
}

// Inside the upgrade transaction: the old blocks store's rows, in key order, into pages, then the store is dropped.
// Row i goes to place i: on a chain that verifies that is its index; one with a missing or stray row loads as before.
async function moveBlocksToPages(
  db: IDBPDatabase<LedgerDb>,
  transaction: IDBPTransaction<LedgerDb, (typeof STORES)[number][], 'versionchange'>,
): Promise<void> {
  const old = (transaction as unknown as IDBPTransaction<UnpagedLedgerDb, ['blocks'], 'versionchange'>).objectStore('blocks');
  const blocks = await old.getAll();
  const puts: Promise<number>[] = [];
  for (let page = 0; page * BLOCKS_PER_PAGE < blocks.length; page++) {
    const value = blocks.slice(page * BLOCKS_PER_PAGE, (page + 1) * BLOCKS_PER_PAGE);
    puts.push(transaction.objectStore('pages').put(value, page));
  }
  (db as unknown as IDBPDatabase<UnpagedLedgerDb>).deleteObjectStore('blocks');
  await Promise.all(puts);
}

// The pages from `first` on, read in parts of READ_PAGES: each part's values are made in a task of its own, so the
// worker answers calls between them (a long ledger's kept first screen, workers/ledger/first-screen.ts) instead of
// after one task of seconds.
const READ_PAGES = 5;
async function readPages(
  pages: IDBPObjectStore<LedgerDb, (typeof STORES)[number][], 'pages'>,
  first: number,
): Promise<Block[][]> {
  const last = await pages.openKeyCursor(null, 'prev'); // the last page's key, not its blocks
  const end = last ? Number(last.key) : first - 1;
  const parts: Promise<Block[][]>[] = [];
  for (let from = first; from <= end; from += READ_PAGES) {
    parts.push(pages.getAll(IDBKeyRange.bound(from, Math.min(end, from + READ_PAGES - 1))));
  }
  return (await Promise.all(parts)).flat();
}

// IndexedDB through idb: one database, every write in one readwrite transaction over all stores.
export function createIndexedDbStorage(name: string = LEDGER_DB_NAME): LedgerStorage {
  let opening: Promise<IDBPDatabase<LedgerDb>> | null = null;

  function database(): Promise<IDBPDatabase<LedgerDb>> {
    opening ??= openDB<LedgerDb>(name, LEDGER_DB_VERSION, {
      upgrade(db, oldVersion, _newVersion, transaction) {
        if (oldVersion < 1) {
          db.createObjectStore('documents', { keyPath: 'id' });
          db.createObjectStore('contents');
          db.createObjectStore('meta');
        }
        // A version 1 ledger keeps its blocks; its format is recognised at load and a reset is offered.
        if (oldVersion === 1) (db as unknown as IDBDatabase).deleteObjectStore('grants');
        db.createObjectStore('pages');
        if (oldVersion >= 1) {
          moveBlocksToPages(db, transaction).catch(() => {
            try {
              transaction.abort(); // nothing of the upgrade is kept: the ledger stays as it was stored
            } catch {
              // already aborted
            }
          });
        }
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
    async load(fromBlock = 0): Promise<StoredState> {
      const db = await database();
      const tx = db.transaction(STORES, 'readonly');
      const first = Math.floor(fromBlock / BLOCKS_PER_PAGE); // only the pages from `fromBlock` on are read
      const [pages, documents, contentIds, metaKeys, metaValues] = await Promise.all([
        readPages(tx.objectStore('pages'), first),
        tx.objectStore('documents').getAll(),
        tx.objectStore('contents').getAllKeys(),
        tx.objectStore('meta').getAllKeys(),
        tx.objectStore('meta').getAll(),
      ]);
      await tx.done;
      return {
        // in key order, then in index order within each page; flat() skips a missing block
        blocks: pages.flat().slice(fromBlock - first * BLOCKS_PER_PAGE),
        from: fromBlock,
        documents,
        contentIds,
        meta: Object.fromEntries(metaKeys.map((key, i) => [key, metaValues[i]])),
      };
    },
    async readMeta(key) {
      return (await database()).get('meta', key);
    },
    async readFirstBlock() {
      return (await (await database()).get('pages', 0))?.[0]; // one page of 1,000 blocks: about 1% of 100,000
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
        if (write.blocks?.length) {
          // Each page the write touches is read in this transaction (a write that starts over has none) and put back whole.
          const pages = tx.objectStore('pages');
          const touched = byPage(write.blocks);
          const stored = write.clear ? [] : await Promise.all([...touched.keys()].map((page) => pages.get(page)));
          [...touched].forEach(([page, placed], i) => {
            const value = stored[i] ?? [];
            for (const [offset, block] of placed) value[offset] = block;
            track(pages.put(value, page));
          });
        }
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
