import { describe, expect, it } from 'vitest';
import type { EmergencyRequest, ReadableBlockSummary } from '../../workers/api';
import { createTestLedgerService } from '../support/test-ledger';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { MICHAEL, SARAH, WILSON, createClock, errorOf, fileInput, signInAs, uploadOf, DENIED } from '../support/ledger-fixtures';
import { emergencyOf } from '../support/chain-records';

const MINUTE = 60_000;

function request(overrides: Partial<EmergencyRequest> = {}): EmergencyRequest {
  return { patientId: SARAH.id, reason: 'Unconscious in the ER', accessLevel: 'basic', durationMinutes: 15, ...overrides };
}

// Sarah with `uploads` uploads (besides the genesis record), then Dr. Wilson signed in.
async function setup(uploads: number) {
  const clock = createClock();
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ now: clock.now, storage });
  await signInAs(service, SARAH);
  for (let i = 1; i <= uploads; i++) {
    clock.advance(MINUTE);
    await service.upload(uploadOf(`Report ${i}`, [fileInput(`report-${i}.pdf`, `content ${i}`)]));
  }
  await signInAs(service, WILSON);
  return { service, clock, storage };
}

async function lastRead(service: ReturnType<typeof createTestLedgerService>): Promise<string | undefined> {
  const page = await service.blocksPage(0, 500);
  const read = page.blocks.find((b): b is ReadableBlockSummary => !b.restricted && b.title.startsWith('Emergency read'));
  return read ? emergencyOf((await service.block(read.index)).data)?.read : undefined;
}

describe('what a read under a grant records', () => {
  it('counts the records a basic view sent, and names none of their titles', async () => {
    const { service } = await setup(7);
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'basic' }));
    const view = await service.emergencyView(grant.id);
    expect(view.records).toHaveLength(5);
    expect(await lastRead(service)).toBe('profile, health overview and 5 records');
  });

  it('counts the one record sent when the patient has one', async () => {
    const { service } = await setup(0);
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'basic' }));
    expect((await service.emergencyView(grant.id)).records).toHaveLength(1);
    expect(await lastRead(service)).toBe('profile, health overview and 1 record');
  });

  it('counts the records a full view sent', async () => {
    const { service } = await setup(3);
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'full' }));
    expect((await service.emergencyView(grant.id)).records).toHaveLength(4);
    expect(await lastRead(service)).toBe('profile, health overview and the complete history (4 records)');
  });

  it('keeps a chain with these reads valid when it is loaded again', async () => {
    const { service, storage } = await setup(2);
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'basic' }));
    await service.emergencyView(grant.id);
    const reloaded = createTestLedgerService({ storage });
    await signInAs(reloaded, SARAH);
    const status = await reloaded.chainStatus();
    expect(status.firstInvalid).toBeUndefined();
    expect(status.valid).toBe(true);
  });
});

describe('the patient ends an emergency session', () => {
  it("writes Sarah's own end block, refuses the doctor's next read and names her in the history", async () => {
    const { service, storage } = await setup(2);
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'full' }));
    await signInAs(service, SARAH);
    const ended = await service.endEmergencyAccessAsPatient(grant.id);
    expect(ended).toMatchObject({ id: grant.id, isActive: false });
    expect(ended.endedAt).toBeDefined();
    const [history] = await service.accessHistory();
    expect(history).toMatchObject({ grantId: grant.id, status: 'ended', endedBy: SARAH.name });
    const page = await service.blocksPage(0, 1);
    const tip = page.blocks[0] as ReadableBlockSummary;
    expect(tip).toMatchObject({ author: SARAH.id, title: 'Emergency access ended by Sarah Johnson' });
    await signInAs(service, WILSON);
    expect(await errorOf(service.emergencyView(grant.id))).toEqual(DENIED);
    expect(await service.activeGrants()).toEqual([]);
    const reloaded = createTestLedgerService({ storage });
    await signInAs(reloaded, WILSON);
    expect((await reloaded.chainStatus()).valid).toBe(true);
  });

  it('names the doctor in the history when the doctor ended the session', async () => {
    const { service } = await setup(0);
    const grant = await service.requestEmergencyAccess(request());
    await service.endEmergencyAccess(grant.id);
    await signInAs(service, SARAH);
    expect((await service.accessHistory())[0]).toMatchObject({ status: 'ended', endedBy: WILSON.name });
  });

  it("does not let another patient end Sarah's session", async () => {
    const { service } = await setup(0);
    const grant = await service.requestEmergencyAccess(request());
    await signInAs(service, MICHAEL);
    expect((await errorOf(service.endEmergencyAccessAsPatient(grant.id))).name).toBe('NotFoundError');
    await signInAs(service, WILSON);
    expect(await service.activeGrants()).toHaveLength(1);
  });

  it('keeps a session that is still open on the alert when she dismisses it, until it has ended', async () => {
    const { service } = await setup(0);
    const grant = await service.requestEmergencyAccess(request());
    await signInAs(service, SARAH);
    await service.acknowledgeEmergencyAccesses();
    expect((await service.patientOverview()).newEmergencyAccesses.map((entry) => entry.grantId)).toEqual([grant.id]);
    await service.endEmergencyAccessAsPatient(grant.id);
    await service.acknowledgeEmergencyAccesses();
    expect((await service.patientOverview()).newEmergencyAccesses).toEqual([]);
  });
});
