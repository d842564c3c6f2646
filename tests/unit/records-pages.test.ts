// Medical Records answers a page at a time (workers/ledger/records.ts, listRecords): the total the query lists, the page
// asked or the one listing a linked record, and on a device that opened nothing yet only that page's uploads opened.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RECORDS_PAGE_SIZE } from '../../workers/core/constants';
import * as sealedFields from '../../workers/core/sealed-fields';
import { createLedgerBackend } from '../../workers/service';
import { CARTER, SARAH, errorOf, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';

// every upload this process opens, by record id: the device's first read must open only the page it answers
vi.mock('../../workers/core/sealed-fields', async (importOriginal) => {
  const actual = await importOriginal<typeof sealedFields>();
  return { ...actual, openClinicalRecord: vi.fn(actual.openClinicalRecord) };
});
const opened = () => vi.mocked(sealedFields.openClinicalRecord).mock.calls.map(([record]) => record.id);

const UPLOADS = 2 * RECORDS_PAGE_SIZE + 5; // with the genesis diagnosis: two full pages and 6 records on the third
const title = (n: number) => `Sealed record ${n}`;

type Backend = ReturnType<typeof createLedgerBackend>;
let deps: ReturnType<typeof testDeps>;
let writer: Backend;
let ids: string[]; // record ids of the uploads, oldest first

beforeAll(async () => {
  deps = testDeps();
  writer = createLedgerBackend(deps);
  await signInAs(writer.service, SARAH);
  ids = [];
  for (let n = 0; n < UPLOADS; n++) {
    const type = n % 3 === 0 ? 'test_report' : 'prescription'; // two pages of prescriptions
    const upload = uploadOf(title(n), [fileInput(`scan-${n}.pdf`, `scan ${n}`)], { type });
    ids.push((await writer.service.upload(upload)).record.id);
  }
}, 120_000);

afterEach(() => {
  vi.useRealTimers();
});

// Another device of the same storage, as after a reload: nothing opened yet.
async function freshDevice(): Promise<Backend> {
  const device = createLedgerBackend({ ...deps });
  await signInAs(device.service, SARAH);
  return device;
}

const titlesOf = (page: { records: { title: string }[] }) => page.records.map((record) => record.title);
// the titles of uploads `from` down to `to` (inclusive), newest first
const newestFirst = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => title(from - i));

describe('Medical Records a page at a time', () => {
  it('answers the newest page first, the total with every page, and the last page with the genesis diagnosis', async () => {
    const { service } = writer;
    const first = await service.listRecords(SARAH.id);
    expect(first).toMatchObject({ total: UPLOADS + 1, page: 1, pageSize: RECORDS_PAGE_SIZE });
    expect(titlesOf(first)).toEqual(newestFirst(UPLOADS - 1, UPLOADS - RECORDS_PAGE_SIZE));
    const second = await service.listRecords(SARAH.id, { page: 2 });
    expect(second).toMatchObject({ total: UPLOADS + 1, page: 2 });
    expect(titlesOf(second)).toEqual(newestFirst(UPLOADS - RECORDS_PAGE_SIZE - 1, UPLOADS - 2 * RECORDS_PAGE_SIZE));
    const third = await service.listRecords(SARAH.id, { page: 3 });
    expect(titlesOf(third)).toEqual([...newestFirst(4, 0), 'Initial health assessment']);
    expect(await service.listRecords(SARAH.id, { page: 4 })).toEqual(third); // one past the last: the last
  });

  it('refuses a page that is not a whole number of 1 or more, and a record id that is not text', async () => {
    const { service } = writer;
    for (const page of [0, -1, 1.5, Number.NaN, '2'])
      expect(await errorOf(service.listRecords(SARAH.id, { page: page as number }))).toEqual({
        name: 'ValidationError',
        message: 'Ask for a page numbered 1 or more.',
      });
    expect(await errorOf(service.listRecords(SARAH.id, { recordId: 7 as unknown as string }))).toEqual({
      name: 'ValidationError',
      message: 'Ask for a record by its id.',
    });
  });

  it('pages what the type filter lists, with its own total', async () => {
    const { service } = writer;
    const prescriptions = Array.from({ length: UPLOADS }, (_, n) => n)
      .filter((n) => n % 3 !== 0)
      .reverse()
      .map(title);
    const first = await service.listRecords(SARAH.id, { type: 'prescription' });
    expect(first.total).toBe(prescriptions.length);
    expect(titlesOf(first)).toEqual(prescriptions.slice(0, RECORDS_PAGE_SIZE));
    expect(titlesOf(await service.listRecords(SARAH.id, { type: 'prescription', page: 2 }))).toEqual(
      prescriptions.slice(RECORDS_PAGE_SIZE),
    );
    const diagnoses = await service.listRecords(SARAH.id, { type: 'diagnosis' });
    expect(diagnoses).toMatchObject({ total: 1, page: 1 });
    expect(titlesOf(diagnoses)).toEqual(['Initial health assessment']);
  });

  it('searches every record, on every page, and pages what it finds', async () => {
    const { service } = writer;
    const oldest = await service.listRecords(SARAH.id, { search: 'scan-0.pdf' });
    expect(oldest).toMatchObject({ total: 1, page: 1 });
    expect(titlesOf(oldest)).toEqual([title(0)]);
    const all = await service.listRecords(SARAH.id, { search: 'SEALED RECORD' });
    expect(all.total).toBe(UPLOADS);
    expect(titlesOf(all)).toEqual(newestFirst(UPLOADS - 1, UPLOADS - RECORDS_PAGE_SIZE));
    expect(titlesOf(await service.listRecords(SARAH.id, { search: 'sealed record', page: 3 }))).toEqual(newestFirst(4, 0));
  });

  it('answers the page that lists a linked record, under the filter asked, else the page asked', async () => {
    const { service } = writer;
    const onSecond = await service.listRecords(SARAH.id, { recordId: ids[UPLOADS - RECORDS_PAGE_SIZE - 1] });
    expect(onSecond.page).toBe(2);
    expect(onSecond.records[0].id).toBe(ids[UPLOADS - RECORDS_PAGE_SIZE - 1]);
    expect((await service.listRecords(SARAH.id, { recordId: ids[0], page: 1 })).page).toBe(3); // the record wins
    expect((await service.listRecords(SARAH.id, { recordId: ids[UPLOADS - 1] })).page).toBe(1);
    expect((await service.listRecords(SARAH.id, { recordId: 'no such record', page: 2 })).page).toBe(2);
    // a test report is not among the prescriptions: the page asked
    expect((await service.listRecords(SARAH.id, { type: 'prescription', recordId: ids[0], page: 2 })).page).toBe(2);
    const found = await service.listRecords(SARAH.id, { search: 'scan-1', recordId: ids[1] });
    expect(found.records.map((record) => record.id)).toContain(ids[1]);
  });

  it("gives the patient's doctor the same pages", async () => {
    const doctor = createLedgerBackend({ ...deps });
    await signInAs(doctor.service, CARTER);
    const first = await doctor.service.listRecords(SARAH.id);
    expect(first.total).toBe(UPLOADS + 1);
    expect(first.records.map((record) => record.id)).toEqual(
      (await writer.service.listRecords(SARAH.id)).records.map((record) => record.id),
    );
  });
});

describe('a device that opened nothing yet', () => {
  it('opens only the uploads of the page it answers, then the rest in the background, each once', async () => {
    const device = await freshDevice();
    vi.mocked(sealedFields.openClinicalRecord).mockClear();
    vi.useFakeTimers({ toFake: ['setTimeout'] }); // holds the whole build the answer starts after it

    const second = await device.service.listRecords(SARAH.id, { page: 2 });
    const onSecond = ids.slice(UPLOADS - 2 * RECORDS_PAGE_SIZE, UPLOADS - RECORDS_PAGE_SIZE);
    expect(opened().sort()).toEqual([...onSecond].sort());
    expect(titlesOf(second)).toEqual(newestFirst(UPLOADS - RECORDS_PAGE_SIZE - 1, UPLOADS - 2 * RECORDS_PAGE_SIZE));
    expect(second.records[0].fileName).toBe(`scan-${UPLOADS - RECORDS_PAGE_SIZE - 1}.pdf`);

    const first = await device.service.listRecords(SARAH.id);
    const onFirst = ids.slice(UPLOADS - RECORDS_PAGE_SIZE);
    expect(opened().sort()).toEqual([...onSecond, ...onFirst].sort()); // page 2's uploads were kept, not opened again
    expect(titlesOf(first)).toEqual(newestFirst(UPLOADS - 1, UPLOADS - RECORDS_PAGE_SIZE));

    vi.runOnlyPendingTimers(); // the whole build
    vi.useRealTimers();
    await device.sealing.readable(SARAH);
    expect(opened().sort()).toEqual([...ids].sort()); // every upload, each once
    const third = await device.service.listRecords(SARAH.id, { page: 3 });
    expect(titlesOf(third)).toEqual([...newestFirst(4, 0), 'Initial health assessment']);
    expect(opened()).toHaveLength(UPLOADS);
  });

  it('answers a page while the whole build is under way, and opens no upload twice', async () => {
    const device = await freshDevice();
    vi.mocked(sealedFields.openClinicalRecord).mockClear();
    await device.service.patientOverview(); // starts the whole build in the next task, as the dashboard does
    const first = await device.service.listRecords(SARAH.id);
    expect(titlesOf(first)).toEqual(newestFirst(UPLOADS - 1, UPLOADS - RECORDS_PAGE_SIZE));
    const whole = await device.sealing.readable(SARAH);
    expect(whole.records.get(SARAH.id)).toEqual((await writer.sealing.readable(SARAH)).records.get(SARAH.id));
    expect(opened().sort()).toEqual([...ids].sort()); // an upload the build had under way was waited for, not opened again
  });
});
