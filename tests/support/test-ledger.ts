// The ledger service as the tests build it: memory storage, no simulated delays, the records difficulty.
import { DIFFICULTY } from '../../workers/core/constants';
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
