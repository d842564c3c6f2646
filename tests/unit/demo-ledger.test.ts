import { describe, expect, it } from 'vitest';
import type { BackupScope, LedgerService } from '../../workers/api';
import { DEMO_PASSWORD, DIFFICULTY } from '../../workers/core/constants';
import { SHIPPED_DEMO_LEDGER, openDemoLedger } from '../../workers/core/demo-ledger';
import { USERS } from '../../workers/core/directory';
import { PBKDF2_ITERATIONS, unlockUserKey } from '../../workers/core/signatures';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { CARTER, SARAH, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { joined, recordsWithFileHashes } from '../support/portability-fixtures';
import { createDemoBrowser, createTestLedgerService, testDemoLedger } from '../support/test-ledger';

const PASSWORD = 'correct horse battery';

async function backupOf(service: LedgerService, scope: BackupScope): Promise<ArrayBuffer> {
  const file = await service.downloadBackup(crypto.randomUUID(), PASSWORD, scope);
  if (!file) throw new Error('the backup was cancelled');
  return joined(file).buffer;
}

async function genesisOf(service: LedgerService): Promise<string> {
  return (await service.blocksPage(0, 1)).blocks[0].hash;
}

describe('the demo ledger shipped with the app', () => {
  it('verifies, enrols every listed user, and unlocks with the demo password at the app’s PBKDF2 rounds', async () => {
    const opened = await openDemoLedger(SHIPPED_DEMO_LEDGER, DIFFICULTY);
    expect(opened).not.toBeNull();
    expect(Object.keys(opened?.keys.users ?? {}).sort()).toEqual(USERS.map((user) => user.id).sort());
    const sarah = opened?.keys.users[SARAH.id];
    expect(sarah?.iterations).toBe(PBKDF2_ITERATIONS);
    expect(sarah && (await unlockUserKey(sarah, DEMO_PASSWORD))).toBeInstanceOf(CryptoKey);
    expect(sarah && (await unlockUserKey(sarah, 'not the demo password'))).toBeNull();
  });

  it('is refused when its genesis was edited', async () => {
    const edited = { ...SHIPPED_DEMO_LEDGER, genesis: { ...SHIPPED_DEMO_LEDGER.genesis, timestamp: '2026-01-02T00:00:00.000Z' } };
    expect(await openDemoLedger(edited, DIFFICULTY)).toBeNull();
  });
});

describe('one demo ledger in every browser', () => {
  it('gives two fresh browsers, and each after a reset, the same genesis', async () => {
    const a = await createDemoBrowser();
    const b = await createDemoBrowser();
    await signInAs(a, SARAH);
    await signInAs(b, CARTER);
    const genesis = (await testDemoLedger()).genesis.hash;
    expect(await genesisOf(a)).toBe(genesis);
    expect(await genesisOf(b)).toBe(genesis);
    await a.upload(uploadOf('Blood panel', [fileInput('panel.pdf', 'panel')]));
    await a.resetDemoData();
    expect(await genesisOf(a)).toBe(genesis);
    expect((await a.chainStatus()).height).toBe(1);
    expect((await a.chainStatus()).ownLedger).toBeUndefined();
  });

  it('keeps the signed-in user signed in across a reset of the demo ledger', async () => {
    const a = await createDemoBrowser();
    await signInAs(a, SARAH);
    await a.resetDemoData();
    expect(await a.resumeSession(SARAH.id)).toMatchObject({ id: SARAH.id });
  });

  it('recognises a ledger an earlier MedLedger made for this browser alone, keeps it whole, and a reset brings the demo ledger', async () => {
    const storage = createMemoryStorage();
    const earlier = createTestLedgerService({ storage }); // today's version: a genesis of its own
    await signInAs(earlier, SARAH);
    await earlier.upload(uploadOf('Blood panel', [fileInput('panel.pdf', 'panel bytes')]));
    const held = await recordsWithFileHashes(earlier, SARAH.id);

    const now = await createDemoBrowser({ storage });
    await signInAs(now, SARAH); // its keys are the earlier ledger's, as today
    expect(await now.chainStatus()).toMatchObject({ ownLedger: true, valid: true, height: 2 });
    expect(await recordsWithFileHashes(now, SARAH.id)).toEqual(held);
    const whole = await backupOf(now, 'browser');

    await now.resetDemoData();
    await signInAs(now, SARAH); // the session's key was the earlier ledger's
    expect(await genesisOf(now)).toBe((await testDemoLedger()).genesis.hash);
    expect((await now.chainStatus()).ownLedger).toBeUndefined();

    // nothing lost: the whole backup brings the old ledger back in a fresh browser
    const fresh = await createDemoBrowser();
    await signInAs(fresh, SARAH);
    const plan = await fresh.prepareRestore(whole, PASSWORD);
    expect(plan.mode).toBe('replace');
    await fresh.confirmRestore(plan.planId);
    await signInAs(fresh, SARAH);
    expect(await recordsWithFileHashes(fresh, SARAH.id)).toEqual(held);
    expect((await fresh.chainStatus()).ownLedger).toBe(true);
  });
});

describe('a person’s own backup restores into any browser of the demo ledger', () => {
  it('merges a patient’s backup into a fresh browser: records and both files byte for byte, still signed in', async () => {
    const made = await createDemoBrowser();
    await signInAs(made, SARAH);
    await made.upload(
      uploadOf('Blood panel', [fileInput('panel.pdf', 'panel bytes', 'application/pdf'), fileInput('rx.png', 300_000)]),
    );
    const held = await recordsWithFileHashes(made, SARAH.id);
    const backup = await backupOf(made, 'mine');

    const fresh = await createDemoBrowser();
    await signInAs(fresh, SARAH);
    const plan = await fresh.prepareRestore(backup, PASSWORD);
    expect(plan).toMatchObject({ mode: 'merge', adds: { records: 1, files: 2 } });
    await fresh.confirmRestore(plan.planId);
    expect(await fresh.resumeSession(SARAH.id)).toMatchObject({ id: SARAH.id });
    expect(await recordsWithFileHashes(fresh, SARAH.id)).toEqual(held);
    expect((await fresh.chainStatus()).valid).toBe(true);
  });

  it('merges a doctor’s backup of a shared record into a fresh browser, its files byte for byte, still signed in', async () => {
    const made = await createDemoBrowser();
    await signInAs(made, SARAH);
    await made.upload(uploadOf('Blood panel', [fileInput('panel.pdf', 'panel bytes', 'application/pdf')]));
    await made.shareRecords({ doctorId: CARTER.id, accessLevel: 'full', durationDays: 0 });
    await signInAs(made, CARTER);
    const held = await recordsWithFileHashes(made, SARAH.id);
    const backup = await backupOf(made, 'mine');

    const fresh = await createDemoBrowser();
    await signInAs(fresh, CARTER);
    const plan = await fresh.prepareRestore(backup, PASSWORD);
    expect(plan.mode).toBe('merge');
    await fresh.confirmRestore(plan.planId);
    expect(await fresh.resumeSession(CARTER.id)).toMatchObject({ id: CARTER.id });
    expect(await recordsWithFileHashes(fresh, SARAH.id)).toEqual(held);
  });
});
