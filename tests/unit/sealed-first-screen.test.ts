// The patient dashboard opens only the uploads it shows before it answers (workers/ledger/sealing.ts, readableShowing; a
// page of Medical Records too: tests/unit/records-pages.test.ts); what was opened is dropped when the signed-in user changes.
import { describe, expect, it } from 'vitest';
import { PATIENT_RECENT_RECORDS } from '../../workers/core/constants';
import { SEALED_TITLE, createSealing } from '../../workers/ledger/sealing';
import type { Snapshot } from '../../workers/ledger/snapshot';
import { createLedgerBackend } from '../../workers/service';
import { CARTER, SARAH, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';

const UPLOADS = PATIENT_RECENT_RECORDS + 3;

async function ledgerOfSarah() {
  const deps = testDeps();
  const backend = createLedgerBackend(deps);
  await signInAs(backend.service, SARAH);
  for (let n = 0; n < UPLOADS; n++)
    await backend.service.upload(uploadOf(`Sealed record ${n}`, [fileInput(`scan-${n}.pdf`, `scan ${n}`)]));
  return { deps, backend };
}

// Another device of the same storage, as after a reload: nothing opened yet.
async function freshDevice(deps: ReturnType<typeof testDeps>) {
  const device = createLedgerBackend({ ...deps });
  await signInAs(device.service, SARAH);
  return device;
}

describe('the dashboard’s first read of sealed records', () => {
  it('shows the newest uploads opened on a device that opened nothing, and Medical Records then lists every one opened', async () => {
    const { deps } = await ledgerOfSarah();
    const device = await freshDevice(deps);

    const overview = await device.service.patientOverview();
    expect(overview.totalRecords).toBe(UPLOADS + 1); // the genesis diagnosis and the uploads
    const newest = Array.from({ length: PATIENT_RECENT_RECORDS }, (_, i) => `Sealed record ${UPLOADS - 1 - i}`);
    expect(overview.recent.map((record) => record.title)).toEqual(newest);
    expect(overview.recent[0].fileName).toBe(`scan-${UPLOADS - 1}.pdf`);
    expect(overview.recent[0].documents[0].fileName).toBe(`scan-${UPLOADS - 1}.pdf`);

    const listed = (await device.service.listRecords(SARAH.id)).records;
    const titles = listed.map((record) => record.title);
    for (let n = 0; n < UPLOADS; n++) expect(titles).toContain(`Sealed record ${n}`);
    expect(titles).not.toContain(SEALED_TITLE);
    expect(listed.find((record) => record.title === 'Sealed record 0')?.fileName).toBe('scan-0.pdf');
  });

  it('leaves every upload sealed when the summary key this device holds is not the one that sealed them', async () => {
    const { backend } = await ledgerOfSarah();
    const real = backend.store.current();
    const wrongKeys = new Map(
      [...real.summaryKeys].map(([epochId, summary]) => [epochId, { ...summary, key: 'ab'.repeat(32) }] as const),
    );
    const wrong: Snapshot = { ...real, summaryKeys: wrongKeys };
    const sealing = createSealing({ current: () => wrong }, { encryptionKey: () => undefined });
    const newest = (
      await sealing.readableShowing(SARAH, (state) => (state.records.get(SARAH.id) ?? []).map((entry) => entry.record))
    ).records.get(SARAH.id);
    const uploads = (newest ?? []).filter((entry) => 'files' in entry.record && entry.record.sealed);
    expect(uploads).toHaveLength(UPLOADS);
    for (const { record } of uploads) expect(record.title).toBe(SEALED_TITLE);
  });

  it('keeps no build of the part it opened first as the whole: the next read opens every upload', async () => {
    const { backend } = await ledgerOfSarah();
    const sealing = createSealing(backend.store, { encryptionKey: () => undefined });
    const first = await sealing.readableShowing(SARAH, (state) =>
      [...(state.records.get(SARAH.id) ?? [])].slice(-1).map((e) => e.record),
    );
    const notOpened = first.records.get(SARAH.id)?.filter((entry) => 'files' in entry.record && entry.record.title === '');
    expect(notOpened?.length).toBe(UPLOADS - 1); // on the chain a sealed upload's title is ''
    const whole = await sealing.readable(SARAH);
    expect(whole.records.get(SARAH.id)?.filter((entry) => 'files' in entry.record && entry.record.title === '')).toEqual([]);
    expect(whole).toEqual(await createSealing(backend.store, { encryptionKey: () => undefined }).readable(SARAH));
  });
});

describe('what was opened is dropped when the signed-in user changes', () => {
  it('builds the readable state again after a sign-out, and keeps it while the same user stays signed in', async () => {
    const { backend } = await ledgerOfSarah();
    const { service, sealing } = backend;
    const before = await sealing.readable(SARAH);
    expect(await sealing.readable(SARAH)).toBe(before); // kept: same snapshot, same reader

    await service.signOut();
    const afterSignOut = await sealing.readable(SARAH);
    expect(afterSignOut).not.toBe(before);
    expect(afterSignOut).toEqual(before); // opened again, from the keys the device holds

    await signInAs(service, CARTER);
    expect(await sealing.readable(SARAH)).not.toBe(afterSignOut);
  });

  it('forget drops the texts opened so far: the next read opens them again', async () => {
    const { backend } = await ledgerOfSarah();
    const sealing = createSealing(backend.store, { encryptionKey: () => undefined });
    const before = await sealing.readable(SARAH);
    sealing.forget();
    const again = await sealing.readable(SARAH);
    expect(again).not.toBe(before);
    const record = (state: typeof before) => state.records.get(SARAH.id)?.at(-1)?.record;
    expect(record(again)).not.toBe(record(before)); // opened again, not the kept copy
    expect(record(again)).toEqual(record(before));
  });
});
