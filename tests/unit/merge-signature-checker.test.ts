// A device taking many blocks at once (a new device catching up) hands their signatures to the checker pool in lists,
// beside the check of hashes and rules: every block is still checked, and one that fails is refused with why.
import { describe, expect, it } from 'vitest';
import { mergeBlocks } from '../../workers/core/merge';
import { firstSignatureFailure, signBlock, type SignatureChecker } from '../../workers/core/signatures';
import type { Block } from '../../workers/core/types';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { createLedgerBackend } from '../../workers/service';
import { authorKey } from '../support/forged-blocks';
import { SARAH, WILSON, createClock, signInAs, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';

// A checker as the pool is one: lists in, the first failure out; it records the length of each list it was given.
function listChecker(fails = false): SignatureChecker & { lists: number[] } {
  const lists: number[] = [];
  return {
    lanes: 2,
    lists,
    check(blocks, enrolment) {
      lists.push(blocks.length);
      if (fails) return Promise.reject(new Error('the checker worker died'));
      return firstSignatureFailure(blocks, enrolment, new Map());
    },
  };
}

async function ledgerWithUploads(count: number) {
  const clock = createClock();
  const storage = createMemoryStorage();
  const writer = createLedgerBackend(testDeps({ storage, now: clock.now }));
  await signInAs(writer.service, SARAH);
  for (let i = 1; i <= count; i++) {
    clock.advance(1000);
    await writer.service.upload(uploadOf(`Panel ${i}`));
  }
  return { blocks: writer.store.current().blocks, storage, clock };
}

// A new device holding only the same genesis, with a spy on how often it reads its stored ledger.
async function newDevice(from: LedgerStorage, clock: ReturnType<typeof createClock>, checker?: SignatureChecker) {
  const stored = await from.load(0);
  const storage = createMemoryStorage();
  await storage.commit({ blocks: stored.blocks.slice(0, 1), meta: stored.meta });
  let loads = 0;
  const counted: LedgerStorage = { ...storage, load: (fromBlock) => (loads++, storage.load(fromBlock)) };
  const device = createLedgerBackend(testDeps({ storage: counted, now: clock.now, signatureChecker: checker }));
  await device.store.ready();
  return { device, storage, loads: () => loads };
}

describe('taking many blocks at once', () => {
  it('hands their signatures to the checker in lists and refuses one signed with another key, and every block naming it', async () => {
    const { blocks, storage, clock } = await ledgerWithUploads(3);
    const [, first, second, third] = blocks;
    const forged = await signBlock({ ...second, signature: '' }, await authorKey(storage, WILSON.id));
    const checker = listChecker();
    const { device } = await newDevice(storage, clock);
    const held = device.store.current();

    const outcome = await mergeBlocks(held.blocks, [first, forged, third], { heldState: held.verified.state, checker });

    expect(checker.lists.reduce((sum, length) => sum + length, 0)).toBeGreaterThanOrEqual(3);
    expect(outcome.added.map((block) => block.hash)).toEqual([first.hash]);
    expect(outcome.refused).toEqual([
      { hash: forged.hash, reason: `signature does not hold for the enrolled key of ${SARAH.id}` },
      { hash: third.hash, reason: `it names block ${forged.hash.slice(0, 8)}, which was refused` },
    ]);
  });

  it('checks every signature itself when the checker fails, refusing the forged block all the same', async () => {
    const { blocks, storage, clock } = await ledgerWithUploads(2);
    const [, first, second] = blocks;
    const forged = await signBlock({ ...second, signature: '' }, await authorKey(storage, WILSON.id));
    const { device } = await newDevice(storage, clock);
    const held = device.store.current();

    const outcome = await mergeBlocks(held.blocks, [first, forged], {
      heldState: held.verified.state,
      checker: listChecker(true),
    });

    expect(outcome.added.map((block) => block.hash)).toEqual([first.hash]);
    expect(outcome.refused).toEqual([
      { hash: forged.hash, reason: `signature does not hold for the enrolled key of ${SARAH.id}` },
    ]);
  });

  it('publishes the blocks it verified without reading them back, every signature counted as checked, and they load valid', async () => {
    const { blocks, storage, clock } = await ledgerWithUploads(4);
    const checker = listChecker();
    const { device, storage: deviceStorage, loads } = await newDevice(storage, clock, checker);
    const readsBefore = loads();

    const outcome = await device.store.mergeRemote(blocks.slice(1));

    expect(outcome).toMatchObject({ added: 4, refused: [], waiting: [] });
    expect(loads()).toBe(readsBefore);
    expect(device.store.status()).toMatchObject({ valid: true, height: 5, signaturesChecked: 5, signaturesToCheck: 5 });
    expect(device.store.current().blocks.map((block: Block) => block.hash)).toEqual(blocks.map((block) => block.hash));
    const reloaded = createLedgerBackend(testDeps({ storage: deviceStorage, now: clock.now }));
    await reloaded.store.ready();
    expect(reloaded.store.status()).toMatchObject({ valid: true, height: 5 });
    expect(reloaded.store.current().blocks.map((block: Block) => block.hash)).toEqual(blocks.map((block) => block.hash));
  });
});
