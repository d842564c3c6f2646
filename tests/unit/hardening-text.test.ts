// Issue 12 item 7 at the worker, the judge: every text input normalised and limited by one rule, refused
// with the rule's words and nothing stored; the chain's rules hold blocks to the same rule.
import { describe, expect, it } from 'vitest';
import { mineBlock } from '../../workers/core/chain';
import { MAX_FILE_NAME_LENGTH, MAX_SEARCH_LENGTH, MAX_TAMPER_TITLE_LENGTH } from '../../workers/core/constants';
import { verifyLedger } from '../../workers/core/projection';
import type { Block, ChainRecord, ClinicalRecord } from '../../workers/core/types';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { emergencyOf } from '../support/chain-records';
import { SARAH, WILSON, errorOf, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { uploadInClear } from '../support/sealed-blocks';
import { createTestLedgerService } from '../support/test-ledger';

const NFD_TITLE = 'Re\u0301sume\u0301 of care'; // "Résumé of care" with combining accents
const NFC_TITLE = 'R\u00E9sum\u00E9 of care';

async function patientLedger(storage: LedgerStorage = createMemoryStorage()) {
  const service = createTestLedgerService({ storage });
  await signInAs(service, SARAH);
  return { service, storage };
}

async function expectNothingStored(storage: LedgerStorage) {
  const stored = await storage.load();
  expect(stored.blocks).toHaveLength(1);
  expect(stored.documents).toHaveLength(0);
}

const invalid = (message: string) => ({ name: 'ValidationError', message });

describe('an upload', () => {
  const refusals: [string, Parameters<typeof uploadOf>, string][] = [
    ['a title of only zero-width characters', ['\u200B\u200C\u200D\uFEFF\u2060', undefined], 'Enter a title.'],
    [
      'a title with a bell character',
      ['Blood\u0007 test', undefined],
      'The title contains a hidden control or text-direction character (U+0007).',
    ],
    [
      'a description with a right-to-left override',
      ['Blood test', undefined, { description: 'normal \u202Ereversed' }],
      'The description contains a hidden control or text-direction character (U+202E).',
    ],
    [
      `a file name of ${MAX_FILE_NAME_LENGTH + 1} characters`,
      ['Scan', [fileInput(`${'n'.repeat(MAX_FILE_NAME_LENGTH - 3)}.pdf`)]],
      `"${'n'.repeat(60)}…" has a name longer than ${MAX_FILE_NAME_LENGTH} characters`,
    ],
    [
      'a .pdf name that hides its text direction',
      ['Scan', [fileInput('fdp.\u202Escan.pdf')]],
      '"fdp.[U+202E]scan.pdf" has a hidden control or text-direction character in its name',
    ],
    [
      'a file name of zero-width characters only',
      ['Scan', [fileInput('\u200B\u2060')]],
      'A file without a name cannot be uploaded',
    ],
  ];

  it.each(refusals)("refuses %s with the rule's words and stores nothing", async (_case, args, message) => {
    const { service, storage } = await patientLedger();
    expect(await errorOf(service.upload(uploadOf(...args)))).toEqual(invalid(message));
    await expectNothingStored(storage);
  });

  it('refuses a 5-million-character file name, quoting only its start', async () => {
    const { service, storage } = await patientLedger();
    const error = await errorOf(service.upload(uploadOf('Scan', [fileInput(`${'a'.repeat(5_000_000)}.pdf`)])));
    expect(error).toEqual(invalid(`"${'a'.repeat(60)}…" has a name longer than ${MAX_FILE_NAME_LENGTH} characters`));
    await expectNothingStored(storage);
  });

  it('stores the title, the description and each file name NFC-normalised and trimmed, sealed', async () => {
    const { service, storage } = await patientLedger();
    const { record } = await service.upload(
      uploadOf(`  ${NFD_TITLE}  `, [fileInput('  Re\u0301sume\u0301.pdf ')], { description: ` ${NFD_TITLE}\r\nline two ` }),
    );
    expect(record.title).toBe(NFC_TITLE);
    expect(record.description).toBe(`${NFC_TITLE}\nline two`);
    expect(record.documents[0].fileName).toBe('R\u00E9sum\u00E9.pdf');
    const stored = (await service.block(1)).data as ClinicalRecord;
    expect(stored).toMatchObject({ title: '', description: '', sealed: expect.any(Object) });
    expect(stored.files.map((file) => [file.name, typeof file.sealed])).toEqual([['', 'object']]);
    const opened = await uploadInClear(storage, stored); // what the sealed parts hold
    expect(opened).toMatchObject({ title: NFC_TITLE, description: `${NFC_TITLE}\nline two` });
    expect(opened.files[0].name).toBe('R\u00E9sum\u00E9.pdf');
  });

  it('stores a file type as its lower-case essence: "APPLICATION/PDF; x=<b>" is application/pdf', async () => {
    const { service, storage } = await patientLedger();
    const { record } = await service.upload(
      uploadOf('Typed', [
        fileInput('shout.pdf', 'pdf bytes', 'APPLICATION/PDF; x=<b>'),
        fileInput('generic.png', 'png', 'application/octet-stream'),
      ]),
    );
    expect(record.documents.map((document) => document.fileType)).toEqual(['application/pdf', 'image/png']);
    const block = (await service.block(1)).data as ClinicalRecord;
    expect(block.files.map((file) => file.type)).toEqual(['', '']); // sealed under each file's key
    const opened = await uploadInClear(storage, block);
    expect(opened.files.map((file) => file.type)).toEqual(['application/pdf', 'image/png']);
    expect((await service.readDocument(record.documentIds[0])).document.fileType).toBe('application/pdf');
  });
});

describe('the emergency reason', () => {
  async function wilson() {
    const service = createTestLedgerService();
    await signInAs(service, WILSON);
    return service;
  }
  const request = (reason: string) => ({ patientId: SARAH.id, reason, accessLevel: 'basic' as const, durationMinutes: 15 });

  it('is refused when it holds only zero-width characters, or a right-to-left override', async () => {
    const service = await wilson();
    expect(await errorOf(service.requestEmergencyAccess(request('\u200B \u2060')))).toEqual(
      invalid('Enter a reason for emergency access.'),
    );
    expect(await errorOf(service.requestEmergencyAccess(request('ER \u202Eadmission')))).toEqual(
      invalid('The reason contains a hidden control or text-direction character (U+202E).'),
    );
    expect(await service.activeGrants()).toEqual([]);
  });

  it('is stored NFC-normalised and trimmed, line breaks kept', async () => {
    const service = await wilson();
    const grant = await service.requestEmergencyAccess(request(`  ${NFD_TITLE}\nsecond line `));
    expect(grant.reason).toBe(`${NFC_TITLE}\nsecond line`);
  });
});

describe('search', () => {
  async function withNfcTitle() {
    const { service } = await patientLedger();
    await service.upload(uploadOf(NFC_TITLE, undefined, { description: 'Stra\u00DFe clinic' }));
    await service.upload(uploadOf('Other'));
    return service;
  }

  it('finds an NFC title from an NFD query, in any case', async () => {
    const service = await withNfcTitle();
    expect((await service.listRecords(SARAH.id, { search: 'RE\u0301SUME\u0301' })).records.map((r) => r.title)).toEqual([
      NFC_TITLE,
    ]);
    expect((await service.listRecords(SARAH.id, { search: ` ${NFD_TITLE} ` })).records.map((r) => r.title)).toEqual([NFC_TITLE]);
  });

  it(`refuses a records search longer than ${MAX_SEARCH_LENGTH} characters or holding a control character`, async () => {
    const service = await withNfcTitle();
    expect(await errorOf(service.listRecords(SARAH.id, { search: 'x'.repeat(MAX_SEARCH_LENGTH + 1) }))).toEqual(
      invalid(`The search is longer than ${MAX_SEARCH_LENGTH} characters.`),
    );
    expect(await errorOf(service.listRecords(SARAH.id, { search: 'a\u202Eb' }))).toEqual(
      invalid('The search contains a hidden control or text-direction character (U+202E).'),
    );
    expect((await service.listRecords(SARAH.id, { search: 'x'.repeat(MAX_SEARCH_LENGTH) })).records).toEqual([]);
  });

  it('finds patients by a trimmed, upper-case query, and refuses a query over the limit', async () => {
    const service = createTestLedgerService();
    await signInAs(service, WILSON);
    expect((await service.searchPatients('  SARAH ')).map((p) => p.id)).toEqual([SARAH.id]);
    expect(await errorOf(service.searchPatients('s'.repeat(MAX_SEARCH_LENGTH + 1)))).toEqual(
      invalid(`The search is longer than ${MAX_SEARCH_LENGTH} characters.`),
    );
  });
});

describe('the sandbox tamper title', () => {
  it(`is refused over ${MAX_TAMPER_TITLE_LENGTH} characters (20 million here) and the sandbox is unchanged`, async () => {
    const { service } = await patientLedger();
    await service.sandboxReset(0);
    const error = await errorOf(service.sandboxEdit({ peer: 'A', index: 0, seq: 1, title: 'x'.repeat(20_000_000) }));
    expect(error).toEqual(invalid(`The new title is longer than ${MAX_TAMPER_TITLE_LENGTH} characters.`));
    const { blocks, status } = await service.sandboxPage(0, 1);
    expect(status.valid).toBe(true);
    expect(blocks[0].title).toBe('Initial health assessment');
  });

  it('is refused blank or with a hidden direction character, and stored NFC-normalised and trimmed', async () => {
    const { service } = await patientLedger();
    await service.sandboxReset(0);
    const edit = (seq: number, title: string) => service.sandboxEdit({ peer: 'A', index: 0, seq, title });
    expect(await errorOf(edit(1, '\u200B'))).toEqual(invalid('Enter a new title.'));
    expect(await errorOf(edit(2, 'a\u2067b'))).toEqual(
      invalid('The new title contains a hidden control or text-direction character (U+2067).'),
    );
    await edit(3, ` ${NFD_TITLE} `);
    expect((await service.sandboxPage(0, 1)).blocks[0].title).toBe(NFC_TITLE);
  });
});

describe('the chain holds every block to the same rule', () => {
  // Sarah's upload, then a grant of Dr. Wilson's, as the app writes them (`original`) and rewritten as a ledger written
  // before sealing, whose rules read the text in clear; `edit` changes one record of that and every later hash is redone.
  async function remined(edit: (record: ChainRecord) => ChainRecord | undefined) {
    const { service, storage } = await patientLedger();
    await service.upload(uploadOf('Scan', [fileInput('scan.pdf')]));
    await signInAs(service, WILSON);
    await service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'ER admission',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    const blocks = (await storage.load()).blocks;
    const inClear = async (record: ChainRecord): Promise<ChainRecord> => {
      if ('files' in record && record.sealed) return uploadInClear(storage, record);
      if (record.type !== 'emergency_access' || !record.emergency.sealedReason) return record;
      const { sealedReason: _sealed, ...emergency } = record.emergency;
      return { ...record, description: 'ER admission', emergency: { ...emergency, reason: 'ER admission' } };
    };
    const records = await Promise.all(blocks.map((block) => inClear(block.data)));
    const next: Block[] = [blocks[0]];
    let changed = -1;
    for (let i = 1; i < blocks.length; i++) {
      const edited = changed < 0 ? edit(structuredClone(records[i])) : undefined;
      if (edited) changed = i;
      next.push(mineBlock(next[i - 1], edited ?? records[i], blocks[i].timestamp));
    }
    return { verified: verifyLedger(next, 2), changed, original: verifyLedger(blocks, 2) };
  }

  it('accepts the chain the app wrote, and the same records written in clear before sealing', async () => {
    const { original, verified, changed } = await remined(() => undefined);
    expect(original.firstInvalid).toBeUndefined();
    expect(changed).toBe(-1);
    expect(verified.firstInvalid).toBeUndefined();
  });

  it('names an upload whose title has a right-to-left override or only zero-width characters', async () => {
    for (const title of ['Scan\u202E', '\u200B\u200B']) {
      const { verified, changed } = await remined((record) => (record.type === 'test_report' ? { ...record, title } : undefined));
      expect(verified.firstInvalid).toEqual({ index: changed, reason: 'an upload has no valid title' });
    }
  });

  it(`names an upload whose file name is longer than ${MAX_FILE_NAME_LENGTH} characters or hides its direction`, async () => {
    const long = `${'n'.repeat(MAX_FILE_NAME_LENGTH)}.pdf`;
    const cases: [string, string][] = [
      [long, `"${'n'.repeat(60)}…" has a name longer than ${MAX_FILE_NAME_LENGTH} characters`],
      ['fdp.\u202Escan.pdf', '"fdp.[U+202E]scan.pdf" has a hidden control or text-direction character in its name'],
    ];
    for (const [name, reason] of cases) {
      const { verified, changed } = await remined((record) =>
        record.type === 'test_report' ? { ...record, files: record.files.map((file) => ({ ...file, name })) } : undefined,
      );
      expect(verified.firstInvalid).toEqual({ index: changed, reason });
    }
  });

  it('names a grant whose reason holds a control character', async () => {
    const { verified, changed } = await remined((record) =>
      emergencyOf(record)?.event === 'granted' && record.type === 'emergency_access'
        ? { ...record, emergency: { ...record.emergency, reason: 'ER\u0000admission' } }
        : undefined,
    );
    expect(verified.firstInvalid).toEqual({ index: changed, reason: 'a grant has no valid reason' });
  });
});
