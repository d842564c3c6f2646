// An anchor of the records chain: saved from today's tip, compared with the chain later. A consistent
// rewrite (changed and re-mined to the tip) verifies on the device; the anchor names where it starts.
import { describe, expect, it } from 'vitest';
import type { ChainAnchor } from '../../workers/api';
import { compareAnchor, parseAnchor } from '../../workers/core/anchor';
import { mineBlock } from '../../workers/core/chain';
import type { Block, ChainRecord } from '../../workers/core/types';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { SARAH, createClock, errorOf, signInAs, uploadOf } from '../support/ledger-fixtures';
import { uploadInClear } from '../support/sealed-blocks';
import { createTestLedgerService } from '../support/test-ledger';

// Sarah's chain of `uploads` uploads (plus the genesis block), on storage a reload can read again.
async function sarahsChain(uploads: number) {
  const storage = createMemoryStorage();
  const clock = createClock();
  const service = createTestLedgerService({ storage, now: clock.now });
  await signInAs(service, SARAH);
  for (let i = 1; i <= uploads; i++) {
    clock.advance(60_000);
    await service.upload(uploadOf(`Report ${i}`));
  }
  return { service, storage, clock };
}

async function reload(storage: ReturnType<typeof createMemoryStorage>) {
  const service = createTestLedgerService({ storage });
  await signInAs(service, SARAH);
  return service;
}

// Re-mines blocks[from..] after `edit` changed block `from`'s record: every hash and link is valid again
// (as tests/unit/chain-source-of-truth.test.ts does).
function remineFrom(blocks: Block[], from: number, edit: (record: ChainRecord) => ChainRecord): Block[] {
  const next = blocks.slice(0, from);
  for (let i = from; i < blocks.length; i++) {
    const record = i === from ? edit(structuredClone(blocks[i].data)) : blocks[i].data;
    next.push(mineBlock(next[i - 1], record, blocks[i].timestamp));
  }
  return next;
}

const asText = (anchor: unknown) => JSON.stringify(anchor);

describe('an anchor of the records chain', () => {
  it("holds the tip's height and hash and an 8-digit fingerprint of every block hash", async () => {
    const { service } = await sarahsChain(3);
    const anchor = await service.saveAnchor();
    const tip = (await service.blocksPage(0, 1)).blocks[0];
    expect(anchor).toMatchObject({ format: 'medledger-anchor', version: 1, height: 4, tipHash: tip.hash });
    expect(anchor.fingerprints).toHaveLength(4 * 8);
    expect(anchor.fingerprints.endsWith(tip.hash.slice(-8))).toBe(true);
    expect(Date.parse(anchor.savedAt)).not.toBeNaN();
  });

  it('finds the chain unchanged up to its height, and counts the blocks added since', async () => {
    const { service } = await sarahsChain(2);
    const anchor = await service.saveAnchor();
    expect(await service.checkAnchor(asText(anchor))).toMatchObject({ unchanged: true, addedSince: 0, height: 3 });
    await service.upload(uploadOf('Later report'));
    const check = await service.checkAnchor(asText(anchor));
    expect(check).toEqual({
      anchor: { height: 3, tipHash: anchor.tipHash, savedAt: anchor.savedAt },
      height: 4,
      unchanged: true,
      addedSince: 1,
      chainValid: true,
    });
  });

  it('names the first block of a rewrite that was re-mined to the tip, as the signature check on the device does', async () => {
    const { service, storage } = await sarahsChain(4);
    const anchor = await service.saveAnchor();
    const { blocks } = await storage.load();
    // Sarah's uploads are sealed: the rewrite turns her first one (block 1) into an upload in clear, which the rules
    // allow before her first sealed upload, so only the signatures can tell it
    const rewritten = { ...(await uploadInClear(storage, blocks[1].data)), title: 'Rewritten report' };
    const forged = remineFrom(blocks, 1, () => rewritten);
    await storage.commit({ blocks: forged.slice(1) });

    const after = await reload(storage);
    // hashes and links of a consistent rewrite verify; its re-mined blocks are not signed by their author
    expect(await after.chainStatus()).toMatchObject({
      valid: false,
      height: 5,
      firstInvalid: { index: 1, reason: 'signature: the block is not signed' },
    });
    const check = await after.checkAnchor(asText(anchor));
    expect(check).toMatchObject({ unchanged: false, firstDifferent: 1, height: 5, addedSince: 0, chainValid: false });
    expect(check.unverified).toBeUndefined(); // block 1's hash is not the anchor's: a change, not only a failed check
    expect((await after.blocksPage(0, 5)).blocks.find((block) => block.index === 1)?.title).toBe('Rewritten report');
  });

  it('never says unchanged when a block before the tip was edited at rest with its hash kept', async () => {
    const { service, storage } = await sarahsChain(4);
    const anchor = await service.saveAnchor();
    const { blocks } = await storage.load();
    const edited = { ...blocks[3], data: { ...blocks[3].data, title: 'Edited at rest' } as ChainRecord };
    await storage.commit({ blocks: [edited] }); // the stored hash strings all stay the anchor's

    const after = await reload(storage);
    const check = await after.checkAnchor(asText(anchor));
    expect(check).toMatchObject({
      unchanged: false,
      chainValid: false,
      firstInvalid: { index: 3, reason: 'record data was changed (data hash mismatch)' },
      firstDifferent: 3,
      unverified: true,
      height: 5,
    });
  });

  it('finds the chain unchanged but invalid when only a block after the anchor fails verification', async () => {
    const { service, storage } = await sarahsChain(3);
    const anchor = await service.saveAnchor();
    await service.upload(uploadOf('After the anchor'));
    const { blocks } = await storage.load();
    await storage.commit({ blocks: [{ ...blocks[4], data: { ...blocks[4].data, title: 'Edited' } as ChainRecord }] });

    const check = await (await reload(storage)).checkAnchor(asText(anchor));
    expect(check).toMatchObject({ unchanged: true, chainValid: false, firstInvalid: { index: 4 }, addedSince: 1 });
  });

  it('says the chain verifies when it does', async () => {
    const { service } = await sarahsChain(1);
    const check = await service.checkAnchor(asText(await service.saveAnchor()));
    expect(check.chainValid).toBe(true);
    expect(check.firstInvalid).toBeUndefined();
  });

  it("says the chain ends before the anchor's tip when newer blocks are gone", async () => {
    const { service } = await sarahsChain(2);
    const anchor = await service.saveAnchor();
    const blocks = (await service.blocksPage(0, 10)).blocks.reverse() as unknown as Block[];
    const shorter = compareAnchor(anchor, blocks.slice(0, 2));
    expect(shorter).toMatchObject({ unchanged: false, firstDifferent: 2, missing: true, height: 2 });
  });

  it('never changes the records chain', async () => {
    const { service } = await sarahsChain(1);
    const before = await service.chainStatus();
    await service.checkAnchor(asText(await service.saveAnchor()));
    expect(await service.chainStatus()).toEqual(before);
  });
});

describe('a saved anchor given back', () => {
  const good: ChainAnchor = {
    format: 'medledger-anchor',
    version: 1,
    savedAt: '2026-03-02T10:00:00.000Z',
    height: 2,
    tipHash: `00${'a'.repeat(54)}12345678`,
    fingerprints: 'abcdef0112345678',
  };
  const problem = async (text: string) => errorOf(Promise.resolve().then(() => parseAnchor(text)));

  it('is read when well formed', () => {
    expect(parseAnchor(asText(good))).toEqual(good);
  });

  it.each([
    ['empty', '  ', 'Choose an anchor file or paste its JSON.'],
    ['not JSON', '{"format": ', 'The anchor is not valid JSON.'],
    ['an array', '[]', 'The anchor must be a JSON object.'],
    [
      'of another format',
      asText({ ...good, format: 'bitcoin' }),
      'This is not a MedLedger anchor: "format" must be "medledger-anchor".',
    ],
    ['of another version', asText({ ...good, version: 2 }), "This anchor's version (2) is not supported: expected 1."],
    [
      'of height 0',
      asText({ ...good, height: 0, fingerprints: '' }),
      'The anchor\'s "height" must be a whole number of blocks, 1 or more.',
    ],
    [
      'of a fractional height',
      asText({ ...good, height: 1.5 }),
      'The anchor\'s "height" must be a whole number of blocks, 1 or more.',
    ],
    [
      'with a short tip hash',
      asText({ ...good, tipHash: 'abc' }),
      'The anchor\'s "tipHash" must be 64 lower-case hexadecimal digits.',
    ],
    [
      'with a fingerprint missing',
      asText({ ...good, fingerprints: '12345678' }),
      'The anchor\'s "fingerprints" must be 8 lower-case hexadecimal digits for each of its 2 blocks.',
    ],
    [
      "whose last fingerprint is not the tip's",
      asText({ ...good, fingerprints: '12345678abcdef01' }),
      "The anchor's last fingerprint is not its tip hash's: the anchor was changed.",
    ],
    ['without a date', asText({ ...good, savedAt: 'yesterday' }), 'The anchor\'s "savedAt" must be a date.'],
    ['over 2,000,000 characters', ' '.repeat(2_000_001), 'The anchor is longer than 2,000,000 characters.'],
  ])('is refused %s, with a message that says why', async (_case, text, message) => {
    expect(await problem(text)).toEqual({ name: 'ValidationError', message });
  });

  it('is refused by the service when it is not text', async () => {
    const { service } = await sarahsChain(0);
    expect(await errorOf(service.checkAnchor(42 as unknown as string))).toEqual({
      name: 'ValidationError',
      message: 'Choose an anchor file or paste its JSON.',
    });
  });
});
