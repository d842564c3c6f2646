import { describe, expect, it } from 'vitest';
import { readCountText } from '../../workers/core/access';
import { createGenesisBlock, mineBlock } from '../../workers/core/chain';
import { project, verifyLedger } from '../../workers/core/projection';
import type { Block, ChainRecord } from '../../workers/core/types';
import { benchRecords } from '../bench/bench-chain';

const LENGTH = 100_000;
const DIFFICULTY = 0; // the rules are under test here, not the proof of work: every nonce meets it

function mined(records: readonly ChainRecord[]): Block[] {
  const blocks = [createGenesisBlock(records[0], records[0].timestamp, DIFFICULTY)];
  for (let i = 1; i < records.length; i++) blocks.push(mineBlock(blocks[i - 1], records[i], records[i].timestamp, DIFFICULTY));
  return blocks;
}

// The first overview read under a full grant from `from` on: its rule counts the records the read sent.
function fullOverviewReadAfter(records: readonly ChainRecord[], from: number): number {
  const index = records.findIndex(
    (record, at) =>
      at >= from &&
      record.type === 'emergency_access' &&
      record.emergency.event === 'read' &&
      record.emergency.accessLevel === 'full' &&
      record.emergency.documentId === undefined,
  );
  if (index < 0) throw new Error('the bench ledger holds no full overview read after the middle');
  return index;
}

describe('a 100,000-block ledger', () => {
  it('names its middle block when that block breaks a rule, with the projection of the blocks before it', () => {
    const records = benchRecords(LENGTH);
    const middle = fullOverviewReadAfter(records, LENGTH / 2);
    const broken = records[middle];
    if (broken.type !== 'emergency_access') throw new Error('not a read');
    // a read that claims more records than the patient holds: legal text, the wrong count
    records[middle] = { ...broken, emergency: { ...broken.emergency, read: readCountText('full', LENGTH) } };
    const blocks = mined(records);

    const verified = verifyLedger(blocks, DIFFICULTY);

    expect(verified.firstInvalid).toEqual({ index: middle, reason: 'a read names more than its level covers' });
    expect(verified.state.height).toBe(middle);
    expect(verified.state).toEqual(project(blocks.slice(0, middle)));
  }, 300_000);
});
