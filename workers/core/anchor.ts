// An anchor of the records chain (docs/decisions/chain-anchor.md): the tip's height and hash, which alone
// prove the chain unchanged up to that height (each block hash covers every block before it), and a short
// fingerprint of every block hash, which only locates the first block that changed.
import type { AnchorCheck, ChainAnchor, InvalidBlock } from '../api';
import { ANCHOR_FINGERPRINT_DIGITS, ANCHOR_FORMAT, ANCHOR_VERSION, MAX_ANCHOR_CHARS } from './constants';
import { ledgerError } from './errors';
import type { Block } from './types';

const HASH = /^[0-9a-f]{64}$/;
const HEX = /^[0-9a-f]*$/;

function fingerprint(hash: string): string {
  return String(hash).slice(-ANCHOR_FINGERPRINT_DIGITS);
}

export function createAnchor(blocks: readonly Block[], savedAt: string): ChainAnchor {
  if (blocks.length === 0) throw ledgerError('ValidationError', 'The chain has no blocks to anchor.');
  return {
    format: ANCHOR_FORMAT,
    version: ANCHOR_VERSION,
    savedAt,
    height: blocks.length,
    tipHash: blocks[blocks.length - 1].hash,
    fingerprints: blocks.map((block) => fingerprint(block.hash)).join(''),
  };
}

function invalid(message: string): never {
  throw ledgerError('ValidationError', message);
}

// The anchor in `text`, checked field by field; a ValidationError names the first thing wrong with it.
export function parseAnchor(text: unknown): ChainAnchor {
  if (typeof text !== 'string') invalid('Choose an anchor file or paste its JSON.');
  if (text.length > MAX_ANCHOR_CHARS)
    invalid(`The anchor is longer than ${MAX_ANCHOR_CHARS.toLocaleString('en-US')} characters.`);
  if (text.trim() === '') invalid('Choose an anchor file or paste its JSON.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    invalid('The anchor is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) invalid('The anchor must be a JSON object.');
  const anchor = value as Record<string, unknown>;
  if (anchor.format !== ANCHOR_FORMAT) invalid(`This is not a MedLedger anchor: "format" must be "${ANCHOR_FORMAT}".`);
  if (anchor.version !== ANCHOR_VERSION)
    invalid(`This anchor's version (${JSON.stringify(anchor.version) ?? 'none'}) is not supported: expected ${ANCHOR_VERSION}.`);
  const { height, tipHash, fingerprints, savedAt } = anchor;
  if (typeof height !== 'number' || !Number.isSafeInteger(height) || height < 1) {
    invalid('The anchor\'s "height" must be a whole number of blocks, 1 or more.');
  }
  if (typeof tipHash !== 'string' || !HASH.test(tipHash))
    invalid('The anchor\'s "tipHash" must be 64 lower-case hexadecimal digits.');
  if (typeof fingerprints !== 'string' || !HEX.test(fingerprints) || fingerprints.length !== height * ANCHOR_FINGERPRINT_DIGITS) {
    invalid(
      `The anchor's "fingerprints" must be ${ANCHOR_FINGERPRINT_DIGITS} lower-case hexadecimal digits ${height === 1 ? 'for its 1 block' : `for each of its ${height} blocks`}.`,
    );
  }
  if (!fingerprints.endsWith(fingerprint(tipHash)))
    invalid("The anchor's last fingerprint is not its tip hash's: the anchor was changed.");
  if (typeof savedAt !== 'string' || Number.isNaN(Date.parse(savedAt))) invalid('The anchor\'s "savedAt" must be a date.');
  return { format: ANCHOR_FORMAT, version: ANCHOR_VERSION, savedAt, height, tipHash, fingerprints };
}

// Today's chain against the anchor, over its verified blocks only (`invalid`: the first block that failed a
// check): unchanged when its block at the anchor's height verifies and has the anchor's tip hash; else the first
// block whose fingerprint differs, that fails verification, or that is gone is named.
export function compareAnchor(anchor: ChainAnchor, blocks: readonly Block[], invalid?: InvalidBlock): AnchorCheck {
  const { height, tipHash, savedAt } = anchor;
  const verified = Math.min(blocks.length, invalid?.index ?? blocks.length);
  const base = {
    anchor: { height, tipHash, savedAt },
    height: blocks.length,
    chainValid: !invalid,
    ...(invalid ? { firstInvalid: { index: invalid.index, reason: invalid.reason } } : {}),
  };
  if (verified >= height && blocks[height - 1]?.hash === tipHash) {
    return { ...base, unchanged: true, addedSince: blocks.length - height };
  }
  const changed = (firstDifferent: number) => ({ ...base, unchanged: false, addedSince: 0, firstDifferent });
  const digits = ANCHOR_FINGERPRINT_DIGITS;
  const differs = (index: number) =>
    fingerprint(blocks[index]?.hash) !== anchor.fingerprints.slice(index * digits, (index + 1) * digits);
  for (let index = 0; index < Math.min(height, verified); index++) {
    if (differs(index)) return changed(index);
  }
  // the first block that fails verification: a stored hash that still matches proves nothing
  if (verified < Math.min(height, blocks.length)) {
    return differs(verified) ? changed(verified) : { ...changed(verified), unverified: true };
  }
  // every fingerprint matched: the chain ends early, or (1 in 4 billion) a changed tip kept its fingerprint
  if (blocks.length < height) return { ...changed(blocks.length), missing: true };
  return changed(height - 1);
}
