// What the worker stored in the page's IndexedDB, read from the page as any script of the origin could:
// the test's view of the truth, independent of what the screens say. Documents and grants are what the
// stored chain says (its projection); the keys and bytes are the rows stored beside it.
import type { Page } from 'playwright-core';
import { project } from '../../../workers/core/projection';
import { openClinicalRecord, summaryKeysOf, type SealedClinicalRecord } from '../../../workers/core/sealed-fields';
import type { Block, DocumentInfo, EmergencyGrant } from '../../../workers/core/types';
import { BLOCKS_PER_PAGE } from '../../../workers/storage/indexeddb-storage';

export interface StoredLedger {
  blocks: Block[]; // in key (index) order, as stored: a sealed upload's text is '' (docs/decisions/nothing-medical-in-clear.md)
  opened: Block[]; // the same blocks with each sealed upload opened with the keys stored beside them, as the device reads them
  documents: DocumentInfo[]; // every file the chain names, deleted ones included (deletedAt set), names opened where their key is stored
  keyIds: string[]; // documents whose key is stored
  contentIds: string[]; // documents whose encrypted bytes are stored
  grants: EmergencyGrant[];
}

// Opens 'medledger' without a version (never upgrades it) and only once the app has created it.
export async function readStoredLedger(page: Page): Promise<StoredLedger> {
  const stored = await page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((database) => database.name);
    if (!names.includes('medledger')) throw new Error('the app has not created its database yet');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('medledger');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const all = <T>(store: string, keys = false) =>
      new Promise<T[]>((resolve, reject) => {
        const source = db.transaction(store, 'readonly').objectStore(store);
        const request = keys ? source.getAllKeys() : source.getAll();
        request.onsuccess = () => resolve(request.result as T[]);
        request.onerror = () => reject(request.error);
      });
    try {
      const [pages, keys, contentIds, summaryKeys] = await Promise.all([
        all<Block[]>('pages'),
        all<{ id: string; encryptionKey: string }>('documents'),
        all<string>('contents', true),
        new Promise<unknown>((resolve, reject) => {
          const request = db.transaction('meta', 'readonly').objectStore('meta').get('summaryKeys');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        }),
      ]);
      return { blocks: pages.flat(), keys, keyIds: keys.map((key) => key.id), contentIds, summaryKeys };
    } finally {
      db.close();
    }
  });
  const { keys, summaryKeys, ...rest } = stored;
  const opened = await openBlocks(stored.blocks, new Map(keys.map((key) => [key.id, key.encryptionKey])), summaryKeys);
  const state = project(opened);
  return {
    ...rest,
    opened,
    documents: [...state.documents.values()].map(({ blockIndex: _index, ...document }) => document),
    grants: [...state.grants.values()].map((known) => known.grant),
  };
}

// Each sealed upload of `blocks` opened with the stored keys (text and file names in clear, no sealed part).
async function openBlocks(blocks: Block[], documentKeys: Map<string, string>, stored: unknown): Promise<Block[]> {
  const summaryKeys = new Map([...summaryKeysOf(stored).values()].map((key) => [key.epochId, key.key]));
  return Promise.all(
    blocks.map(async (block) => {
      const data = block.data;
      if (!('files' in data) || !data.sealed) return block;
      const opened = await openClinicalRecord(data as SealedClinicalRecord, summaryKeys, documentKeys);
      return opened ? { ...block, data: opened.record } : block;
    }),
  );
}

// Writes blocks over the stored ones in place, as any script of the origin could: each into its page (block i at
// i % BLOCKS_PER_PAGE of page Math.floor(i / BLOCKS_PER_PAGE), i = Number(block.id)), in one transaction.
export async function storeBlocks(page: Page, blocks: Block[]): Promise<void> {
  await page.evaluate(
    async ({ blocks, perPage }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('medledger');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const byPage = new Map<number, Block[]>();
      for (const block of blocks) {
        const number = Math.floor(Number(block.id) / perPage);
        byPage.set(number, [...(byPage.get(number) ?? []), block]);
      }
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('pages', 'readwrite');
        const store = tx.objectStore('pages');
        for (const [number, changed] of byPage) {
          const read = store.get(number);
          read.onsuccess = () => {
            const held = (read.result ?? []) as Block[];
            for (const block of changed) held[Number(block.id) % perPage] = block;
            store.put(held, number);
          };
        }
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error);
      });
      db.close();
    },
    { blocks, perPage: BLOCKS_PER_PAGE },
  );
}

// Every live document of the chain has its key and bytes stored, and nothing else is stored beside it.
export function orphans(ledger: StoredLedger): string[] {
  const live = new Set(ledger.documents.filter((document) => !document.deletedAt).map((document) => document.id));
  const problems: string[] = [];
  for (const id of live) {
    if (!ledger.keyIds.includes(id)) problems.push(`document ${id} has no stored key`);
    if (!ledger.contentIds.includes(id)) problems.push(`document ${id} has no stored bytes`);
  }
  for (const id of ledger.keyIds) if (!live.has(id)) problems.push(`key ${id} belongs to no stored document`);
  for (const id of ledger.contentIds) if (!live.has(id)) problems.push(`bytes ${id} belong to no stored document`);
  return problems;
}

// The users' keys this browser stores, as they travel: public keys and private keys wrapped under their passwords.
export async function readStoredUserKeys(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('medledger');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const keys = await new Promise<{ users?: Record<string, unknown> } | undefined>((resolve, reject) => {
        const request = db.transaction('meta', 'readonly').objectStore('meta').get('keys');
        request.onsuccess = () => resolve(request.result as { users?: Record<string, unknown> } | undefined);
        request.onerror = () => reject(request.error);
      });
      return keys?.users ?? {};
    } finally {
      db.close();
    }
  });
}
