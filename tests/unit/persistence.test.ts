import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import type { Block, DocumentKey } from '../../workers/core/types';
import type { LedgerService } from '../../workers/api';
import { createTestLedgerService } from '../support/test-ledger';
import type { LedgerBroadcast } from '../../workers/ledger/deps';
import { BLOCKS_PER_PAGE, createIndexedDbStorage } from '../../workers/storage/indexeddb-storage';
import type { LedgerStorage, StoredState } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { SARAH, WILSON, createFailingStorage, errorOf, fileInput, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';
import { emergencyOf } from '../support/chain-records';

let databases = 0;

// Each test gets its own database in fake-indexeddb, as each browser profile would.
function freshName(): string {
  return `medledger-test-${++databases}`;
}

function sampleDocument(id: string): DocumentKey {
  return { id, encryptionKey: 'b'.repeat(64) };
}

function sampleBlock(index: number): Block {
  return {
    id: String(index),
    hash: `${index}`.padStart(64, '0'),
    previousHash: '0'.repeat(64),
    timestamp: '2026-03-02T10:00:00.000Z',
    dataHash: 'd'.repeat(64),
    nonce: index,
    author: SARAH.id,
    signature: '',
    data: {
      id: `r${index}`,
      patientId: SARAH.id,
      doctorId: 'doctor-1',
      type: 'prescription',
      title: `Record ${index}`,
      description: '',
      files: [],
      timestamp: '2026-03-02T10:00:00.000Z',
    },
  };
}

describe.each([
  ['memory', () => createMemoryStorage()],
  ['IndexedDB', () => createIndexedDbStorage(freshName())],
] as [string, () => LedgerStorage][])('%s storage', (_kind, create) => {
  it('loads back what was committed, blocks in index order, bytes on demand', async () => {
    const storage = create();
    await storage.commit({
      blocks: [sampleBlock(1), sampleBlock(0)],
      documents: [sampleDocument('a')],
      contents: [{ id: 'a', bytes: new Uint8Array([1, 2, 3]).buffer }],
      meta: { revision: 4 },
    });
    const loaded = await storage.load();
    expect(loaded.blocks.map((b) => b.id)).toEqual(['0', '1']);
    expect(loaded.documents).toEqual([sampleDocument('a')]);
    expect(loaded.contentIds).toEqual(['a']);
    expect(loaded.meta).toEqual({ revision: 4 });
    expect(await storage.readMeta('revision')).toBe(4);
    expect([...new Uint8Array((await storage.readContent('a'))!)]).toEqual([1, 2, 3]);
  });

  it('stores nothing of a write that fails part way, and keeps what was there', async () => {
    const storage = create();
    await storage.commit({ blocks: [sampleBlock(0)], meta: { revision: 1 } });
    const unstorable = { ...sampleDocument('b'), encryptionKey: (() => 'x') as unknown as string };
    await expect(
      storage.commit({
        blocks: [sampleBlock(1)],
        documents: [sampleDocument('a'), unstorable],
        contents: [{ id: 'a', bytes: new Uint8Array([9]).buffer }],
        meta: { revision: 2 },
      }),
    ).rejects.toThrow();
    const loaded = await storage.load();
    expect(loaded.blocks.map((b) => b.id)).toEqual(['0']);
    expect(loaded.documents).toEqual([]);
    expect(loaded.meta).toEqual({ revision: 1 });
    expect(await storage.readContent('a')).toBeUndefined();
  });

  it('clears every store in the same write that starts over', async () => {
    const storage = create();
    await storage.commit({ blocks: [sampleBlock(0), sampleBlock(1)], documents: [sampleDocument('a')], meta: { x: 1 } });
    await storage.commit({ clear: true, blocks: [sampleBlock(0)], meta: { revision: 9 } });
    const loaded = await storage.load();
    expect(loaded.blocks).toHaveLength(1);
    expect(loaded.documents).toEqual([]);
    expect(loaded.meta).toEqual({ revision: 9 });
  });
});

// Sarah's upload, a full grant read by Dr. Wilson and ended, and a deletion: the ledger a reload must keep.
async function populated(storage: LedgerStorage) {
  const service = createTestLedgerService({ storage });
  await signInAs(service, SARAH);
  const kept = await service.upload(uploadOf('ECG', [fileInput('ecg.pdf', 'ECG trace'), fileInput('note.png', 'note')]));
  const removed = await service.upload(uploadOf('Old scan', [fileInput('old.jpg', 'old')]));
  await service.deleteDocument(removed.record.documentIds[0]);
  await signInAs(service, WILSON);
  const grant = await service.requestEmergencyAccess({
    patientId: SARAH.id,
    reason: 'ER',
    accessLevel: 'full',
    durationMinutes: 60,
  });
  await service.emergencyView(grant.id);
  await service.endEmergencyAccess(grant.id);
  await signInAs(service, SARAH);
  await service.acknowledgeEmergencyAccesses();
  return { service, kept, removed, grant };
}

// How Sarah's deleted files read: a sealed file's name and type were under its key, which the deletion dropped.
async function deletedFiles(service: LedgerService) {
  const records = (await service.listRecords(SARAH.id)).records;
  return records.flatMap((record) =>
    record.documents.filter((document) => document.deletedAt).map(({ fileName, fileType }) => ({ fileName, fileType })),
  );
}

describe('persistence across a reload', () => {
  it('a new service on the same IndexedDB has every record, document, grant and acknowledgement', async () => {
    const name = freshName();
    const before = await populated(createIndexedDbStorage(name));
    const status = await before.service.chainStatus();

    const after = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(after, SARAH);
    expect(await after.chainStatus()).toEqual(status);
    expect(await deletedFiles(after)).toEqual([{ fileName: 'Deleted file', fileType: '' }]); // its name went with its key
    expect((await after.listRecords(SARAH.id)).records).toEqual((await before.service.listRecords(SARAH.id)).records);
    expect(textOf((await after.readDocument(before.kept.record.documentIds[0])).bytes)).toBe('ECG trace');
    expect(textOf((await after.readDocument(before.kept.record.documentIds[1])).bytes)).toBe('note');
    expect((await errorOf(after.readDocument(before.removed.record.documentIds[0]))).name).toBe('NotFoundError');
    expect(await after.accessHistory()).toEqual(await before.service.accessHistory());
    expect((await after.accessHistory())[0]).toMatchObject({ grantId: before.grant.id, status: 'ended' });
    expect((await after.patientOverview()).newEmergencyAccesses).toEqual([]);
    await signInAs(after, WILSON);
    expect(await after.activeGrants()).toEqual([]);
  });

  it('a new service on the same storage appends after the stored tip', async () => {
    const name = freshName();
    await populated(createIndexedDbStorage(name));
    const after = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(after, SARAH);
    const height = (await after.chainStatus()).height;
    const { block } = await after.upload(uploadOf('After reload'));
    expect(block.index).toBe(height);
    expect(await after.chainStatus()).toMatchObject({ height: height + 1, valid: true });
  });
});

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

// Every stored page, read directly: [page number, its blocks].
async function storedPages(name: string): Promise<[number, Block[]][]> {
  const db = await openDB(name);
  const tx = db.transaction('pages');
  const [keys, pages] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
  db.close();
  return keys.map((key, i) => [key as number, pages[i] as Block[]]);
}

// A database as the previous MedLedger (version 2) wrote it: one row per block, keyed by its index.
async function writeVersion2(name: string, stored: StoredState, contents: { id: string; bytes: ArrayBuffer }[] = []) {
  const db = await openDB(name, 2, {
    upgrade(db) {
      db.createObjectStore('blocks');
      db.createObjectStore('documents', { keyPath: 'id' });
      db.createObjectStore('contents');
      db.createObjectStore('meta');
    },
  });
  const tx = db.transaction(['blocks', 'documents', 'contents', 'meta'], 'readwrite');
  await Promise.all([
    ...stored.blocks.map((block) => tx.objectStore('blocks').put(block, Number(block.id))),
    ...stored.documents.map((document) => tx.objectStore('documents').put(document)),
    ...contents.map(({ id, bytes }) => tx.objectStore('contents').put(bytes, id)),
    ...Object.entries(stored.meta).map(([key, value]) => tx.objectStore('meta').put(value, key)),
    tx.done,
  ]);
  db.close();
}

// The ledger of populated(), as a version 2 database would hold it.
async function populatedVersion2(name: string, change: (stored: StoredState) => void = () => undefined) {
  const memory = createMemoryStorage();
  const before = await populated(memory);
  const stored = await memory.load();
  const contents = await Promise.all(stored.contentIds.map(async (id) => ({ id, bytes: (await memory.readContent(id))! })));
  change(stored);
  await writeVersion2(name, stored, contents);
  return before;
}

describe('IndexedDB keeps the chain in pages of 1,000 blocks', () => {
  it('opens a version 2 database as version 3, its blocks moved into pages in index order and the rest kept', async () => {
    const name = freshName();
    const blocks = range(0, 2500).map(sampleBlock);
    await writeVersion2(name, { blocks, documents: [sampleDocument('a')], contentIds: [], meta: { revision: 7 } }, [
      { id: 'a', bytes: new Uint8Array([1, 2]).buffer },
    ]);
    const loaded = await createIndexedDbStorage(name).load();
    expect(loaded).toEqual({ blocks, from: 0, documents: [sampleDocument('a')], contentIds: ['a'], meta: { revision: 7 } });
    const db = await openDB(name);
    expect(db.version).toBe(3);
    expect([...db.objectStoreNames]).toEqual(['contents', 'documents', 'meta', 'pages']);
    db.close();
    const pages = await storedPages(name);
    expect(pages.map(([page, held]) => [page, held.length])).toEqual([
      [0, 1000],
      [1, 1000],
      [2, 500],
    ]);
    expect(pages.every(([page, held]) => held.every((block, i) => block.id === String(page * BLOCKS_PER_PAGE + i)))).toBe(true);
  });

  it('loads a version 2 ledger after the upgrade as it was: the same chain, records, history and files', async () => {
    const name = freshName();
    const before = await populatedVersion2(name);
    const after = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(after, SARAH);
    expect(await after.chainStatus()).toEqual(await before.service.chainStatus());
    expect(await after.chainStatus()).toMatchObject({ valid: true, readOnly: false });
    expect(await deletedFiles(after)).toEqual([{ fileName: 'Deleted file', fileType: '' }]); // its name went with its key
    expect((await after.listRecords(SARAH.id)).records).toEqual((await before.service.listRecords(SARAH.id)).records);
    expect(await after.accessHistory()).toEqual(await before.service.accessHistory());
    expect(textOf((await after.readDocument(before.kept.record.documentIds[0])).bytes)).toBe('ECG trace');
    expect((await after.upload(uploadOf('After the upgrade'))).block.index).toBe((await before.service.chainStatus()).height);
  });

  it('names a version 2 ledger missing a block at the same index after the upgrade', async () => {
    const name = freshName();
    await populatedVersion2(name, (stored) => void stored.blocks.splice(1, 1));
    const service = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(service, SARAH);
    expect((await service.chainStatus()).firstInvalid).toEqual({ index: 1, reason: 'id "2" does not match index 1' });
  });

  it('loads back in index order appends that cross a page boundary', async () => {
    const name = freshName();
    const storage = createIndexedDbStorage(name);
    await storage.commit({ blocks: range(0, 998).map(sampleBlock) });
    await storage.commit({ blocks: range(998, 1003).map(sampleBlock) });
    await storage.commit({ blocks: [sampleBlock(1003)] });
    expect((await storage.load()).blocks.map((block) => block.id)).toEqual(range(0, 1004).map(String));
    const pages = await storedPages(name);
    expect(pages.map(([page, held]) => [page, held.map((block) => block.id).slice(-2)])).toEqual([
      [0, ['998', '999']],
      [1, ['1002', '1003']],
    ]);
    expect(pages[1][1]).toHaveLength(4);
  });

  it('reads a ledger of more pages than one read takes, whole or from a block on, and its genesis alone', async () => {
    const storage = createIndexedDbStorage(freshName());
    expect(await storage.readFirstBlock?.()).toBeUndefined();
    expect((await storage.load()).blocks).toEqual([]);
    await storage.commit({ blocks: range(0, 12_345).map(sampleBlock) }); // 13 pages: read 5 at a time
    expect((await storage.load()).blocks.map((block) => block.id)).toEqual(range(0, 12_345).map(String));
    expect((await storage.load(10_999)).blocks.map((block) => block.id)).toEqual(range(10_999, 12_345).map(String));
    expect(await storage.readFirstBlock?.()).toEqual(sampleBlock(0));
  });

  it.each([
    ['a revision conflict', 0, (block: Block) => block, 'RevisionConflict'],
    [
      'a value that cannot be cloned',
      1,
      (block: Block) => ({ ...block, data: { ...block.data, title: (() => 'x') as never } }),
      'DataCloneError',
    ],
  ])('leaves every page as it was when a write is refused for %s', async (_case, expectedRevision, change, refusal) => {
    const name = freshName();
    const storage = createIndexedDbStorage(name);
    await storage.commit({ blocks: range(0, 1001).map(sampleBlock), meta: { revision: 1 } });
    const before = await storedPages(name);
    const write = storage.commit({
      expectedRevision,
      blocks: [sampleBlock(1001), { ...change(sampleBlock(5)), nonce: -1 }, sampleBlock(2000)], // pages 1, 0 and a new one
      meta: { revision: 2 },
    });
    expect((await errorOf(write)).name).toBe(refusal);
    expect(await storedPages(name)).toEqual(before);
    expect((await storage.load()).meta).toEqual({ revision: 1 });
  });

  it('drops every old page in a write that starts over with new blocks', async () => {
    const name = freshName();
    const storage = createIndexedDbStorage(name);
    await storage.commit({ blocks: range(0, 2500).map(sampleBlock) });
    await storage.commit({ clear: true, blocks: range(0, 3).map((index) => ({ ...sampleBlock(index), nonce: 99 })) });
    expect((await storage.load()).blocks.map((block) => [block.id, block.nonce])).toEqual([
      ['0', 99],
      ['1', 99],
      ['2', 99],
    ]);
    expect((await storedPages(name)).map(([page, held]) => [page, held.length])).toEqual([[0, 3]]);
  });
});

// Rewrites block `index` inside its stored page, as any script of the origin could.
async function tamperStoredBlock(name: string, index: number, change: (page: Block[], offset: number) => void) {
  const db = await openDB(name);
  const page = (await db.get('pages', Math.floor(index / BLOCKS_PER_PAGE))) as Block[];
  change(page, index % BLOCKS_PER_PAGE);
  await db.put('pages', page, Math.floor(index / BLOCKS_PER_PAGE));
  db.close();
}

describe('a stored chain that fails verification', () => {
  async function tampered() {
    const name = freshName();
    const { kept } = await populated(createIndexedDbStorage(name));
    await tamperStoredBlock(name, 2, (page, at) => {
      page[at] = { ...page[at], data: { ...page[at].data, title: 'Forged' } };
    });
    const service = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(service, SARAH);
    return { service, kept, name };
  }

  it('is reported with the index and the failed check, and the ledger turns read-only', async () => {
    const { service } = await tampered();
    expect(await service.chainStatus()).toMatchObject({
      valid: false,
      readOnly: true,
      firstInvalid: { index: 2, reason: 'record data was changed (data hash mismatch)' },
    });
  });

  it('refuses every change with ReadOnlyError naming the block', async () => {
    const { service, kept } = await tampered();
    const readOnly = {
      name: 'ReadOnlyError',
      message:
        'The stored records failed verification at block 2 (record data was changed (data hash mismatch)), so changes are turned off. Reset the demo data to start over.',
    };
    expect(await errorOf(service.upload(uploadOf('More')))).toEqual(readOnly);
    expect(await errorOf(service.deleteDocument(kept.record.documentIds[0]))).toEqual(readOnly);
    await signInAs(service, WILSON);
    const grant = service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'ER',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    expect(await errorOf(grant)).toEqual(readOnly);
  });

  it('keeps serving what verified, and only that', async () => {
    const { service, kept } = await tampered();
    const titles = (await service.listRecords(SARAH.id)).records.map((r) => r.title);
    expect(titles).toEqual(['ECG', 'Initial health assessment']);
    expect(textOf((await service.readDocument(kept.record.documentIds[0])).bytes)).toBe('ECG trace');
    const page = await service.blocksPage(0, 500);
    expect(page.blocks.find((b) => b.index === 2)?.title).toBe('Forged'); // the explorer still shows the bad block
  });

  it('is named at the right index when a block was removed from the middle', async () => {
    const name = freshName();
    await populated(createIndexedDbStorage(name));
    await tamperStoredBlock(name, 1, (page, at) => delete page[at]);
    const service = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(service, SARAH);
    expect((await service.chainStatus()).firstInvalid).toEqual({ index: 1, reason: 'id "2" does not match index 1' });
  });

  it('starts over with a fresh genesis after Reset demo data, and accepts changes again', async () => {
    const { service, name } = await tampered();
    await service.resetDemoData();
    expect(await service.chainStatus()).toMatchObject({ height: 1, valid: true, readOnly: false });
    expect((await service.upload(uploadOf('Fresh start'))).block.index).toBe(1);
    const reopened = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(reopened, SARAH);
    expect((await reopened.listRecords(SARAH.id)).records.map((r) => r.title)).toEqual([
      'Fresh start',
      'Initial health assessment',
    ]);
  });

  it('is read-only when the blocks are gone but other data remains, instead of silently starting over', async () => {
    const storage = createMemoryStorage();
    await storage.commit({ documents: [sampleDocument('orphan')], meta: { revision: 3 } });
    const service = createTestLedgerService({ storage });
    await signInAs(service, SARAH);
    expect(await service.chainStatus()).toMatchObject({ valid: false, readOnly: true, height: 0 });
  });
});

describe('a write the storage refuses (atomic upload)', () => {
  it('leaves no document and no block, in storage or in memory, and says the upload was not saved', async () => {
    const name = freshName();
    const { storage, failWhen } = createFailingStorage(createIndexedDbStorage(name));
    const service = createTestLedgerService({ storage });
    await signInAs(service, SARAH);
    const before = (await service.listRecords(SARAH.id)).records;
    failWhen((write) => (write.blocks?.length ?? 0) > 0);
    expect(await errorOf(service.upload(uploadOf('Lost', [fileInput('a.pdf'), fileInput('b.pdf')])))).toEqual({
      name: 'StorageError',
      message:
        'The upload was not saved: this device has no room left for MedLedger. Free some space (or delete files you no longer need), then try again.',
    });
    expect(await service.chainStatus()).toMatchObject({ height: 1, valid: true });
    expect((await service.listRecords(SARAH.id)).records).toEqual(before);
    const stored = await storage.load();
    expect(stored.blocks).toHaveLength(1);
    expect(stored.documents).toEqual([]);

    failWhen(null);
    const { block } = await service.upload(uploadOf('Saved'));
    expect(block.index).toBe(1);
    const reopened = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(reopened, SARAH);
    expect(await reopened.chainStatus()).toMatchObject({ height: 2, valid: true });
  });

  it('leaves no grant when the grant cannot be stored', async () => {
    const { storage, failWhen } = createFailingStorage(createMemoryStorage());
    const service = createTestLedgerService({ storage });
    await signInAs(service, WILSON);
    failWhen(() => true);
    const error = await errorOf(
      service.requestEmergencyAccess({ patientId: SARAH.id, reason: 'ER', accessLevel: 'basic', durationMinutes: 15 }),
    );
    expect(error).toEqual({
      name: 'StorageError',
      message:
        'The emergency access was not saved: this device has no room left for MedLedger. Free some space (or delete files you no longer need), then try again.',
    });
    expect(await service.activeGrants()).toEqual([]);
    expect((await storage.load()).blocks).toHaveLength(1); // no grant block: grants exist only as blocks
  });

  it('keeps a deleted document readable when the deletion cannot be stored', async () => {
    const { storage, failWhen } = createFailingStorage(createMemoryStorage());
    const service = createTestLedgerService({ storage });
    await signInAs(service, SARAH);
    const { record } = await service.upload(uploadOf('ECG', [fileInput('ecg.pdf', 'trace')]));
    failWhen(() => true);
    expect((await errorOf(service.deleteDocument(record.documentIds[0]))).name).toBe('StorageError');
    failWhen(null);
    expect(textOf((await service.readDocument(record.documentIds[0])).bytes)).toBe('trace');
  });
});

// Two tabs: two services on one database, with the worker's BroadcastChannel and one lock between them.
function twoTabs(name: string) {
  const channels: BroadcastChannel[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  const lock = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
  const tab = () => {
    const channel = new BroadcastChannel(`ledger-${name}`);
    channels.push(channel);
    return createTestLedgerService({
      storage: createIndexedDbStorage(name),
      lock,
      notifyOthers: (message) => channel.postMessage(message),
      listenToOthers: (listener) =>
        channel.addEventListener('message', (event) => listener((event as MessageEvent<LedgerBroadcast>).data)),
    });
  };
  return { tabs: [tab(), tab()] as const, close: () => channels.forEach((c) => c.close()) };
}

describe('two tabs', () => {
  it('a change in one tab reaches the other without a reload', async () => {
    const { tabs, close } = twoTabs(freshName());
    const [first, second] = tabs;
    try {
      await signInAs(first, SARAH);
      await signInAs(second, SARAH);
      await second.chainStatus();
      const changed = new Promise<void>((resolve) => void second.onChange(Object.assign(() => resolve(), {}) as never));
      await first.upload(uploadOf('From tab one'));
      await changed;
      expect((await second.listRecords(SARAH.id)).records[0].title).toBe('From tab one');
    } finally {
      close();
    }
  });

  it('uploads from both tabs at once end up as one valid chain holding both', async () => {
    const name = freshName();
    const { tabs, close } = twoTabs(name);
    const [first, second] = tabs;
    try {
      await signInAs(first, SARAH);
      await signInAs(second, SARAH);
      await Promise.all([first.chainStatus(), second.chainStatus()]);
      await Promise.all([first.upload(uploadOf('One')), second.upload(uploadOf('Two')), first.upload(uploadOf('Three'))]);
      for (const tab of tabs) {
        // each tab catches up on the other's last write when its broadcast arrives
        // until it settles, however busy the machine: the test's own timeout is the only limit
        await vi.waitFor(async () => expect(await tab.chainStatus()).toMatchObject({ height: 4, valid: true }), {
          timeout: 25_000,
        });
      }
      const reopened = createTestLedgerService({ storage: createIndexedDbStorage(name) });
      await signInAs(reopened, SARAH);
      expect(await reopened.chainStatus()).toMatchObject({ height: 4, valid: true });
      expect((await first.listRecords(SARAH.id)).records.map((r) => r.title).sort()).toEqual([
        'Initial health assessment',
        'One',
        'Three',
        'Two',
      ]);
    } finally {
      close();
    }
  });

  it('two tabs opened at once on an empty database and writing at once, with no shared lock, never fork the chain', async () => {
    const name = freshName();
    const first = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    const second = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await Promise.all([signInAs(first, SARAH), signInAs(second, SARAH)]);
    const results = await Promise.all([
      first.upload(uploadOf('A1')),
      second.upload(uploadOf('B1')),
      first.upload(uploadOf('A2')),
      second.upload(uploadOf('B2')),
    ]);
    expect(results.map((r) => r.block.index).sort()).toEqual([1, 2, 3, 4]);
    const reopened = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(reopened, SARAH);
    expect(await reopened.chainStatus()).toMatchObject({ height: 5, valid: true });
    expect((await reopened.listRecords(SARAH.id)).records.map((r) => r.title).sort()).toEqual([
      'A1',
      'A2',
      'B1',
      'B2',
      'Initial health assessment',
    ]);
  });

  it('a tab that missed the broadcast still appends on the stored tip', async () => {
    const name = freshName();
    const first = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    const second = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(first, SARAH);
    await signInAs(second, SARAH);
    await second.chainStatus();
    await first.upload(uploadOf('First tab'));
    await second.upload(uploadOf('Second tab'));
    const reopened = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(reopened, SARAH);
    expect(await reopened.chainStatus()).toMatchObject({ height: 3, valid: true });
  });
});

describe('an expiry the storage cannot record', () => {
  it('still ends the grant by the clock and keeps other reads working', async () => {
    let time = Date.parse('2026-03-02T10:00:00.000Z');
    const { storage, failWhen } = createFailingStorage(createMemoryStorage());
    const service = createTestLedgerService({ storage, now: () => time });
    await signInAs(service, WILSON);
    const grant = await service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'ER',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    failWhen(() => true);
    time += 15 * 60_000;
    expect((await errorOf(service.emergencyView(grant.id))).message).toBe('Access denied: Insufficient permissions');
    expect(await service.activeGrants()).toEqual([]);
    expect((await service.chainStatus()).valid).toBe(true);
    failWhen(null);
    await service.chainStatus();
    expect(emergencyOf((await storage.load()).blocks.at(-1)!.data)?.event).toBe('expired');
  });
});
