import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { mineBlock } from '../../workers/core/chain';
import type { Block, ChainRecord } from '../../workers/core/types';
import { createIndexedDbStorage } from '../../workers/storage/indexeddb-storage';
import { FORMAT_KEY, type LedgerStorage } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { emergencyOf } from '../support/chain-records';
import {
  CARTER,
  DENIED,
  MICHAEL,
  SARAH,
  WILSON,
  createClock,
  errorOf,
  fileInput,
  signInAs,
  textOf,
  uploadOf,
} from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

const MINUTE = 60_000;
let databases = 0;

// Sarah's two-file upload; Dr. Wilson (not her doctor) held a basic 15-minute grant and ended it.
async function endedBasicGrant(storage: LedgerStorage = createMemoryStorage()) {
  const clock = createClock();
  const service = createTestLedgerService({ storage, now: clock.now });
  await signInAs(service, SARAH);
  const { record } = await service.upload(
    uploadOf('Scans', [fileInput('first.pdf', 'first'), fileInput('second.pdf', 'second')]),
  );
  await signInAs(service, WILSON);
  const grant = await service.requestEmergencyAccess({
    patientId: SARAH.id,
    reason: 'ER',
    accessLevel: 'basic',
    durationMinutes: 15,
  });
  clock.advance(MINUTE);
  await service.endEmergencyAccess(grant.id);
  return { service, storage, clock, grant, documentIds: record.documentIds };
}

// A service that loads `storage` as it is now, as a reload of the page would, signed in as `who`.
async function reload(storage: LedgerStorage, who: typeof SARAH | typeof WILSON, now?: () => number) {
  const service = createTestLedgerService({ storage, ...(now ? { now } : {}) });
  await signInAs(service, who);
  return service;
}

// Re-mines blocks[from..] after `edit` changed block `from`'s record, so every hash and link is valid again.
function remineFrom(blocks: Block[], from: number, edit: (record: ChainRecord) => ChainRecord): Block[] {
  const next = blocks.slice(0, from);
  for (let i = from; i < blocks.length; i++) {
    const record = i === from ? edit(structuredClone(blocks[i].data)) : blocks[i].data;
    next.push(mineBlock(next[i - 1], record, i === from ? record.timestamp : blocks[i].timestamp));
  }
  return next;
}

describe('a grant is a fact of the chain, never a stored row', () => {
  it('keeps no grants store in IndexedDB: there is no row to edit or invent', async () => {
    const name = `medledger-truth-${++databases}`;
    await endedBasicGrant(createIndexedDbStorage(name));
    const db = await openDB(name);
    expect([...db.objectStoreNames]).not.toContain('grants');
    expect(() => db.transaction('grants' as never, 'readwrite')).toThrow(expect.objectContaining({ name: 'NotFoundError' }));
    db.close();
  });

  it('names the block when an ended basic grant is edited to full in storage, and gives the doctor nothing', async () => {
    const { storage, clock, grant, documentIds } = await endedBasicGrant();
    const stored = (await storage.load()).blocks;
    const index = stored.findIndex((block) => emergencyOf(block.data)?.event === 'granted');
    const granted = stored[index];
    const forged = {
      ...granted,
      data: {
        ...granted.data,
        emergency: { ...emergencyOf(granted.data)!, accessLevel: 'full' as const },
        emergencyAccessExpiry: '2099-01-01T00:00:00.000Z',
      },
    };
    await storage.commit({ blocks: [forged as Block] }); // not re-mined
    clock.advance(24 * 60 * MINUTE);
    const wilson = await reload(storage, WILSON, clock.now);
    expect(await wilson.chainStatus()).toMatchObject({
      valid: false,
      readOnly: true,
      firstInvalid: { index, reason: 'record data was changed (data hash mismatch)' },
    });
    expect(await wilson.activeGrants()).toEqual([]);
    expect(await errorOf(wilson.emergencyView(grant.id))).toEqual(DENIED);
    expect(await errorOf(wilson.readDocument(documentIds[1]))).toEqual(DENIED);
  });

  it('names a re-mined chain whose grant end was dropped and whose reads come after the end', async () => {
    const { storage, grant } = await endedBasicGrant();
    const blocks = (await storage.load()).blocks;
    const ended = blocks.findIndex((block) => emergencyOf(block.data)?.event === 'ended');
    // A read forged after the end, every hash redone: legal by hashes, illegal by the grant's story.
    const read = { ...structuredClone(blocks[ended].data), id: 'forged-read', title: 'Emergency read by Dr. James Wilson' };
    Object.assign(read, {
      emergency: { ...emergencyOf(read)!, event: 'read', read: 'profile, health overview and 5 most recent records' },
    });
    const forged = mineBlock(blocks[ended], read, blocks[ended].timestamp);
    await storage.commit({ blocks: [forged] });
    const wilson = await reload(storage, WILSON);
    expect((await wilson.chainStatus()).firstInvalid).toEqual({
      index: ended + 1,
      reason: `read names grant ${grant.id}, which had ended`,
    });
  });
});

describe('every file of an upload is bound to the chain', () => {
  it('refuses the second file when its bytes and key are swapped for the first one in storage', async () => {
    const { storage, documentIds } = await endedBasicGrant();
    const [first, second] = documentIds;
    const keys = (await storage.load()).documents;
    const firstKey = keys.find((row) => row.id === first)!.encryptionKey;
    await storage.commit({
      documents: [{ id: second, encryptionKey: firstKey }],
      contents: [{ id: second, bytes: (await storage.readContent(first))! }],
    });
    const sarah = await reload(storage, SARAH);
    expect(textOf((await sarah.readDocument(first)).bytes)).toBe('first');
    const refused = await errorOf(sarah.readDocument(second));
    expect(refused.name).toBe('IntegrityError');
    expect(refused.message).toMatch(/does not match its content id/);
  });

  it("names the upload block at load when the second file's content id is changed", async () => {
    const { storage } = await endedBasicGrant();
    const upload = (await storage.load()).blocks[1];
    const files = structuredClone((upload.data as { files: { cid: string }[] }).files);
    files[1].cid = files[0].cid;
    await storage.commit({ blocks: [{ ...upload, data: { ...upload.data, files } as ChainRecord }] });
    const sarah = await reload(storage, SARAH);
    expect((await sarah.chainStatus()).firstInvalid).toEqual({
      index: 1,
      reason: 'record data was changed (data hash mismatch)',
    });
  });

  it('names a stored key that no block names, and a named file whose key or bytes are gone', async () => {
    const { storage, documentIds } = await endedBasicGrant();
    const height = (await storage.load()).blocks.length;
    await storage.commit({ documents: [{ id: 'invented', encryptionKey: 'a'.repeat(64) }] });
    const sarah = await reload(storage, SARAH);
    expect((await sarah.chainStatus()).firstInvalid).toEqual({
      index: height,
      item: 'document key invented',
      reason: 'no block names it as a stored file',
    });

    const other = await endedBasicGrant();
    await other.storage.commit({ deleteDocuments: [other.documentIds[1]] });
    const reloaded = await reload(other.storage, SARAH);
    // the file's name is sealed on the chain (''), so the message names it by its document id
    expect((await reloaded.chainStatus()).firstInvalid).toEqual({
      index: 1,
      reason: `the key of document ${other.documentIds[1]} is missing`,
    });
    expect(documentIds).toHaveLength(2);
  });
});

describe('writes are decided on fresh state', () => {
  it("refuses a stale tab's grant end after another tab reset the data, and writes no block", async () => {
    const storage = createMemoryStorage();
    const tabA = createTestLedgerService({ storage });
    await signInAs(tabA, WILSON);
    const grant = await tabA.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'ER',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    const tabB = createTestLedgerService({ storage });
    await signInAs(tabB, WILSON); // the grant is his own: his reset drops nothing anyone else wrote
    await tabB.resetDemoData();
    expect(await errorOf(tabA.endEmergencyAccess(grant.id))).toEqual({
      name: 'NotFoundError',
      message: 'This emergency access no longer exists.',
    });
    expect((await storage.load()).blocks).toHaveLength(1);
    expect(await tabA.activeGrants()).toEqual([]);
  });

  it('says a document was deleted when another tab deleted it after this tab last read the ledger', async () => {
    const storage = createMemoryStorage();
    const tabA = createTestLedgerService({ storage });
    await signInAs(tabA, SARAH);
    const { record } = await tabA.upload(uploadOf('ECG', [fileInput('ecg.pdf', 'trace')]));
    const tabB = createTestLedgerService({ storage });
    await signInAs(tabB, SARAH);
    await tabB.deleteDocument(record.documentIds[0]);
    expect(await errorOf(tabA.readDocument(record.documentIds[0]))).toEqual({
      name: 'NotFoundError',
      message: '"ecg.pdf" was deleted.',
    });
    // tab A reads the deletion now: the file's name went with its key
    expect(await errorOf(tabA.deleteDocument(record.documentIds[0]))).toEqual({
      name: 'NotFoundError',
      message: 'This file was deleted.',
    });
    expect((await storage.load()).blocks).toHaveLength(3); // genesis, upload, one deletion
  });
});

describe('stored data the chain cannot hold', () => {
  it.each([
    ['a BigInt', (data: Record<string, unknown>) => Object.assign(data, { title: 10n })],
    ['a cycle', (data: Record<string, unknown>) => Object.assign(data, { self: data })],
    ['a missing field', (data: Record<string, unknown>) => Object.assign(data, { files: undefined })],
  ])('names a block holding %s, and sign-in and Reset demo data still work', async (_case, corrupt) => {
    const name = `medledger-truth-${++databases}`;
    const storage = createIndexedDbStorage(name);
    const writer = createTestLedgerService({ storage });
    await signInAs(writer, SARAH);
    await writer.upload(uploadOf('Scan'));
    const [, upload] = (await storage.load()).blocks;
    const data = structuredClone(upload.data) as unknown as Record<string, unknown>;
    await storage.commit({ blocks: [{ ...upload, data: corrupt(data) as unknown as ChainRecord }] });

    const service = await reload(createIndexedDbStorage(name), SARAH);
    const status = await service.chainStatus();
    expect(status).toMatchObject({ valid: false, readOnly: true, firstInvalid: { index: 1 } });
    expect(status.firstInvalid?.reason).toMatch(/malformed|data hash mismatch/);
    expect((await service.listRecords(SARAH.id)).records.map((record) => record.title)).toEqual(['Initial health assessment']);
    await service.resetDemoData();
    expect(await service.chainStatus()).toMatchObject({ valid: true, readOnly: false, height: 1 });
  });

  it('opens a version 1 database of the earlier MedLedger, names its format and starts over on Reset', async () => {
    const name = `medledger-truth-${++databases}`;
    const old = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('blocks');
        db.createObjectStore('documents', { keyPath: 'id' });
        db.createObjectStore('contents');
        db.createObjectStore('grants', { keyPath: 'id' });
        db.createObjectStore('meta');
      },
    });
    await old.put(
      'blocks',
      { id: '0', hash: 'h', previousHash: '0'.repeat(64), timestamp: 't', dataHash: 'd', data: {}, nonce: 1 },
      0,
    );
    await old.put('grants', { id: 'g', isActive: true });
    await old.put('meta', 5, 'revision');
    old.close();
    const service = await reload(createIndexedDbStorage(name), SARAH);
    expect((await service.chainStatus()).firstInvalid?.reason).toMatch(/earlier version of MedLedger/);
    await service.resetDemoData();
    expect(await service.chainStatus()).toMatchObject({ valid: true, height: 1 });
  });

  it('recognises a ledger stored by the earlier version, says so, and starts over on Reset', async () => {
    const storage = createMemoryStorage();
    const writer = createTestLedgerService({ storage });
    await signInAs(writer, SARAH);
    await writer.upload(uploadOf('Scan'));
    await storage.commit({ meta: { [FORMAT_KEY]: undefined } });
    const service = await reload(storage, SARAH);
    expect(await service.chainStatus()).toMatchObject({
      valid: false,
      readOnly: true,
      firstInvalid: {
        index: 0,
        reason: 'the records were stored by an earlier version of MedLedger, in a format this version does not read',
      },
    });
    expect((await errorOf(service.upload(uploadOf('New')))).name).toBe('ReadOnlyError');
    await service.resetDemoData();
    expect(await service.chainStatus()).toMatchObject({ valid: true, height: 1 });
  });
});

describe('semantic verification of re-mined chains', () => {
  async function ledger() {
    const clock = createClock();
    const storage = createMemoryStorage();
    const service = createTestLedgerService({ storage, now: clock.now });
    await signInAs(service, SARAH);
    await service.upload(uploadOf('One', [fileInput('one.pdf')]));
    clock.advance(MINUTE);
    await service.upload(uploadOf('Two', [fileInput('two.pdf')]));
    return { storage, blocks: (await storage.load()).blocks };
  }

  it.each([
    [
      'a timestamp that goes back',
      2,
      (r: ChainRecord) => ({ ...r, timestamp: '2020-01-01T00:00:00.000Z' }),
      'the timestamp goes back before the previous block',
    ],
    [
      'a document id used twice',
      2,
      (r: ChainRecord) =>
        ({ ...r, files: (r as { files: object[] }).files.map((f) => ({ ...f, documentId: documentIdOfBlock1 })) }) as ChainRecord,
      `document ${'<id>'} is already named by another record`,
    ],
    [
      'an upload for a doctor other than the patient’s',
      2,
      (r: ChainRecord) => ({ ...r, doctorId: CARTER.id === r.doctorId ? WILSON.id : CARTER.id }),
      "an upload names a doctor other than the patient's",
    ],
    [
      'an upload for an unlisted patient',
      2,
      (r: ChainRecord) => ({ ...r, patientId: 'patient-9' }),
      'an upload names no listed patient',
    ],
    [
      'a deletion of a document of another patient',
      2,
      (r: ChainRecord) =>
        ({
          ...r,
          type: 'document_deleted',
          documentId: documentIdOfBlock1,
          patientId: MICHAEL.id,
          files: undefined,
          sealed: undefined, // the upload's sealed text: a deletion has none
        }) as unknown as ChainRecord,
      "a deletion names a document that is not one of the patient's",
    ],
  ])('names %s at its block with the rule', async (_case, index, edit, reason) => {
    const { storage, blocks } = await ledger();
    documentIdOfBlock1 = (blocks[1].data as { files: { documentId: string }[] }).files[0].documentId;
    const forged = remineFrom(blocks, index, (record) => JSON.parse(JSON.stringify(edit(record))) as ChainRecord);
    await storage.commit({ blocks: forged.slice(index) });
    const service = await reload(storage, SARAH);
    expect((await service.chainStatus()).firstInvalid).toEqual({ index, reason: reason.replace('<id>', documentIdOfBlock1) });
  });
});

let documentIdOfBlock1 = '';
