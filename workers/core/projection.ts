// The ledger's state is a fold over the verified chain: apply(state, block) for each block in order.
// Before a block is applied it must be legal given the state before it (the chain's rules, chain-rules.ts).
import { checkBlock } from './chain';
import { fixedRuleProblem, stateRuleProblem } from './chain-rules';
import { parentsOf } from './dag';
import type { LedgerState } from './ledger-state';
import { kindOf } from './records/kinds';
import { SharedMap } from './shared-map';
import type { Block } from './types';

// The state's types and the rules stay importable from here, where the fold's callers find them.
export type { GrantRead, GrantState, LedgerState, NotApplied, RecordEntry, ShareState } from './ledger-state';
export { ruleProblem } from './chain-rules';

export interface VerifiedLedger {
  state: LedgerState; // the projection of the blocks before the first bad one
  firstInvalid?: { index: number; reason: string };
}

export function emptyState(): LedgerState {
  return {
    height: 0,
    lastTimestamp: '',
    tips: [],
    placed: new SharedMap(),
    notApplied: new SharedMap(),
    records: new SharedMap(),
    medicalRecords: new SharedMap(),
    uploads: new SharedMap(),
    documents: new SharedMap(),
    grants: new SharedMap(),
    patientGrants: new SharedMap(),
    newestGrant: new SharedMap(),
    shares: new SharedMap(),
    patientShares: new SharedMap(),
    doctorShares: new SharedMap(),
    careConsent: new SharedMap(),
    summaryEpochs: new SharedMap(),
    resealed: new SharedMap(),
    enrolment: null,
  };
}

// Puts a block in its place: height, time, heads. Every block of the order is placed, applied or not.
function place(state: LedgerState, block: Block, index: number): void {
  state.height = index + 1;
  state.lastTimestamp = block.timestamp;
  const parents = parentsOf(block);
  // a block that follows the one tip alone (most blocks) becomes the one tip: no list to filter and sort
  if (parents.length === 1 && state.tips.length === 1 && state.tips[0] === parents[0]) state.tips = [block.hash];
  else {
    const tips = state.tips.filter((tip) => !parents.includes(tip));
    tips.push(block.hash);
    state.tips = tips.sort();
  }
  state.placed.set(block.hash, index);
}

// Whether the block's author saw every block before it: its heads are exactly the tips so far.
export function sawEverything(state: LedgerState, block: Block): boolean {
  const parents = parentsOf(block);
  return parents.length === state.tips.length && parents.every((parent) => state.tips.includes(parent));
}

// Folds one legal block into `state` (in place: the fold owns its accumulator) and returns it; each kind's own fold
// is in its module (records/).
export function apply(state: LedgerState, block: Block, index: number): LedgerState {
  const record = block.data;
  const entry = { index, hash: block.hash, record };
  place(state, block, index);
  kindOf(record)?.fold(state, record, entry);
  return state;
}

// project(blocks): the state of legal blocks, in order; `blocks` must already be verified.
export function project(blocks: readonly Block[]): LedgerState {
  return blocks.reduce((state, block, index) => apply(state, block, index), emptyState());
}

// Hash, link, data hash and difficulty of each block, then its legality given the state before it; stops at
// the first failure and returns the projection of the blocks before it. Never throws on stored data. Resumes
// from `from` (blocks already verified), and stops before `until` so a long chain can be checked in slices.
// A block written concurrently with one before it (its author did not see every block before it) that breaks a
// rule is kept but not applied (docs/decisions/one-ledger-across-devices.md); hash, heads, time, author and
// record shape are never relaxed. Blocks before `checkedBefore` had their hashes checked already.
export function verifyLedger(
  blocks: readonly Block[],
  difficulty: number,
  from?: VerifiedLedger,
  until = blocks.length,
  checkedBefore = 0,
): VerifiedLedger {
  const state = from?.state ?? emptyState();
  if (from?.firstInvalid) return from;
  if (blocks.length === 0) return { state, firstInvalid: { index: 0, reason: 'the stored chain has no blocks' } };
  for (let index = state.height; index < Math.min(until, blocks.length); index++) {
    const block = blocks[index];
    const reason =
      (index < checkedBefore ? null : checkBlock(block, index, blocks[index - 1], difficulty)) ?? orderProblem(state, block);
    if (reason !== null) return { state, firstInvalid: { index, reason } };
    const fixed = fixedRuleProblem(state, block);
    if (fixed !== null) return { state, firstInvalid: { index, reason: fixed } };
    const rule = stateRuleProblem(state, block, index);
    if (rule === null) apply(state, block, index);
    else if (sawEverything(state, block)) return { state, firstInvalid: { index, reason: rule } };
    else {
      state.notApplied.set(block.hash, { index, hash: block.hash, reason: rule });
      place(state, block, index);
    }
  }
  return { state };
}

// Its heads come before it, and it is not placed twice.
function orderProblem(state: LedgerState, block: Block): string | null {
  if (state.placed.has(block.hash)) return 'the block is already in the ledger';
  for (const parent of parentsOf(block)) if (!state.placed.has(parent)) return `head ${parent.slice(0, 8)} is not before it`;
  return null;
}
