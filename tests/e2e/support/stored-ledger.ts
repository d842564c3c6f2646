// What the worker stored in the page's IndexedDB, read from the page as any script of the origin could:
// the test's view of the truth, independent of what the screens say.
import type { Page } from 'playwright-core';
import type { Block, EmergencyGrant, StoredDocument } from '../../../workers/core/types';

export interface StoredLedger {
  blocks: Block[]; // in key (index) order
  documents: StoredDocument[];
  contentIds: string[]; // documents whose encrypted bytes are stored
  grants: EmergencyGrant[];
}

// Opens 'medledger' without a version (never upgrades it) and only once the app has created it.
export async function readStoredLedger(page: Page): Promise<StoredLedger> {
  return page.evaluate(async () => {
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
      const [blocks, documents, contentIds, grants] = await Promise.all([
        all<Block>('blocks'),
        all<StoredDocument>('documents'),
        all<string>('contents', true),
        all<EmergencyGrant>('grants'),
      ]);
      return { blocks, documents, contentIds, grants };
    } finally {
      db.close();
    }
  });
}

// Every document belongs to exactly one stored block and has its bytes; no block names a missing document.
export function orphans(ledger: StoredLedger): string[] {
  const named = new Set(ledger.blocks.flatMap((block) => block.data.documentIds));
  const documents = new Set(ledger.documents.map((document) => document.id));
  const contents = new Set(ledger.contentIds);
  const problems: string[] = [];
  for (const id of documents) if (!named.has(id)) problems.push(`document ${id} is in no block`);
  for (const id of named) if (!documents.has(id)) problems.push(`a block names document ${id}, which is not stored`);
  for (const document of ledger.documents) {
    if (!document.deletedAt && !contents.has(document.id)) problems.push(`document ${document.id} has no stored bytes`);
  }
  for (const id of contents) if (!documents.has(id)) problems.push(`bytes ${id} belong to no document`);
  return problems;
}
