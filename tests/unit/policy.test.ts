// The table of who may call what (workers/ledger/policy.ts), checked against the real service: every method is
// called as nobody, as a patient and as a doctor, with arguments the caller's relation allows; a role the table
// does not list gets the catalogue's access denied before anything runs, a listed one is let through.
import { describe, expect, test } from 'vitest';
import type { LedgerService } from '../../workers/api';
import { MESSAGES } from '../../workers/core/errors';
import { POLICY, type Caller, type Relation } from '../../workers/ledger/policy';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { CARTER, DENIED, MICHAEL, SARAH, WILSON, errorOf, signInAs, uploadOf } from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

type Method = keyof LedgerService;

// Sarah's record with a file, her full share with Dr. Carter, and Dr. Carter's full grant on Michael.
async function scene() {
  const storage = createMemoryStorage();
  const setup = createTestLedgerService({ storage });
  await signInAs(setup, SARAH);
  const { record } = await setup.upload(uploadOf('Blood panel'));
  const share = await setup.shareRecords({ doctorId: CARTER.id, accessLevel: 'full', durationDays: 7 });
  await signInAs(setup, CARTER);
  const grant = await setup.requestEmergencyAccess({
    patientId: MICHAEL.id,
    reason: 'Unconscious on arrival',
    accessLevel: 'full',
    durationMinutes: 60,
  });
  // a session open on Sarah: hers to end
  const onSarah = await setup.requestEmergencyAccess({
    patientId: SARAH.id,
    reason: 'Collapsed at the clinic',
    accessLevel: 'basic',
    durationMinutes: 60,
  });
  await setup.signOut();
  return { storage, documentId: record.documentIds[0], shareId: share.id, grantId: grant.id, sarahGrantId: onSarah.id };
}
type Scene = Awaited<ReturnType<typeof scene>>;

const noop = Object.assign(() => undefined, {}) as never; // a listener: the proxy marker does not matter in-process

// Arguments each method is called with, chosen so the caller's relation holds (Sarah's own data; Dr. Carter's own
// grant and the share made with him). Keyed by every method: a new method without arguments here does not compile.
const ARGS: Record<Method, (caller: Caller, s: Scene) => unknown[]> = {
  signIn: () => [SARAH.email, 'demo123', 'patient'],
  resumeSession: () => [SARAH.id],
  signOut: () => [],
  chainStatus: () => [],
  blocksPage: () => [0, 10],
  block: () => [0],
  patientOverview: () => [],
  listRecords: () => [SARAH.id],
  upload: () => [uploadOf('New scan')],
  readDocument: (_c, s) => [s.documentId],
  deleteDocument: (_c, s) => [s.documentId],
  clearRecordCount: () => [],
  sealClearRecords: () => [],
  accessHistory: () => [],
  acknowledgeEmergencyAccesses: () => [],
  doctorOverview: () => [],
  searchPatients: () => ['Sarah'],
  requestEmergencyAccess: () => [{ patientId: SARAH.id, reason: 'Chest pain', accessLevel: 'basic', durationMinutes: 15 }],
  endEmergencyAccess: (_c, s) => [s.grantId],
  endEmergencyAccessAsPatient: (_c, s) => [s.sarahGrantId],
  activeGrants: () => [],
  emergencyView: (_c, s) => [s.grantId],
  shareRecords: () => [{ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 1 }],
  revokeShare: (_c, s) => [s.shareId],
  myShares: () => [],
  sharedWithMe: () => [],
  sharedView: (_c, s) => [s.shareId],
  resetAllowed: () => [],
  resetDemoData: () => [],
  onChange: () => [noop],
  connectSync: () => [{ serverUrl: 'not a server address', deviceName: 'Test device' }], // refused before any server is called
  disconnectSync: () => [],
  syncStatus: () => [],
  removeSyncDevice: () => ['device-2'], // refused before any server is called: this device is not connected
  careNetworkConsent: () => [],
  setCareNetworkConsent: () => [false],
  saveAnchor: () => [],
  checkAnchor: () => ['{}'],
  exportFhir: () => ['job-1', { withFiles: false }],
  importFhir: () => [new TextEncoder().encode('{}').buffer],
  downloadBackup: () => ['job-1', 'a long backup password', 'mine'],
  prepareRestore: () => [new ArrayBuffer(8), 'a long backup password'],
  confirmRestore: () => ['no-such-plan'],
  cancelTransfer: () => ['job-1'],
  sandboxReset: () => [3],
  sandboxPage: () => [0, 3],
  sandboxBlock: () => [0],
  sandboxEdit: () => [{ peer: 'A', index: 0, seq: 1, title: 'x' }],
  sandboxRemine: () => [0],
  sandboxRemineFrom: () => ['job-2', 0, 'A', noop],
  sandboxPeers: () => [],
  mineSandbox: () => ['job-3', 1, 1, noop],
  cancelJob: () => ['job-3'],
};

const CALLERS: Caller[] = ['nobody', 'patient', 'doctor'];
const ACCOUNT = { patient: SARAH, doctor: CARTER } as const;

async function callAs(method: Method, caller: Caller): Promise<{ name: string; message: string } | null> {
  const s = await scene();
  if (method === 'resetDemoData') {
    // a reset's relation holds for anyone once the stored ledger cannot be trusted: one block changed at rest
    const [stored] = (await s.storage.load()).blocks.slice(1);
    await s.storage.commit({ blocks: [{ ...stored, data: { ...stored.data, title: 'Forged' } }] });
  }
  const service = createTestLedgerService({ storage: s.storage });
  if (caller !== 'nobody') await signInAs(service, ACCOUNT[caller]);
  const call = service[method] as (...args: unknown[]) => Promise<unknown>;
  try {
    await call(...ARGS[method](caller, s));
    return null;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

describe('who may call what', () => {
  test('the service answers exactly the methods the table lists', () => {
    const service = createTestLedgerService();
    expect(Object.keys(service).sort()).toEqual(Object.keys(POLICY).sort());
  });

  const cases = (Object.keys(POLICY) as Method[]).flatMap((method) => CALLERS.map((caller) => [method, caller] as const));
  test.each(cases)('%s as %s: refused exactly when the table leaves the role out', async (method, caller) => {
    const allowed = POLICY[method].callers.includes(caller);
    const error = await callAs(method, caller);
    const denied = (caller !== 'nobody' && POLICY[method].denied) || MESSAGES.accessDenied;
    if (allowed) expect(error?.message).not.toBe(denied);
    else expect(error).toEqual({ ...DENIED, message: denied });
  });
});

describe('relations the table names are checked by the modules', () => {
  // A caller of a listed role without the relation: another patient, another doctor, a share or grant not theirs.
  const outsiders: [Method, 'patient' | 'doctor', Relation][] = [
    ['listRecords', 'patient', 'self'],
    ['listRecords', 'doctor', 'own patient'],
    ['readDocument', 'patient', 'self'],
    ['readDocument', 'doctor', 'active share'],
    ['deleteDocument', 'patient', 'self'],
    ['emergencyView', 'doctor', 'active grant'],
    ['endEmergencyAccess', 'doctor', 'active grant'],
    ['endEmergencyAccessAsPatient', 'patient', 'self'],
    ['sharedView', 'doctor', 'active share'],
    ['revokeShare', 'patient', 'self'],
  ];
  const OUTSIDER = { patient: MICHAEL, doctor: WILSON } as const;

  // refused as not allowed, or as not found where even the existence of another's share is not told
  test.each(outsiders)('%s as a %s without the relation "%s" is refused', async (method, role, relation) => {
    expect(POLICY[method].relations).toContain(relation);
    const s = await scene();
    const service = createTestLedgerService({ storage: s.storage });
    await signInAs(service, OUTSIDER[role]);
    const call = service[method] as (...args: unknown[]) => Promise<unknown>;
    const args = method === 'listRecords' ? [SARAH.id] : ARGS[method](role, s);
    expect(['AccessDeniedError', 'NotFoundError']).toContain((await errorOf(call(...args))).name);
  });

  test('a reset that would drop what someone else wrote is refused, and the dialog is told why', async () => {
    const s = await scene();
    const service = createTestLedgerService({ storage: s.storage });
    await signInAs(service, SARAH);
    const answer = await service.resetAllowed();
    expect(answer).toEqual({ allowed: false, reason: expect.stringContaining('Dr. Emily Carter') });
    expect(await errorOf(service.resetDemoData())).toEqual({ name: 'AccessDeniedError', message: answer.reason });
    expect((await service.chainStatus()).height).toBeGreaterThan(1); // nothing was dropped
  });

  test("a patient's emergency consent is their own and off until chosen: Michael choosing off leaves Sarah's on", async () => {
    const s = await scene();
    const service = createTestLedgerService({ storage: s.storage });
    await signInAs(service, MICHAEL);
    expect(await service.careNetworkConsent()).toEqual({ on: false, recorded: null }); // he has not chosen
    const height = (await service.chainStatus()).height;
    expect(await service.setCareNetworkConsent(false)).toBe(false);
    expect((await service.chainStatus()).height).toBe(height + 1); // his first choice is a block, even when it is off
    expect(await service.careNetworkConsent()).toMatchObject({ on: false, recorded: 'patient' });
    await signInAs(service, SARAH);
    expect(await service.careNetworkConsent()).toMatchObject({ on: true, recorded: 'setup' });
    expect(await errorOf(service.setCareNetworkConsent('yes' as unknown as boolean))).toMatchObject({ name: 'ValidationError' });
  });

  test("a reset that drops only the caller's own records goes through", async () => {
    const service = createTestLedgerService();
    await signInAs(service, SARAH);
    await service.upload(uploadOf('Only mine'));
    expect(await service.resetAllowed()).toEqual({ allowed: true });
    await service.resetDemoData();
    expect((await service.chainStatus()).height).toBe(1);
  });
});
