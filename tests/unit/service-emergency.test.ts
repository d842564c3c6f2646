import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxy } from 'comlink';
import type { EmergencyRequest, ReadableBlockSummary } from '../../workers/api';
import { createTestLedgerService } from '../support/test-ledger';
import { READ_REPEAT_MS } from '../../workers/ledger/views';
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
import { project } from '../../workers/core/projection';
import { emergencyOf } from '../support/chain-records';

const MINUTE = 60_000;

function request(overrides: Partial<EmergencyRequest> = {}): EmergencyRequest {
  return { patientId: SARAH.id, reason: 'Unconscious in the ER', accessLevel: 'basic', durationMinutes: 15, ...overrides };
}

// Sarah with 7 uploads (one file each), then Dr. Wilson, who is not her doctor, signed in.
async function emergencySetup(options: Parameters<typeof createTestLedgerService>[0] = {}) {
  const clock = createClock();
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ now: clock.now, storage, ...options });
  await signInAs(service, SARAH);
  const documentIds: string[] = [];
  for (let i = 1; i <= 7; i++) {
    clock.advance(MINUTE);
    const { record } = await service.upload(uploadOf(`Report ${i}`, [fileInput(`report-${i}.pdf`, `content ${i}`)]));
    documentIds.push(record.documentIds[0]);
  }
  await signInAs(service, WILSON);
  return { service, clock, storage, documentIds };
}

async function emergencyRecords(service: ReturnType<typeof createTestLedgerService>) {
  const page = await service.blocksPage(0, 500);
  return page.blocks.filter((b): b is ReadableBlockSummary => b.type === 'emergency_access');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('requesting emergency access', () => {
  it.each([
    ['a blank reason', { reason: '  ' }, 'Enter a reason for emergency access.'],
    ['an unlisted duration', { durationMinutes: 45 }, 'Choose a duration of 15, 30, 60, 120 or 240 minutes.'],
    ['an unknown level', { accessLevel: 'admin' as 'basic' }, 'Choose basic or full access.'],
    ['an unknown patient', { patientId: 'patient-9' }, 'No patient has this id.'],
  ])('refuses %s with a plain message and grants nothing', async (_case, overrides, message) => {
    const { service } = await emergencySetup();
    expect(await errorOf(service.requestEmergencyAccess(request(overrides)))).toEqual({ name: 'ValidationError', message });
    expect(await service.activeGrants()).toEqual([]);
    expect(await emergencyRecords(service)).toEqual([]);
  });

  it('is refused to patients', async () => {
    const { service } = await emergencySetup();
    await signInAs(service, MICHAEL);
    expect(await errorOf(service.requestEmergencyAccess(request()))).toEqual(DENIED);
  });

  it('mines the grant onto the chain as an emergency_access record with its expiry, and its reason sealed to the pair', async () => {
    const { service, clock } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request({ durationMinutes: 30, accessLevel: 'full' }));
    expect(grant).toMatchObject({
      patientId: SARAH.id,
      doctorId: WILSON.id,
      accessLevel: 'full',
      reason: 'Unconscious in the ER',
      durationMinutes: 30,
      isActive: true,
      createdAt: new Date(clock.now()).toISOString(),
      expiresAt: new Date(clock.now() + 30 * MINUTE).toISOString(),
    });
    const [tip] = (await service.blocksPage(0, 1)).blocks;
    const block = await service.block(tip.index);
    expect(block.data).toMatchObject({
      type: 'emergency_access',
      patientId: SARAH.id,
      doctorId: WILSON.id,
      description: '',
      isEmergencyAccess: true,
      emergencyAccessExpiry: grant.expiresAt,
      emergency: {
        grantId: grant.id,
        event: 'granted',
        accessLevel: 'full',
        reason: '', // sealed to Sarah and Dr. Wilson alone
        durationMinutes: 30,
      },
    });
    const sealedReason = emergencyOf(block.data)?.sealedReason;
    expect(sealedReason?.wraps.map((wrap) => wrap.to).sort()).toEqual([SARAH.id, WILSON.id].sort());
    expect(JSON.stringify(block.data)).not.toContain('Unconscious');
    expect(await service.activeGrants()).toEqual([grant]); // the doctor reads the reason he wrote
    await signInAs(service, SARAH);
    expect((await service.accessHistory()).find((entry) => entry.grantId === grant.id)?.reason).toBe('Unconscious in the ER');
  });

  it('waits the simulated grant delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const { service } = await emergencySetup({ grantDelayMs: 1500 });
    let granted = false;
    const pending = service.requestEmergencyAccess(request()).then(() => {
      granted = true;
    });
    await vi.advanceTimersByTimeAsync(1499);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(granted).toBe(true);
  });

  it('returns the same grant to a second identical request instead of granting twice', async () => {
    const { service } = await emergencySetup();
    const [first, second] = await Promise.all([
      service.requestEmergencyAccess(request()),
      service.requestEmergencyAccess(request()),
    ]);
    expect(second.id).toBe(first.id);
    expect(await service.activeGrants()).toHaveLength(1);
    expect(await emergencyRecords(service)).toHaveLength(1);
    expect(await errorOf(service.requestEmergencyAccess(request({ accessLevel: 'full' })))).toEqual({
      name: 'ValidationError',
      message: 'End the active emergency session for this patient before asking for another level.',
    });
  });
});

describe('reading under a grant', () => {
  it('basic: shows the profile and the 5 newest records, without documents', async () => {
    const { service, documentIds } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'basic' }));
    const view = await service.emergencyView(grant.id);
    expect(view.patient).toEqual(SARAH);
    expect(view.documentsReadable).toBe(false);
    expect(view.records.map((r) => r.title)).toEqual(['Report 7', 'Report 6', 'Report 5', 'Report 4', 'Report 3']);
    expect(view.records.every((r) => r.documents.length === 0)).toBe(true);
    expect(await errorOf(service.readDocument(documentIds[6]))).toEqual(DENIED);
  });

  it('full: shows the complete history and opens documents', async () => {
    const { service, documentIds } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'full' }));
    const view = await service.emergencyView(grant.id);
    expect(view.documentsReadable).toBe(true);
    expect(view.records).toHaveLength(8);
    expect(view.records.at(-1)?.title).toBe('Initial health assessment');
    expect(view.records[0].documents[0].fileName).toBe('report-7.pdf');
    expect(textOf((await service.readDocument(documentIds[0])).bytes)).toBe('content 1');
  });

  it('never lets a doctor delete under a grant', async () => {
    const { service, documentIds } = await emergencySetup();
    await service.requestEmergencyAccess(request({ accessLevel: 'full' }));
    expect((await errorOf(service.deleteDocument(documentIds[0]))).message).toBe(
      'Access denied: Only patients can delete their own documents',
    );
  });

  it("refuses a view of another doctor's grant", async () => {
    const { service } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request());
    await signInAs(service, CARTER);
    expect(await errorOf(service.emergencyView(grant.id))).toEqual(DENIED);
  });

  it('records every read on the chain, once a minute for the same read', async () => {
    const { service, clock, documentIds } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'full' }));
    await service.emergencyView(grant.id);
    await service.emergencyView(grant.id); // a re-render: same read, same minute
    await service.readDocument(documentIds[2]);
    clock.advance(READ_REPEAT_MS);
    await service.emergencyView(grant.id);
    const reads = (await emergencyRecords(service)).filter((b) => b.title.startsWith('Emergency read'));
    expect(reads).toHaveLength(3);
    const details = await Promise.all(reads.reverse().map(async (b) => emergencyOf((await service.block(b.index)).data)));
    // the chain names a sealed file by its id only; Sarah's access history names it as her device opens it
    expect(details.map((d) => [d?.event, d?.read, d?.documentId])).toEqual([
      ['read', 'profile, health overview and the complete history (8 records)', undefined],
      ['read', 'a document', documentIds[2]],
      ['read', 'profile, health overview and the complete history (8 records)', undefined],
    ]);
    await signInAs(service, SARAH);
    const history = (await service.accessHistory()).find((entry) => entry.grantId === grant.id);
    expect(history?.reads.map((read) => read.what)).toEqual([
      'profile, health overview and the complete history (8 records)',
      'document "report-3.pdf"',
      'profile, health overview and the complete history (8 records)',
    ]);
  });

  it("does not log the doctor's ordinary reads of their own patient", async () => {
    const { service, documentIds } = await emergencySetup();
    await signInAs(service, CARTER);
    await service.readDocument(documentIds[0]);
    expect(await emergencyRecords(service)).toEqual([]);
  });
});

describe('ending and expiry', () => {
  it('End records the end on the chain and every later read is refused', async () => {
    const { service, documentIds } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'full' }));
    const ended = await service.endEmergencyAccess(grant.id);
    expect(ended).toMatchObject({ id: grant.id, isActive: false });
    expect(ended.endedAt).toBeDefined();
    expect(await errorOf(service.emergencyView(grant.id))).toEqual(DENIED);
    expect(await errorOf(service.readDocument(documentIds[0]))).toEqual(DENIED);
    expect(await service.activeGrants()).toEqual([]);
    expect((await emergencyRecords(service))[0].title).toBe('Emergency access ended by Dr. James Wilson');
  });

  it("only the grant's own doctor can end it", async () => {
    const { service } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request());
    await signInAs(service, CARTER);
    expect(await errorOf(service.endEmergencyAccess(grant.id))).toEqual(DENIED);
  });

  it('a grant works until its expiry by the clock, then reads are refused and the expiry is recorded once', async () => {
    const { service, clock, documentIds } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request({ accessLevel: 'full', durationMinutes: 15 }));
    clock.advance(15 * MINUTE - 1);
    expect((await service.emergencyView(grant.id)).records).toHaveLength(8);
    clock.advance(1);
    expect(await errorOf(service.emergencyView(grant.id))).toEqual(DENIED);
    expect(await errorOf(service.readDocument(documentIds[0]))).toEqual(DENIED);
    await service.activeGrants();
    await service.chainStatus();
    const expired = (await emergencyRecords(service)).filter((b) => b.title.endsWith('expired'));
    expect(expired).toHaveLength(1);
    expect(emergencyOf((await service.block(expired[0].index)).data)?.event).toBe('expired');
    expect(await service.activeGrants()).toEqual([]);
    expect((await service.endEmergencyAccess(grant.id)).isActive).toBe(false);
    expect(await emergencyRecords(service)).toHaveLength(3); // granted, one read, expired: End adds nothing after expiry
  });

  it('the worker timer records the expiry on time without any call', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const storage = createMemoryStorage();
    const service = createTestLedgerService({ storage, expiryTimer: true });
    await signInAs(service, WILSON);
    let changes = 0;
    await service.onChange(proxy(() => void changes++));
    await service.requestEmergencyAccess(request({ durationMinutes: 15 }));
    changes = 0;
    await vi.advanceTimersByTimeAsync(15 * MINUTE - 100);
    expect(changes).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    await vi.waitFor(() => expect(changes).toBe(1)); // the block is signed by WebCrypto, which settles off the fake clock
    const stored = await storage.load();
    expect(emergencyOf(stored.blocks.at(-1)!.data)?.event).toBe('expired');
    expect([...project(stored.blocks).grants.values()][0].grant.isActive).toBe(false);
  });

  it('keeps no timer while the ledger is read-only, even with a grant past its expiry', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const storage = createMemoryStorage();
    const writer = createTestLedgerService({ storage });
    await signInAs(writer, WILSON);
    await writer.requestEmergencyAccess(request({ durationMinutes: 15 }));
    await signInAs(writer, SARAH);
    await writer.upload(uploadOf('After the grant'));
    const upload = (await storage.load()).blocks[2];
    await storage.commit({ blocks: [{ ...upload, nonce: upload.nonce + 1 }] }); // fails at block 2: the grant verified
    vi.setSystemTime(Date.now() + 20 * MINUTE);
    const service = createTestLedgerService({ storage, expiryTimer: true });
    await signInAs(service, WILSON);
    expect(await service.chainStatus()).toMatchObject({ readOnly: true, firstInvalid: { index: 2 } });
    expect(await service.activeGrants()).toEqual([]); // expired by the clock, though no block could record it
    await vi.advanceTimersByTimeAsync(1000);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("the patient's access history", () => {
  it('lists each emergency access from the chain: doctor, reason, level, start, end and what was read', async () => {
    const { service, clock, documentIds } = await emergencySetup();
    const first = await service.requestEmergencyAccess(request({ accessLevel: 'full', reason: 'Car accident' }));
    clock.advance(MINUTE);
    await service.emergencyView(first.id);
    clock.advance(MINUTE);
    await service.readDocument(documentIds[0]);
    clock.advance(MINUTE);
    const ended = await service.endEmergencyAccess(first.id);
    clock.advance(MINUTE);
    const second = await service.requestEmergencyAccess(
      request({ accessLevel: 'basic', durationMinutes: 15, reason: 'Follow-up' }),
    );
    clock.advance(15 * MINUTE);

    await signInAs(service, SARAH);
    const history = await service.accessHistory();
    expect(history).toEqual([
      {
        grantId: second.id,
        doctorId: WILSON.id,
        doctorName: 'Dr. James Wilson',
        reason: 'Follow-up',
        accessLevel: 'basic',
        startedAt: second.createdAt,
        expiresAt: second.expiresAt,
        endedAt: second.expiresAt,
        status: 'expired',
        reads: [],
      },
      {
        grantId: first.id,
        doctorId: WILSON.id,
        doctorName: 'Dr. James Wilson',
        reason: 'Car accident',
        accessLevel: 'full',
        startedAt: first.createdAt,
        expiresAt: first.expiresAt,
        endedAt: ended.endedAt,
        endedBy: 'Dr. James Wilson',
        status: 'ended',
        reads: [
          {
            at: new Date(Date.parse(first.createdAt) + MINUTE).toISOString(),
            what: 'profile, health overview and the complete history (8 records)',
          },
          { at: new Date(Date.parse(first.createdAt) + 2 * MINUTE).toISOString(), what: 'document "report-1.pdf"' },
        ],
      },
    ]);
  });

  it("keeps grants, reads and ends out of the patient's medical records, counts and filters: they are in the access history", async () => {
    const { service } = await emergencySetup();
    await signInAs(service, SARAH);
    const before = await service.patientOverview();
    await signInAs(service, WILSON);
    const grant = await service.requestEmergencyAccess(request());
    await service.emergencyView(grant.id);
    await service.endEmergencyAccess(grant.id);
    await signInAs(service, SARAH);
    expect((await service.listRecords(SARAH.id, { type: 'emergency_access' })).records).toEqual([]);
    expect((await service.listRecords(SARAH.id)).records.some((r) => r.type === 'emergency_access')).toBe(false);
    const after = await service.patientOverview();
    expect(after.totalRecords).toBe(before.totalRecords);
    expect(after.recent.map((r) => r.id)).toEqual(before.recent.map((r) => r.id));
    expect((await service.accessHistory()).map((entry) => [entry.grantId, entry.status])).toEqual([[grant.id, 'ended']]);
  });

  it('alerts the patient to new accesses until acknowledged, and the acknowledgement is stored', async () => {
    const { service, storage, clock } = await emergencySetup();
    const grant = await service.requestEmergencyAccess(request());
    await service.endEmergencyAccess(grant.id); // an open session stays on the alert
    await signInAs(service, SARAH);
    expect((await service.patientOverview()).newEmergencyAccesses.map((e) => e.grantId)).toEqual([grant.id]);
    await service.acknowledgeEmergencyAccesses();
    expect((await service.patientOverview()).newEmergencyAccesses).toEqual([]);

    const reopened = createTestLedgerService({ storage, now: clock.now });
    await signInAs(reopened, SARAH);
    expect((await reopened.patientOverview()).newEmergencyAccesses).toEqual([]);
    expect(await reopened.accessHistory()).toHaveLength(1);
  });

  it('is refused to doctors', async () => {
    const { service } = await emergencySetup();
    expect(await errorOf(service.accessHistory())).toEqual(DENIED);
  });
});
