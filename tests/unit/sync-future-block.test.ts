// A device whose clock says 2999 writes a block: every other device refuses it when it arrives, naming why, and
// goes on writing; the device that wrote it is the only one whose writes wait.
import { expect, it } from 'vitest';
import { createLedgerBackend } from '../../workers/service';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { SARAH, signInAs, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';
import { copyOf } from '../support/two-devices';

const NOW = Date.UTC(2026, 10, 26, 10, 0);

it('refuses a block dated more than 5 minutes after its own clock, and writes on', async () => {
  const storage = createMemoryStorage();
  const laptop = createLedgerBackend(testDeps({ storage, now: () => NOW }));
  await laptop.store.ready();
  const skewed = createLedgerBackend(testDeps({ storage: await copyOf(storage), now: () => Date.UTC(2999, 0, 1) }));
  await signInAs(skewed.service, SARAH);
  await skewed.service.upload(uploadOf('Written in 2999'));
  const future = skewed.store.current().blocks.at(-1)!;
  expect(future.timestamp).toBe('2999-01-01T00:00:00.000Z');

  const merged = await laptop.store.mergeRemote([future]);
  expect(merged.added).toBe(0);
  expect(merged.refused).toEqual([
    {
      hash: future.hash,
      reason:
        "dated in the future: 2999-01-01T00:00:00.000Z is more than 5 minutes after this verifier's clock (2026-11-26T10:00:00.000Z); the clock of the device that wrote it is wrong",
    },
  ]);
  await signInAs(laptop.service, SARAH);
  await laptop.service.upload(uploadOf('Written by a right clock'));
  expect(laptop.store.current().blocks.map((block) => block.hash)).not.toContain(future.hash);

  // five minutes ahead is a clock a little off, not a wrong one: taken
  const close = createLedgerBackend(testDeps({ storage: await copyOf(storage), now: () => NOW + 4 * 60_000 }));
  await signInAs(close.service, SARAH);
  await close.service.upload(uploadOf('Written four minutes ahead'));
  expect((await laptop.store.mergeRemote([close.store.current().blocks.at(-1)!])).added).toBe(1);
});
