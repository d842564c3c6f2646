import { describe, expect, it } from 'vitest';
import { proxy } from 'comlink';
import type { LedgerService } from '../../workers/api';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { createTestLedgerService } from '../support/test-ledger';
import { GENESIS_TITLE } from '../../workers/core/ledger-records';
import { SESSION_KEY, type LedgerStorage } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { CARTER, SARAH, WILSON, errorOf, fileInput, signInAs, uploadOf, DENIED } from '../support/ledger-fixtures';

describe('signing in', () => {
  it('signs a patient in with the demo password and returns the directory user', async () => {
    const service = createTestLedgerService();
    const user = await service.signIn(SARAH.email, DEMO_PASSWORD, 'patient');
    expect(user).toEqual(SARAH);
  });

  it('accepts the email with other capitals and surrounding spaces', async () => {
    const service = createTestLedgerService();
    const user = await service.signIn(`  ${CARTER.email.toUpperCase()} `, DEMO_PASSWORD, 'doctor');
    expect(user.id).toBe(CARTER.id);
  });

  it("answers 'Invalid email or password' for an unknown email and for a wrong password", async () => {
    const service = createTestLedgerService();
    const invalid = { name: 'LoginError', message: 'Invalid email or password' };
    expect(await errorOf(service.signIn('nobody@medledger.demo', DEMO_PASSWORD, 'patient'))).toEqual(invalid);
    expect(await errorOf(service.signIn(SARAH.email, 'wrong', 'patient'))).toEqual(invalid);
    expect(await errorOf(service.signIn(SARAH.email, '', 'patient'))).toEqual(invalid);
  });

  it('names the registered role when the toggle is wrong, both ways', async () => {
    const service = createTestLedgerService();
    expect(await errorOf(service.signIn(SARAH.email, DEMO_PASSWORD, 'doctor'))).toEqual({
      name: 'LoginError',
      message: 'Please select the correct user type. This account is registered as a patient.',
    });
    expect(await errorOf(service.signIn(WILSON.email, DEMO_PASSWORD, 'patient'))).toEqual({
      name: 'LoginError',
      message: 'Please select the correct user type. This account is registered as a doctor.',
    });
  });

  it("answers 'Login failed. Please try again.' when the stored ledger cannot load, and works on the next try", async () => {
    const inner = createMemoryStorage();
    let broken = true;
    const storage: LedgerStorage = {
      ...inner,
      load: () => (broken ? Promise.reject(new Error('disk')) : inner.load()),
    };
    const service = createTestLedgerService({ storage });
    expect(await errorOf(service.signIn(SARAH.email, DEMO_PASSWORD, 'patient'))).toEqual({
      name: 'LoginError',
      message: 'Login failed. Please try again.',
    });
    expect(await errorOf(service.chainStatus())).toEqual(DENIED);
    broken = false;
    expect((await signInAs(service, SARAH)).id).toBe(SARAH.id);
    expect((await service.chainStatus()).height).toBe(1);
  });

  it('signs the previous user out when a new sign-in fails', async () => {
    const service = createTestLedgerService();
    await signInAs(service, SARAH);
    await errorOf(service.signIn(SARAH.email, 'wrong', 'patient'));
    expect(await errorOf(service.chainStatus())).toEqual(DENIED);
  });
});

describe('resuming a session: only the stored id counts', () => {
  it("resumes a stored session after a reload: the user's unlocked key is in storage", async () => {
    const storage = createMemoryStorage();
    await signInAs(createTestLedgerService({ storage }), WILSON);
    const reloaded = createTestLedgerService({ storage });
    expect(await reloaded.resumeSession(WILSON.id)).toEqual(WILSON);
    expect((await reloaded.doctorOverview()).patients.map((p) => p.id)).toEqual(WILSON.patients);
  });

  it("does not resume another listed user's id: no session key of that user is stored", async () => {
    const storage = createMemoryStorage();
    await signInAs(createTestLedgerService({ storage }), SARAH);
    const edited = createTestLedgerService({ storage });
    expect(await edited.resumeSession(WILSON.id)).toBeNull();
    expect(await errorOf(edited.doctorOverview())).toEqual(DENIED);
  });

  it("does not resume a session whose stored key is another user's, relabelled", async () => {
    const storage = createMemoryStorage();
    await signInAs(createTestLedgerService({ storage }), SARAH);
    const session = (await storage.readMeta(SESSION_KEY)) as { userId: string; signingKey: CryptoKey };
    await storage.commit({ meta: { [SESSION_KEY]: { ...session, userId: WILSON.id } } });
    const edited = createTestLedgerService({ storage });
    expect(await edited.resumeSession(WILSON.id)).toBeNull();
  });

  it('does not resume after Logout: the session key is deleted', async () => {
    const storage = createMemoryStorage();
    const service = createTestLedgerService({ storage });
    await signInAs(service, SARAH);
    await service.signOut();
    expect(await storage.readMeta(SESSION_KEY)).toBeUndefined();
    expect(await createTestLedgerService({ storage }).resumeSession(SARAH.id)).toBeNull();
  });

  it('returns null for an unknown id and leaves nobody signed in', async () => {
    const service = createTestLedgerService();
    await signInAs(service, SARAH);
    expect(await service.resumeSession('doctor-99')).toBeNull();
    expect(await errorOf(service.chainStatus())).toEqual(DENIED);
  });

  it('signs out', async () => {
    const service = createTestLedgerService();
    await signInAs(service, SARAH);
    await service.signOut();
    expect(await errorOf(service.patientOverview())).toEqual(DENIED);
  });
});

describe('every data call', () => {
  const calls: [string, (s: LedgerService) => Promise<unknown>][] = [
    ['chainStatus', (s) => s.chainStatus()],
    ['blocksPage', (s) => s.blocksPage(0, 10)],
    ['block', (s) => s.block(0)],
    ['patientOverview', (s) => s.patientOverview()],
    ['listRecords', (s) => s.listRecords(SARAH.id)],
    ['upload', (s) => s.upload(uploadOf('Blood test', [fileInput('a.pdf')]))],
    ['readDocument', (s) => s.readDocument('doc')],
    ['deleteDocument', (s) => s.deleteDocument('doc')],
    ['accessHistory', (s) => s.accessHistory()],
    ['acknowledgeEmergencyAccesses', (s) => s.acknowledgeEmergencyAccesses()],
    ['doctorOverview', (s) => s.doctorOverview()],
    ['searchPatients', (s) => s.searchPatients('')],
    [
      'requestEmergencyAccess',
      (s) => s.requestEmergencyAccess({ patientId: SARAH.id, reason: 'x', accessLevel: 'basic', durationMinutes: 15 }),
    ],
    ['endEmergencyAccess', (s) => s.endEmergencyAccess('g')],
    ['activeGrants', (s) => s.activeGrants()],
    ['emergencyView', (s) => s.emergencyView('g')],
    ['resetDemoData', (s) => s.resetDemoData()],
    ['sandboxReset', (s) => s.sandboxReset(0)],
    ['sandboxPage', (s) => s.sandboxPage(0, 10)],
    ['sandboxBlock', (s) => s.sandboxBlock(0)],
    ['sandboxEdit', (s) => s.sandboxEdit({ peer: 'A', index: 0, seq: 1, title: 'x' })],
    ['sandboxRemine', (s) => s.sandboxRemine(0)],
    [
      'sandboxRemineFrom',
      (s) =>
        s.sandboxRemineFrom(
          'job',
          0,
          'A',
          proxy(() => undefined),
        ),
    ],
    ['sandboxPeers', (s) => s.sandboxPeers()],
    ['saveAnchor', (s) => s.saveAnchor()],
    ['checkAnchor', (s) => s.checkAnchor('{}')],
    [
      'mineSandbox',
      (s) =>
        s.mineSandbox(
          'job',
          1,
          1,
          proxy(() => undefined),
        ),
    ],
  ];

  it.each(calls)('%s is refused before sign-in with the exact message', async (_name, call) => {
    const service = createTestLedgerService();
    expect(await errorOf(call(service))).toEqual(DENIED);
  });
});

describe('cancelJob', () => {
  it('needs only the job id: with no job of that id it answers false, signed in or not', async () => {
    const service = createTestLedgerService();
    expect(await service.cancelJob('job')).toBe(false);
  });
});

describe('a new ledger', () => {
  it('starts with one valid genesis block holding a diagnosis for patient-1 by doctor-1', async () => {
    const service = createTestLedgerService();
    await signInAs(service, SARAH);
    const status = await service.chainStatus();
    expect(status).toMatchObject({ height: 1, valid: true, difficulty: 2, readOnly: false });
    const genesis = await service.block(0);
    expect(genesis.previousHash).toBe('0'.repeat(64));
    expect(genesis.hash.startsWith('00')).toBe(true);
    expect(genesis.data).toMatchObject({ type: 'diagnosis', patientId: 'patient-1', doctorId: 'doctor-1', title: GENESIS_TITLE });
  });
});
