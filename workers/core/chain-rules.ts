// The chain's rules: whether a block may follow the blocks before it, given the state they fold to
// (semantic verification). The first block that breaks one is named with it, like a block whose hash does not match.
// Each kind's own rule is in its module (records/); here, what every block must hold.
import type { LedgerState } from './ledger-state';
import { recordProblem, storedValueText } from './record-format';
import { kindOf } from './records/kinds';
import { authorOf } from './signatures';
import type { Block } from './types';

// null when `block` may follow the blocks folded into `state`, else the rule it breaks.
export function ruleProblem(state: LedgerState, block: Block, index: number): string | null {
  return fixedRuleProblem(state, block) ?? stateRuleProblem(state, block, index);
}

// What a block breaks by itself, wherever a merge places it: its record's shape, its time, its author.
export function fixedRuleProblem(state: LedgerState, block: Block): string | null {
  const shape = recordProblem(block.data);
  if (shape) return shape;
  const record = block.data;
  if (record.timestamp !== block.timestamp) return 'the record time differs from the block time';
  // both are times as iso() writes them (record-format.ts), whose text sorts as their time does
  if (state.lastTimestamp !== '' && block.timestamp < state.lastTimestamp)
    return 'the timestamp goes back before the previous block';
  const author = authorOf(record);
  return block.author === author
    ? null
    : `author may not write this (${storedValueText(block.author)} signed what only ${author} may)`;
}

// What a block breaks given the blocks before it: a block written concurrently with one of them may break it
// only because of that block (projection.ts verifyLedger).
export function stateRuleProblem(state: LedgerState, block: Block, index: number): string | null {
  // a record of no known kind never gets here: its shape check (fixedRuleProblem) refuses it first
  return kindOf(block.data)?.rule(state, block.data, { index, at: Date.parse(block.timestamp) }) ?? null;
}
