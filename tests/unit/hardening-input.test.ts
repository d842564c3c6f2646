// Issue 5, bad input at the worker: hostile names stored intact, stated limits refused, nothing half stored.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_FILE_BYTES,
  MAX_FILE_NAME_LENGTH,
  MAX_FILES_PER_UPLOAD,
  MAX_TITLE_LENGTH,
} from '../../workers/core/constants';
import { validateUploadFile } from '../../workers/core/documents';
import { createTestLedgerService } from '../support/test-ledger';
import { createIndexedDbStorage } from '../../workers/storage/indexeddb-storage';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { checkFile, rejectionMessage } from '../../src/features/upload/check-file';
import { SARAH, errorOf, fileInput, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';

// Names a user can really have on disk: markup, right-to-left scripts, emoji sequences, and a name of the longest
// accepted length (255 characters; issue 12 capped names, longer ones are refused in hardening-text.test.ts).
const HOSTILE_NAMES = {
  html: '<img src=x onerror=alert(1)>.pdf',
  script: '<script>alert("x")</script>&amp;.png',
  rtl: 'تقرير الدم – בדיקת דם.pdf',
  emoji: '🩺 blood 🧪 test 👩🏽‍⚕️.jpg',
  long: `${'very-long-scan-name-'.repeat(12)}${'x'.repeat(11)}.pdf`,
} as const;

let databases = 0;

async function patientLedger(storage: LedgerStorage = createMemoryStorage()) {
  const service = createTestLedgerService({ storage });
  await signInAs(service, SARAH);
  return { service, storage };
}

async function expectNothingStored(service: ReturnType<typeof createTestLedgerService>, storage: LedgerStorage) {
  const stored = await storage.load();
  expect(stored.blocks).toHaveLength(1);
  expect(stored.documents).toHaveLength(0);
  expect((await service.listRecords(SARAH.id)).records).toHaveLength(1);
}

describe('names with markup, right-to-left text, emoji and 255 characters', () => {
  it('are stored and read back exactly, also by a new service over the same IndexedDB', async () => {
    const name = `hardening-names-${++databases}`;
    const { service } = await patientLedger(createIndexedDbStorage(name));
    expect(HOSTILE_NAMES.long).toHaveLength(MAX_FILE_NAME_LENGTH);
    const files = Object.values(HOSTILE_NAMES).map((fileName, i) => fileInput(fileName, `content ${i}`));
    const title = '<b onmouseover=alert(1)>Bold</b> & "quotes" — تحليل 🫀';
    const description = '<script>alert(document.cookie)</script>\nשורה שנייה 👍';
    const { record } = await service.upload(uploadOf(title, files, { description }));

    expect(record.title).toBe(title);
    expect(record.description).toBe(description);
    expect(record.fileName).toBe(HOSTILE_NAMES.html);
    expect(record.documents.map((document) => document.fileName)).toEqual(Object.values(HOSTILE_NAMES));
    for (const [i, id] of record.documentIds.entries()) {
      const content = await service.readDocument(id);
      expect(content.document.fileName).toBe(Object.values(HOSTILE_NAMES)[i]);
      expect(textOf(content.bytes)).toBe(`content ${i}`);
    }

    const reopened = createTestLedgerService({ storage: createIndexedDbStorage(name) });
    await signInAs(reopened, SARAH);
    const [newest] = (await reopened.listRecords(SARAH.id)).records;
    expect(newest).toMatchObject({ title, description, fileName: HOSTILE_NAMES.html });
    expect(newest.documents.map((document) => document.fileName)).toEqual(Object.values(HOSTILE_NAMES));
    expect(await reopened.chainStatus()).toMatchObject({ valid: true, height: 2 });
  });

  it('refuse a name that hides .exe behind a right-to-left override, spelling out the hidden character', async () => {
    const { service, storage } = await patientLedger();
    const disguised = 'invoice\u202Efdp.exe'; // shown by many file managers as "invoiceexe.pdf"
    expect(await errorOf(service.upload(uploadOf('Invoice', [fileInput(disguised)])))).toEqual({
      name: 'ValidationError',
      message: '"invoice[U+202E]fdp.exe" has a hidden control or text-direction character in its name',
    });
    await expectNothingStored(service, storage);
  });
});

describe('title and description limits', () => {
  it('accept a title of exactly the limit and a description of exactly the limit', async () => {
    const { service } = await patientLedger();
    const title = 'T'.repeat(MAX_TITLE_LENGTH);
    const description = 'd'.repeat(MAX_DESCRIPTION_LENGTH);
    const { record } = await service.upload(uploadOf(title, undefined, { description }));
    expect(record.title).toBe(title);
    expect(record.description).toBe(description);
  });

  it('count the limit after trimming, so spaces around a full-length title do not refuse it', async () => {
    const { service } = await patientLedger();
    const { record } = await service.upload(uploadOf(`   ${'T'.repeat(MAX_TITLE_LENGTH)}   `));
    expect(record.title).toHaveLength(MAX_TITLE_LENGTH);
  });

  const refusals: [string, Parameters<typeof uploadOf>, string][] = [
    ['a title of only spaces and tabs', [' \t  \u00A0 ', undefined], 'Enter a title.'],
    ['a 10,000-character title', ['x'.repeat(10_000), undefined], `The title is longer than ${MAX_TITLE_LENGTH} characters.`],
    [
      'a description one character over the limit',
      ['Blood test', undefined, { description: 'd'.repeat(MAX_DESCRIPTION_LENGTH + 1) }],
      `The description is longer than ${MAX_DESCRIPTION_LENGTH} characters.`,
    ],
    [
      'a 10,000-character description',
      ['Blood test', undefined, { description: 'd'.repeat(10_000) }],
      `The description is longer than ${MAX_DESCRIPTION_LENGTH} characters.`,
    ],
  ];

  it.each(refusals)('refuse %s with the stated limit and store nothing', async (_case, args, message) => {
    const { service, storage } = await patientLedger();
    expect(await errorOf(service.upload(uploadOf(...args)))).toEqual({ name: 'ValidationError', message });
    await expectNothingStored(service, storage);
  });
});

describe('how many files one upload holds', () => {
  it(`stores ${MAX_FILES_PER_UPLOAD} files in one record, every one readable`, async () => {
    const { service, storage } = await patientLedger();
    const files = Array.from({ length: MAX_FILES_PER_UPLOAD }, (_, i) => fileInput(`page-${i + 1}.pdf`, `page ${i + 1}`));
    const { record } = await service.upload(uploadOf('Full scan', files));
    expect(record.documents).toHaveLength(MAX_FILES_PER_UPLOAD);
    expect((await storage.load()).documents).toHaveLength(MAX_FILES_PER_UPLOAD);
    expect(textOf((await service.readDocument(record.documentIds[49])).bytes)).toBe('page 50');
  });

  it(`refuses ${MAX_FILES_PER_UPLOAD + 1} files with the stated maximum and stores none of them`, async () => {
    const { service, storage } = await patientLedger();
    const files = Array.from({ length: MAX_FILES_PER_UPLOAD + 1 }, (_, i) => fileInput(`page-${i + 1}.pdf`));
    expect(await errorOf(service.upload(uploadOf('Too many', files)))).toEqual({
      name: 'ValidationError',
      message: `An upload holds at most ${MAX_FILES_PER_UPLOAD} files.`,
    });
    await expectNothingStored(service, storage);
  });
});

describe("the upload screen's early file check", () => {
  const cases: { name: string; type: string; size: number }[] = [
    { name: 'scan.PDF', type: 'application/pdf', size: 10 },
    { name: 'photo.JpEg', type: 'image/jpeg', size: 10 },
    { name: 'report.pdf.exe', type: 'application/x-msdownload', size: 10 },
    { name: 'invoice\u202Efdp.exe', type: '', size: 10 },
    { name: 'empty.pdf', type: 'application/pdf', size: 0 },
    { name: 'exact.png', type: 'image/png', size: MAX_FILE_BYTES },
    { name: 'over.png', type: 'image/png', size: MAX_FILE_BYTES + 1 },
    { name: 'fake.pdf', type: 'image/png', size: 10 },
    { name: 'letter.docx', type: 'application/msword', size: 10 },
    { name: 'unknown.doc', type: '', size: 10 },
    { name: 'generic.jpg', type: 'application/octet-stream', size: 10 },
    { name: 'params.pdf', type: 'Application/PDF; charset=binary', size: 10 },
    { name: 'no-extension', type: 'application/pdf', size: 10 },
    { name: 'trailing-dot.', type: '', size: 10 },
    { name: HOSTILE_NAMES.html, type: 'application/pdf', size: 10 },
  ];

  it.each(cases)('agrees word for word with the worker on $name ($type, $size bytes)', (file) => {
    const early = checkFile(file);
    const worker = validateUploadFile({ name: file.name, type: file.type, bytes: new ArrayBuffer(file.size) });
    expect(early && rejectionMessage(early)).toBe(worker);
  });

  it('rejects a file whose extension and type disagree before any upload, naming both', () => {
    const rejection = checkFile({ name: 'fake.pdf', type: 'image/png', size: 10 });
    expect(rejection && rejectionMessage(rejection)).toBe('"fake.pdf" is named .pdf but its type is image/png');
  });
});
