// The write pipeline's trust rules: access decided by the device clock while block times never go back, a key
// the chain does not enrol never signs, and another tab's change read without the pages before it.
import { describe, expect, test } from 'vitest';
import { createStoredKeys } from '../../workers/core/signatures';
import { KEYS_KEY } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { STALE_KEY } from '../../workers/ledger/writes';
import { MICHAEL, SARAH, WILSON, createClock, errorOf, signInAs, uploadOf } from '../support/ledger-fixtures';
import { TEST_KEY_ITERATIONS, createTestLedgerService } from '../support/test-ledger';

const HOUR = 3_600_000;
const YEAR = 365 * 24 * HOUR;

describe('a block dated far ahead of the device clock', () => {
  test('is named, turns writes off, and cannot keep a new grant open', async () => {
    const clock = createClock();
    const storage = createMemoryStorage();
    const service = createTestLedgerService({ storage, now: clock.now });
    await signInAs(service, MICHAEL);
    clock.advance(YEAR); // the device clock ran a year ahead for one upload
    await service.upload(uploadOf('Uploaded with a wrong clock'));
    clock.advance(-YEAR);

    const status = await service.chainStatus();
    expect(status).toMatchObject({ valid: true, readOnly: true });
    expect(status.futureTip).toMatch(/^The newest block is dated .*ahead of this device's clock/);
    await signInAs(service, WILSON);
    const refused = await errorOf(
      service.requestEmergencyAccess({ patientId: MICHAEL.id, reason: 'ER', accessLevel: 'basic', durationMinutes: 15 }),
    );
    expect(refused).toEqual({ name: 'ReadOnlyError', message: status.futureTip });
    expect(await service.activeGrants()).toEqual([]);
  });

  test('decides a grant by the device clock: 15 minutes after it opened, it is over', async () => {
    const clock = createClock();
    const service = createTestLedgerService({ now: clock.now });
    await signInAs(service, WILSON);
    const grant = await service.requestEmergencyAccess({
      patientId: MICHAEL.id,
      reason: 'ER',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    clock.advance(6 * HOUR);
    expect((await errorOf(service.emergencyView(grant.id))).name).toBe('AccessDeniedError');
  });
});

describe('a key the chain does not enrol', () => {
  test('cannot sign in, even when it unwraps with the right password', async () => {
    const storage = createMemoryStorage();
    const service = createTestLedgerService({ storage });
    await signInAs(service, MICHAEL); // loads the ledger
    const stored = (await storage.readMeta(KEYS_KEY)) as Awaited<ReturnType<typeof createStoredKeys>>;
    const other = await createStoredKeys([SARAH.id], 'demo123', TEST_KEY_ITERATIONS);
    await storage.commit({ meta: { [KEYS_KEY]: { ...stored, users: { ...stored.users, [SARAH.id]: other.users[SARAH.id] } } } });
    const reloaded = createTestLedgerService({ storage });
    const error = await errorOf(signInAs(reloaded, SARAH));
    expect(error.name).toBe('LoginError');
    expect(error.message).toMatch(/not the one the records enrol/);
  });

  test("never signs a block: a tab whose session predates another ledger's restore is refused and signed out", async () => {
    const storage = createMemoryStorage();
    const tab = createTestLedgerService({ storage });
    await signInAs(tab, SARAH);
    // another tab put a ledger with other keys in place (as a restore of another browser's backup does)
    const elsewhere = createMemoryStorage();
    const other = createTestLedgerService({ storage: elsewhere });
    await signInAs(other, MICHAEL); // makes its ledger, under its own keys
    const replacement = await elsewhere.load();
    const revision = ((await storage.readMeta('revision')) as number) + 1;
    await storage.commit({ clear: true, blocks: replacement.blocks, meta: { ...replacement.meta, revision } });

    expect(await errorOf(tab.upload(uploadOf('Written with a stale key')))).toEqual({
      name: 'AccessDeniedError',
      message: STALE_KEY,
    });
    expect((await errorOf(tab.chainStatus())).name).toBe('AccessDeniedError'); // signed out
    const after = createTestLedgerService({ storage });
    await signInAs(after, SARAH);
    expect(await after.chainStatus()).toMatchObject({ valid: true, height: 1 });
  });
});

describe("another tab's change", () => {
  test('is read from this tab’s tip on, not from the first block', async () => {
    const inner = createMemoryStorage();
    const reads: number[] = [];
    const storage: LedgerStorage = {
      ...inner,
      load: (from?: number) => {
        reads.push(from ?? 0);
        return inner.load(from);
      },
    };
    const tabA = createTestLedgerService({ storage });
    await signInAs(tabA, SARAH);
    for (const title of ['One', 'Two', 'Three']) await tabA.upload(uploadOf(title));
    const tabB = createTestLedgerService({ storage });
    await signInAs(tabB, SARAH);
    await tabB.upload(uploadOf('From the other tab'));
    reads.length = 0;

    expect((await tabA.upload(uploadOf('After it'))).block.index).toBe(5);
    expect(reads).toEqual([3]); // tab A's tip (block 3) again, to check the link, and what follows
    expect((await tabA.listRecords(SARAH.id)).records.map((record) => record.title)).toContain('From the other tab');
    expect(await tabA.chainStatus()).toMatchObject({ valid: true, height: 6 });
  });
});
