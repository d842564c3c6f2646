import { describe, expect, it } from 'vitest';
import { mineBlock } from '../../workers/core/chain';
import type { ChainRecord, ShareRecord } from '../../workers/core/types';
import { READ_REPEAT_MS } from '../../workers/ledger/views';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
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

const DAY = 24 * 60 * 60_000;

// Sarah with 7 one-file uploads; Dr. Wilson is not her doctor.
async function sarahWithRecords() {
  const clock = createClock();
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage, now: clock.now });
  await signInAs(service, SARAH);
  const documentIds: string[] = [];
  for (let i = 1; i <= 7; i++) {
    clock.advance(60_000);
    documentIds.push(
      (await service.upload(uploadOf(`Report ${i}`, [fileInput(`report-${i}.pdf`, `content ${i}`)]))).record.documentIds[0],
    );
  }
  return { service, storage, clock, documentIds };
}

describe('a patient sharing with a doctor', () => {
  it('gives a full share the complete history and the files, and logs each read for the patient', async () => {
    const { service, documentIds } = await sarahWithRecords();
    const share = await service.shareRecords({
      doctorId: WILSON.id,
      accessLevel: 'full',
      durationDays: 7,
      note: ' Second opinion ',
    });
    expect(share).toMatchObject({
      patientId: SARAH.id,
      doctorId: WILSON.id,
      accessLevel: 'full',
      durationDays: 7,
      note: 'Second opinion',
      expiresAt: new Date(Date.parse(share.createdAt) + 7 * DAY).toISOString(),
    });

    await signInAs(service, WILSON);
    expect((await service.sharedWithMe()).map((entry) => [entry.share.id, entry.patient.id])).toEqual([[share.id, SARAH.id]]);
    const view = await service.sharedView(share.id);
    expect(view.records.map((record) => record.title)).toEqual([
      'Report 7',
      'Report 6',
      'Report 5',
      'Report 4',
      'Report 3',
      'Report 2',
      'Report 1',
      'Initial health assessment',
    ]);
    expect(view.documentsReadable).toBe(true);
    expect(textOf((await service.readDocument(documentIds[0])).bytes)).toBe('content 1');

    await signInAs(service, SARAH);
    const [entry] = await service.myShares();
    expect(entry).toMatchObject({ doctorName: WILSON.name, status: 'active' });
    expect(entry.reads.map((read) => read.what)).toEqual([
      'profile, health overview and the complete history (8 records)',
      'document "report-1.pdf"',
    ]);
    expect(await service.chainStatus()).toMatchObject({ valid: true });
  });

  it('gives a basic share the 5 newest records without their files, and refuses the files', async () => {
    const { service, documentIds } = await sarahWithRecords();
    const share = await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 1 });
    await signInAs(service, WILSON);
    const view = await service.sharedView(share.id);
    expect(view.records).toHaveLength(5);
    expect(view.records.every((record) => record.documents.length === 0 && record.fileName === '')).toBe(true);
    expect(await errorOf(service.readDocument(documentIds[6]))).toEqual(DENIED);
  });

  it('ends at revoke and at expiry: reads are denied with the exact message and the share leaves the doctor’s list', async () => {
    const { service, clock, documentIds } = await sarahWithRecords();
    const revoked = await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'full', durationDays: 0 });
    const expiring = await service.shareRecords({ doctorId: CARTER.id, accessLevel: 'full', durationDays: 1 });
    expect(revoked.expiresAt).toBeNull();
    expect((await service.revokeShare(revoked.id)).revokedAt).toBeDefined();
    clock.advance(DAY);

    await signInAs(service, WILSON);
    expect(await errorOf(service.sharedView(revoked.id))).toEqual(DENIED);
    expect(await errorOf(service.readDocument(documentIds[0]))).toEqual(DENIED);
    expect(await service.sharedWithMe()).toEqual([]);
    await signInAs(service, CARTER);
    expect(await errorOf(service.sharedView(expiring.id))).toEqual(DENIED); // Carter is Sarah's doctor, but not through this share

    await signInAs(service, SARAH);
    expect((await service.myShares()).map((entry) => entry.status)).toEqual(['expired', 'revoked']);
  });

  it("denies a doctor with no share and no own-patient link, and needs no share for the doctor's own patients", async () => {
    const { service } = await sarahWithRecords();
    await signInAs(service, WILSON);
    expect(await errorOf(service.listRecords(SARAH.id))).toEqual(DENIED);
    expect((await service.listRecords(MICHAEL.id)).records).toEqual([]); // allowed: Michael is Wilson's patient, with no records yet
    expect(await errorOf(service.sharedView('no-such-share'))).toEqual(DENIED);
  });

  it('logs the same read once a minute', async () => {
    const { service, clock } = await sarahWithRecords();
    const share = await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 1 });
    await signInAs(service, WILSON);
    await service.sharedView(share.id);
    await service.sharedView(share.id);
    clock.advance(READ_REPEAT_MS);
    await service.sharedView(share.id);
    await signInAs(service, SARAH);
    expect((await service.myShares())[0].reads).toHaveLength(2);
  });

  it.each([
    ['an unlisted doctor', { doctorId: 'doctor-9' }, 'Choose a doctor to share with.'],
    ['an unknown level', { accessLevel: 'admin' }, 'Choose basic or full access.'],
    ['an unoffered duration', { durationDays: 3 }, 'Choose 1 day, 7 days, 30 days or until revoked.'],
    ['a 501-character note', { note: 'x'.repeat(501) }, 'The note is longer than 500 characters.'],
  ])('refuses %s with a plain message and shares nothing', async (_case, overrides, message) => {
    const { service } = await sarahWithRecords();
    const request = { doctorId: WILSON.id, accessLevel: 'full' as const, durationDays: 7, ...overrides } as Parameters<
      typeof service.shareRecords
    >[0];
    expect(await errorOf(service.shareRecords(request))).toEqual({ name: 'ValidationError', message });
    expect(await service.myShares()).toEqual([]);
  });

  it('lets only the patient share and revoke, and only their own shares', async () => {
    const { service } = await sarahWithRecords();
    const share = await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'full', durationDays: 7 });
    await signInAs(service, WILSON);
    expect(await errorOf(service.shareRecords({ doctorId: CARTER.id, accessLevel: 'full', durationDays: 7 }))).toEqual(DENIED);
    expect(await errorOf(service.revokeShare(share.id))).toEqual(DENIED);
    await signInAs(service, MICHAEL);
    expect(await errorOf(service.revokeShare(share.id))).toEqual({
      name: 'NotFoundError',
      message: 'This share no longer exists.',
    });
  });
});

describe('shares on the chain', () => {
  it('names a re-mined read that comes after the revoke', async () => {
    const { service, storage } = await sarahWithRecords();
    const share = await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 0 });
    await service.revokeShare(share.id);
    const blocks = (await storage.load()).blocks;
    const revoke = blocks.at(-1)!;
    const read = structuredClone(revoke.data) as ShareRecord;
    read.share = { ...read.share, event: 'read', read: 'profile, health overview and 5 most recent records' };
    await storage.commit({ blocks: [mineBlock(revoke, { ...read, id: 'forged' } as ChainRecord, revoke.timestamp)] });
    const reloaded = createTestLedgerService({ storage });
    await signInAs(reloaded, SARAH);
    expect((await reloaded.chainStatus()).firstInvalid).toEqual({
      index: blocks.length,
      reason: `read names share ${share.id}, which was revoked`,
    });
  });
});
