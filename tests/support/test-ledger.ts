// The ledger service as the tests build it: memory storage, no simulated delays, the records difficulty.
import { DEMO_PASSWORD, DIFFICULTY } from '../../workers/core/constants';
import { makeDemoLedger, type DemoLedger } from '../../workers/core/demo-ledger';
import { USERS } from '../../workers/core/directory';
import type { LedgerDeps } from '../../workers/ledger/deps';
import { createLedgerService } from '../../workers/service';
import { createMemoryStorage } from '../../workers/storage/memory-storage';

// Few PBKDF2 iterations: each test ledger derives a key per listed user; the worker uses PBKDF2_ITERATIONS.
export const TEST_KEY_ITERATIONS = 10;

export function testDeps(overrides: Partial<LedgerDeps> = {}): LedgerDeps {
  return {
    storage: createMemoryStorage(),
    now: () => Date.now(),
    randomId: () => crypto.randomUUID(),
    uploadDelayMs: 0,
    grantDelayMs: 0,
    difficulty: DIFFICULTY,
    backupIterations: 1_000, // the worker uses BACKUP_ITERATIONS; a test derives the password key in a blink
    keyIterations: TEST_KEY_ITERATIONS,
    ...overrides,
  };
}

export function createTestLedgerService(overrides: Partial<LedgerDeps> = {}) {
  return createLedgerService(testDeps(overrides));
}

let demoLedger: Promise<DemoLedger> | undefined;

// One demo ledger for the whole test run, as the app ships one (workers/core/demo-ledger.json), with few PBKDF2 rounds.
export function testDemoLedger(): Promise<DemoLedger> {
  demoLedger ??= makeDemoLedger({
    userIds: USERS.map((user) => user.id),
    password: DEMO_PASSWORD,
    iterations: TEST_KEY_ITERATIONS,
    difficulty: DIFFICULTY,
    id: 'test-demo-genesis',
    timestamp: '2026-01-01T00:00:00.000Z',
  });
  return demoLedger;
}

// A fresh browser of the demo ledger: its own storage, the same genesis and keys as every other.
export async function createDemoBrowser(overrides: Partial<LedgerDeps> = {}) {
  return createLedgerService(testDeps({ demoLedger: await testDemoLedger(), ...overrides }));
}
