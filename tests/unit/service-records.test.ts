import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_FILE_BYTES } from '../../workers/core/constants';
import { createTestLedgerService } from '../support/test-ledger';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import {
  CARTER,
  MICHAEL,
  SARAH,
  WILSON,
  createClock,
  errorOf,
  fileInput,
  signInAs,
  textOf,
  uploadOf,
  DENIED,
} from '../support/ledger-fixtures';

async function patientLedger(options: Parameters<typeof createTestLedgerService>[0] = {}) {
  const storage = options.storage ?? createMemoryStorage();
  const service = createTestLedgerService({ ...options, storage });
  await signInAs(service, SARAH);
  return { service, storage };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('upload validation stores nothing', () => {
  const rejections: [string, Parameters<typeof uploadOf>, string][] = [
    ['a blank title', ['   ', [fileInput('ecg.pdf')]], 'Enter a title.'],
    ['no file', ['Blood test', []], 'Add at least one file.'],
    [
      'a wrong file type',
      ['Blood test', [fileInput('virus.exe')]],
      '"virus.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)',
    ],
    ['a file of 10 MB + 1 byte', ['Blood test', [fileInput('big.pdf', MAX_FILE_BYTES + 1)]], '"big.pdf" is larger than 10 MB'],
    ['an empty file', ['Blood test', [fileInput('empty.pdf', 0)]], '"empty.pdf" is empty'],
    ['a title over 200 characters', ['x'.repeat(201), [fileInput('ecg.pdf')]], 'The title is longer than 200 characters.'],
    [
      'a bad file among good ones',
      ['Blood test', [fileInput('ok.pdf'), fileInput('report.pdf.exe'), fileInput('ok2.png')]],
      '"report.pdf.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)',
    ],
  ];

  it.each(rejections)('rejects %s with a message naming the problem', async (_case, args, message) => {
    const { service, storage } = await patientLedger();
    expect(await errorOf(service.upload(uploadOf(...args)))).toEqual({ name: 'ValidationError', message });
    const stored = await storage.load();
    expect(stored.blocks).toHaveLength(1);
    expect(stored.documents).toHaveLength(0);
    expect((await service.chainStatus()).height).toBe(1);
    expect((await service.listRecords(SARAH.id)).records).toHaveLength(1);
  });

  it('rejects a record type other than prescription or test report', async () => {
    const { service } = await patientLedger();
    const request = { ...uploadOf('Blood test'), type: 'diagnosis' as 'prescription' };
    expect(await errorOf(service.upload(request))).toEqual({
      name: 'ValidationError',
      message: 'Choose a record type: prescription or test report.',
    });
  });

  it('accepts a file of exactly 10 MB', async () => {
    const { service } = await patientLedger();
    const { record } = await service.upload(uploadOf('Scan', [fileInput('scan.png', MAX_FILE_BYTES)]));
    expect(record.documents[0].fileSize).toBe(MAX_FILE_BYTES);
  });

  it('is refused to doctors', async () => {
    const service = createTestLedgerService();
    await signInAs(service, CARTER);
    expect(await errorOf(service.upload(uploadOf('Blood test')))).toEqual(DENIED);
  });
});

describe('an upload', () => {
  it('stores every file encrypted and mines one record naming the first file and listing all', async () => {
    const { service, storage } = await patientLedger();
    const files = [fileInput('ecg.pdf', 'ECG trace', 'application/pdf'), fileInput('x-ray.png', 'X-ray image')];
    const { record, block } = await service.upload(
      uploadOf('  Cardiology follow-up  ', files, { description: 'After the stress test', type: 'prescription' }),
    );

    expect(record).toMatchObject({
      patientId: SARAH.id,
      doctorId: SARAH.doctorId,
      type: 'prescription',
      title: 'Cardiology follow-up',
      description: 'After the stress test',
      fileName: 'ecg.pdf',
      blockIndex: 1,
    });
    expect(record.documents.map((d) => d.fileName)).toEqual(['ecg.pdf', 'x-ray.png']);
    expect(record.documentIds).toEqual(record.documents.map((d) => d.id));
    expect(record.fileUrl).toBe(`ipfs://${record.documents[0].ipfsHash}`);
    expect(record.documents[0].ipfsHash).toMatch(/^Qm/);
    expect(record.documents.every((d) => !('encryptionKey' in d) && d.isEncrypted)).toBe(true);
    expect(record.documents.map((d) => d.fileType)).toEqual(['application/pdf', 'image/png']);
    expect(block).toMatchObject({ index: 1, hash: record.blockchainHash, type: 'prescription', title: 'Cardiology follow-up' });
    expect(block.hash.startsWith('00')).toBe(true);
    expect(await service.chainStatus()).toMatchObject({ height: 2, valid: true });

    const stored = await storage.load();
    expect(stored.documents).toHaveLength(2);
    const encrypted = await storage.readContent(record.documentIds[0]);
    expect(textOf(encrypted!)).not.toContain('ECG trace');
    expect(textOf((await service.readDocument(record.documentIds[0])).bytes)).toBe('ECG trace');
    expect(textOf((await service.readDocument(record.documentIds[1])).bytes)).toBe('X-ray image');
  });

  it('waits the simulated delay before it is mined', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const { service } = await patientLedger({ uploadDelayMs: 1000 });
    let done = false;
    const upload = service.upload(uploadOf('Blood test')).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    expect((await service.chainStatus()).height).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await upload;
    expect((await service.chainStatus()).height).toBe(2);
  });

  it('appends two concurrent uploads as two consecutive valid blocks', async () => {
    const { service } = await patientLedger();
    const [first, second] = await Promise.all([service.upload(uploadOf('First')), service.upload(uploadOf('Second'))]);
    expect([first.block.index, second.block.index].sort()).toEqual([1, 2]);
    expect(await service.chainStatus()).toMatchObject({ height: 3, valid: true });
    const later = first.block.index === 2 ? first : second;
    const earlier = later === first ? second : first;
    expect(later.block.previousHash).toBe(earlier.block.hash);
  });
});

describe('listing records', () => {
  async function withRecords() {
    const clock = createClock();
    const { service } = await patientLedger({ now: clock.now });
    for (const [title, description, type] of [
      ['Lipid panel', 'Cholesterol is fine', 'test_report'],
      ['Beta blocker', 'Take with FOOD', 'prescription'],
      ['Chest X-ray', '', 'test_report'],
    ] as const) {
      clock.advance(60_000);
      await service.upload(uploadOf(title, undefined, { description, type }));
    }
    return service;
  }

  it("lists a patient's records newest first, genesis last", async () => {
    const service = await withRecords();
    const titles = (await service.listRecords(SARAH.id)).records.map((r) => r.title);
    expect(titles).toEqual(['Chest X-ray', 'Beta blocker', 'Lipid panel', 'Initial health assessment']);
  });

  it('searches title and description without regard to case', async () => {
    const service = await withRecords();
    expect((await service.listRecords(SARAH.id, { search: 'x-RAY' })).records.map((r) => r.title)).toEqual(['Chest X-ray']);
    expect((await service.listRecords(SARAH.id, { search: 'food' })).records.map((r) => r.title)).toEqual(['Beta blocker']);
    expect((await service.listRecords(SARAH.id, { search: 'nothing like this' })).records).toEqual([]);
  });

  it('filters by type', async () => {
    const service = await withRecords();
    const reports = (await service.listRecords(SARAH.id, { type: 'test_report' })).records;
    expect(reports.map((r) => r.title)).toEqual(['Chest X-ray', 'Lipid panel']);
  });

  it('joins each record with its block index and block hash', async () => {
    const service = await withRecords();
    const [newest] = (await service.listRecords(SARAH.id)).records;
    const block = await service.block(newest.blockIndex);
    expect(newest.blockIndex).toBe(3);
    expect(newest.blockchainHash).toBe(block.hash);
  });

  it("refuses another patient's records", async () => {
    const service = await withRecords();
    expect(await errorOf(service.listRecords(MICHAEL.id))).toEqual(DENIED);
  });

  it("lets a doctor list their own patient's records but no one else's", async () => {
    const service = await withRecords();
    await signInAs(service, CARTER);
    expect((await service.listRecords(SARAH.id)).records).toHaveLength(4);
    await signInAs(service, WILSON);
    expect(await errorOf(service.listRecords(SARAH.id))).toEqual(DENIED);
  });
});

describe('documents', () => {
  async function sarahWithDocument() {
    const { service, storage } = await patientLedger();
    const { record } = await service.upload(uploadOf('ECG', [fileInput('ecg.pdf', 'ECG trace')]));
    return { service, storage, documentId: record.documentIds[0] };
  }

  it('are readable by the doctor they name and by no other doctor or patient', async () => {
    const { service, documentId } = await sarahWithDocument();
    await signInAs(service, CARTER);
    expect(textOf((await service.readDocument(documentId)).bytes)).toBe('ECG trace');
    await signInAs(service, WILSON);
    expect(await errorOf(service.readDocument(documentId))).toEqual(DENIED);
    await signInAs(service, MICHAEL);
    expect(await errorOf(service.readDocument(documentId))).toEqual(DENIED);
  });

  it('are deleted only by the owning patient, with the exact message for anyone else', async () => {
    const { service, documentId } = await sarahWithDocument();
    const deleteDenied = { name: 'AccessDeniedError', message: 'Access denied: Only patients can delete their own documents' };
    await signInAs(service, MICHAEL);
    expect(await errorOf(service.deleteDocument(documentId))).toEqual(deleteDenied);
    await signInAs(service, CARTER);
    expect(await errorOf(service.deleteDocument(documentId))).toEqual(deleteDenied);
  });

  it('lose their key and encrypted bytes on delete; the upload stays on the chain and a deletion block follows it', async () => {
    const { service, storage, documentId } = await sarahWithDocument();
    const deleted = await service.deleteDocument(documentId);
    expect(deleted.deletedAt).toBeDefined();
    expect(await storage.readContent(documentId)).toBeUndefined();
    expect((await storage.load()).documents).toEqual([]);
    expect((await service.chainStatus()).height).toBe(3);
    expect((await service.block(2)).data).toMatchObject({ type: 'document_deleted', documentId, patientId: SARAH.id });
    const [record] = (await service.listRecords(SARAH.id)).records;
    expect(record.title).toBe('ECG');
    expect(record.documents[0]).toMatchObject({ id: documentId, deletedAt: deleted.deletedAt });
    // its name was sealed under its key, which the deletion dropped
    expect(await errorOf(service.readDocument(documentId))).toEqual({ name: 'NotFoundError', message: 'This file was deleted.' });
  });

  it('read as "Deleted file" once deleted, on the device that deleted them as on a reloaded one: the name went with the key', async () => {
    const { service, storage, documentId } = await sarahWithDocument();
    await service.deleteDocument(documentId);
    const reloaded = createTestLedgerService({ storage });
    await signInAs(reloaded, SARAH);
    const fileOf = async (device: typeof service) => (await device.listRecords(SARAH.id)).records[0].documents[0];
    expect(await fileOf(reloaded)).toMatchObject({ id: documentId, fileName: 'Deleted file', fileType: '' });
    expect(await fileOf(service)).toEqual(await fileOf(reloaded));
  });

  it('answers NotFoundError for an id that does not exist', async () => {
    const { service } = await sarahWithDocument();
    expect((await errorOf(service.readDocument('nope'))).name).toBe('NotFoundError');
  });

  it('fail their integrity check when the stored bytes were changed', async () => {
    const { service, storage, documentId } = await sarahWithDocument();
    const bytes = new Uint8Array((await storage.readContent(documentId))!);
    bytes[20] ^= 1;
    await storage.commit({ contents: [{ id: documentId, bytes: bytes.buffer }] });
    expect((await errorOf(service.readDocument(documentId))).name).toBe('IntegrityError');
  });
});

describe('dashboards', () => {
  it("give a patient's overview: total records, the real last upload date, the 5 newest", async () => {
    const clock = createClock();
    const { service } = await patientLedger({ now: clock.now });
    expect(await service.patientOverview()).toMatchObject({ totalRecords: 1, lastUpload: null });
    for (let i = 1; i <= 6; i++) {
      clock.advance(60_000);
      await service.upload(uploadOf(`Report ${i}`));
    }
    const overview = await service.patientOverview();
    expect(overview.patient.id).toBe(SARAH.id);
    expect(overview.totalRecords).toBe(7);
    expect(overview.lastUpload).toBe(new Date(clock.now()).toISOString());
    expect(overview.recent.map((r) => r.title)).toEqual(['Report 6', 'Report 5', 'Report 4', 'Report 3', 'Report 2']);
  });

  it("give a doctor their own patients, the 10 newest records of those patients and today's count", async () => {
    const clock = createClock(Date.parse('2026-03-02T12:00:00.000Z'));
    const { service } = await patientLedger({ now: clock.now });
    for (let i = 1; i <= 11; i++) await service.upload(uploadOf(`Report ${i}`));
    clock.advance(2 * 24 * 3600_000);
    await service.upload(uploadOf('Two days later'));
    await signInAs(service, CARTER);
    const overview = await service.doctorOverview();
    expect(overview.patients.map((p) => p.id)).toEqual([SARAH.id]);
    expect(overview.recentActivity).toHaveLength(10);
    expect(overview.recentActivity[0].title).toBe('Two days later');
    expect(overview.recordsToday).toBe(1);
    await signInAs(service, WILSON);
    const wilson = await service.doctorOverview();
    expect(wilson.patients.map((p) => p.id)).toEqual([MICHAEL.id]);
    expect(wilson.recentActivity).toEqual([]);
  });

  it('are each refused to the other role', async () => {
    const { service } = await patientLedger();
    expect(await errorOf(service.doctorOverview())).toEqual(DENIED);
    await signInAs(service, CARTER);
    expect(await errorOf(service.patientOverview())).toEqual(DENIED);
  });
});

describe('patient search', () => {
  it('filters the patients by name or id for a doctor', async () => {
    const service = createTestLedgerService();
    await signInAs(service, WILSON);
    expect((await service.searchPatients('sarah')).map((p) => p.id)).toEqual([SARAH.id]);
    expect((await service.searchPatients('PATIENT-2')).map((p) => p.id)).toEqual([MICHAEL.id]);
    expect(await service.searchPatients('')).toHaveLength(2);
    expect(await service.searchPatients('zzz')).toEqual([]);
  });

  it('is refused to patients', async () => {
    const { service } = await patientLedger();
    expect(await errorOf(service.searchPatients('sarah'))).toEqual(DENIED);
  });
});

describe('blocks', () => {
  it('come in pages, newest first', async () => {
    const { service } = await patientLedger();
    for (let i = 1; i <= 4; i++) await service.upload(uploadOf(`Report ${i}`));
    const first = await service.blocksPage(0, 2);
    expect(first.total).toBe(5);
    expect(first.blocks.map((b) => b.index)).toEqual([4, 3]);
    expect(first.blocks[0]).toMatchObject({ title: 'Report 4', type: 'test_report', patientId: SARAH.id });
    expect(first.blocks[0].previousHash).toBe(first.blocks[1].hash);
    expect((await service.blocksPage(4, 2)).blocks.map((b) => b.index)).toEqual([0]);
    expect((await service.blocksPage(9, 2)).blocks).toEqual([]);
  });

  it('never return more than 500 in one page, and refuse a negative offset', async () => {
    const { service } = await patientLedger();
    expect((await service.blocksPage(0, 10_000)).blocks).toHaveLength(1);
    expect((await errorOf(service.blocksPage(-1, 10))).name).toBe('ValidationError');
  });

  it('hide the title and patient of records the reader may not see', async () => {
    const { service } = await patientLedger();
    await service.upload(uploadOf('Private diagnosis'));
    await signInAs(service, MICHAEL);
    const page = await service.blocksPage(0, 10);
    expect(page.blocks[0]).toEqual({
      restricted: true,
      index: 1,
      hash: expect.any(String),
      previousHash: page.blocks[1].hash,
      timestamp: expect.any(String),
      nonce: expect.any(Number),
    });
    expect(JSON.stringify(page)).not.toContain('Private diagnosis');
    expect(await errorOf(service.block(1))).toEqual(DENIED);
    expect((await errorOf(service.block(7))).name).toBe('NotFoundError');
  });
});
