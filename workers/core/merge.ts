// Blocks another device or a backup brings, merged into a verified ledger: the same checks on every device and
// on the sync server (docs/decisions/one-ledger-across-devices.md). Merging only adds: nothing held is dropped.
import { DIFFICULTY, MAX_CLOCK_AHEAD_MS } from './constants';
import { firstDifference, orderBlocks, parentsOf } from './dag';
import { emptyState, verifyLedger, type LedgerState } from './projection';
import { signatureProblem, type SignatureChecker } from './signatures';
import { copyState } from './state-copy';
import type { Block, KeyEnrolment } from './types';

export const MAX_BLOCK_BYTES = 256 * 1024; // a block's JSON: an upload of 50 files with long names is about 20 KB
const CHECKER_SLICE = 2500; // signatures handed to a checker at a time: a 10,000-block catch-up keeps every core busy

export interface RefusedBlockReport {
  hash: string;
  reason: string;
}

export interface MergeOutcome {
  blocks: Block[]; // the whole ledger in its order after the merge
  added: Block[]; // incoming blocks now held, each verified (hash, proof of work, heads, signature, rules)
  refused: RefusedBlockReport[];
  waiting: Block[]; // incoming blocks whose heads are not held yet: offer them again later
  firstChanged: number; // first place whose block changed (blocks.length when nothing did)
  state: LedgerState; // the projection of `blocks`
}

export interface MergeOptions {
  difficulty?: number;
  publicKeys?: Map<string, Promise<CryptoKey>>; // imported enrolled keys, shared across calls
  heldState?: LedgerState; // the projection of `held`: a merge that only appends folds on from a copy of it
  checker?: SignatureChecker; // checks lists of signatures on other threads (the ledger worker's pool)
  now?: number; // the verifier's clock (ms): a block dated more than MAX_CLOCK_AHEAD_MS after it is refused
}

// Why a block naming refused block `hash` is refused too: it can never be placed.
export const namesRefused = (hash: string) => `it names block ${hash.slice(0, 8)}, which was refused`;

// Why a block dated ahead of the verifier's clock is refused, or null: one such block would stop every writer until then.
export function futureBlockProblem(timestamp: unknown, now: number | undefined): string | null {
  if (now === undefined || typeof timestamp !== 'string') return null;
  const at = Date.parse(timestamp);
  if (!(at - now > MAX_CLOCK_AHEAD_MS)) return null;
  const minutes = MAX_CLOCK_AHEAD_MS / 60_000;
  return `dated in the future: ${timestamp} is more than ${minutes} minutes after this verifier's clock (${new Date(now).toISOString()}); the clock of the device that wrote it is wrong`;
}

const BLOCK_FIELDS = ['id', 'hash', 'previousHash', 'heads', 'timestamp', 'dataHash', 'data', 'nonce', 'author', 'signature'];

function hashText(value: unknown): string {
  const hash = (value as { hash?: unknown } | null)?.hash;
  return typeof hash === 'string' ? hash.slice(0, 64) : '(no hash)';
}

// The block's own fields and nothing a peer added; a reason when it cannot be a block at all.
function asBlock(value: unknown): Block | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'block is malformed (not an object)';
  let size: number;
  try {
    size = JSON.stringify(value).length;
  } catch {
    return 'block is malformed (not JSON)';
  }
  if (size > MAX_BLOCK_BYTES) return `block is too large (${size} bytes, at most ${MAX_BLOCK_BYTES})`;
  const source = value as Record<string, unknown>;
  if (typeof source.hash !== 'string' || typeof source.id !== 'string') return 'block is malformed (no hash or id)';
  const block: Record<string, unknown> = {};
  for (const field of BLOCK_FIELDS) if (source[field] !== undefined) block[field] = source[field];
  return block as unknown as Block;
}

// Each block's signature problem (null: it holds), started at once: on `checker`'s threads in slices when given.
// A slice reports only its first failure, so the blocks after it are checked here.
function startSignatureChecks(
  blocks: readonly Block[],
  enrolment: KeyEnrolment,
  publicKeys: Map<string, Promise<CryptoKey>>,
  checker: SignatureChecker | undefined,
): Map<string, Promise<string | null>> {
  const problems = new Map<string, Promise<string | null>>();
  const here = (block: Block) => signatureProblem(block, enrolment, publicKeys);
  if (!checker) {
    for (const block of blocks) problems.set(block.hash, here(block));
    return problems;
  }
  for (let from = 0; from < blocks.length; from += CHECKER_SLICE) {
    const slice = blocks.slice(from, from + CHECKER_SLICE);
    const parts = slice.map(({ author, hash, signature }) => ({ author, hash, signature }));
    const outcome = checker
      .check(parts, enrolment)
      .then(async (failure): Promise<(string | null)[]> => {
        if (!failure) return slice.map(() => null);
        const rest = await Promise.all(slice.slice(failure.offset + 1).map(here));
        return [...slice.slice(0, failure.offset).map(() => null), failure.reason, ...rest];
      })
      .catch(() => Promise.all(slice.map(here))); // a checker that failed: every block of its slice is checked here
    slice.forEach((block, i) =>
      problems.set(
        block.hash,
        outcome.then((each) => each[i]),
      ),
    );
  }
  return problems;
}

const sameKeys = (a: KeyEnrolment, b: KeyEnrolment) => a === b || JSON.stringify(a) === JSON.stringify(b);

// Merges `incoming` (anything a peer sent) into `held` (a verified ledger in its order). Every incoming block is
// added, refused with why, or left waiting for a head it names. The result verifies as a whole.
export async function mergeBlocks(
  held: readonly Block[],
  incoming: readonly unknown[],
  options: MergeOptions = {},
): Promise<MergeOutcome> {
  const difficulty = options.difficulty ?? DIFFICULTY;
  const publicKeys = options.publicKeys ?? new Map<string, Promise<CryptoKey>>();
  const heldHashes = new Set(held.map((block) => block.hash));
  const refused: RefusedBlockReport[] = [];
  const candidates = new Map<string, Block>();
  for (const value of incoming) {
    const block = asBlock(value);
    if (typeof block === 'string') refused.push({ hash: hashText(value), reason: block });
    else if (heldHashes.has(block.hash) || candidates.has(block.hash)) continue;
    else if (futureBlockProblem(block.timestamp, options.now))
      refused.push({ hash: block.hash, reason: futureBlockProblem(block.timestamp, options.now) as string });
    else if (!Array.isArray(block.heads) && block.heads !== undefined)
      refused.push({ hash: block.hash, reason: 'heads are not a list of block hashes' });
    else if (held.length > 0 && parentsOf(block).length === 0)
      refused.push({ hash: block.hash, reason: 'the block starts another ledger (it names no block before it)' });
    else candidates.set(block.hash, block);
  }

  const refuse = (hash: string, reason: string) => {
    candidates.delete(hash);
    refused.push({ hash, reason });
    // a block naming a refused block can never be placed
    for (const other of [...candidates.values()]) if (parentsOf(other).includes(hash)) refuse(other.hash, namesRefused(hash));
  };

  // signatures do not depend on the order: with the held ledger's keys known they are checked beside hashes and rules
  let checkedWith = options.heldState?.enrolment;
  const signatures = checkedWith
    ? startSignatureChecks([...candidates.values()], checkedWith, publicKeys, options.checker)
    : new Map<string, Promise<string | null>>();

  for (;;) {
    const ordered = orderBlocks([...held, ...candidates.values()]);
    const blocks = ordered.blocks;
    const firstChanged = firstDifference(held, blocks);
    if (blocks.length === 0) {
      // nothing held and no genesis that verifies: whatever is left waits for one
      return { blocks, added: [], refused, waiting: [...candidates.values()], firstChanged: 0, state: emptyState() };
    }
    const appendOnly = options.heldState !== undefined && firstChanged === held.length;
    const from = appendOnly ? { state: copyState(options.heldState as LedgerState) } : undefined;
    const verified = verifyLedger(blocks, difficulty, from, blocks.length, firstChanged);
    if (verified.firstInvalid) {
      const { index, reason } = verified.firstInvalid;
      const bad = blocks[index];
      if (bad && candidates.has(bad.hash)) {
        refuse(bad.hash, reason);
        continue;
      }
      // a held block no longer verifies: the newest incoming block placed before it is what moved it
      const culprit = blocks
        .slice(0, index)
        .reverse()
        .find((block) => candidates.has(block.hash));
      if (!culprit) throw new Error(`The held ledger does not verify at block ${index} (${reason})`);
      refuse(culprit.hash, `it would make block ${index} break a rule (${reason})`);
      continue;
    }
    const enrolment = verified.state.enrolment;
    const added = blocks.filter((block) => candidates.has(block.hash));
    if (enrolment) {
      if (!checkedWith || !sameKeys(checkedWith, enrolment)) signatures.clear();
      checkedWith = enrolment;
      const unchecked = added.filter((block) => !signatures.has(block.hash));
      startSignatureChecks(unchecked, enrolment, publicKeys, options.checker).forEach((problem, hash) =>
        signatures.set(hash, problem),
      );
    }
    let badSignature = false;
    for (const block of added) {
      const problem = enrolment
        ? await (signatures.get(block.hash) ?? signatureProblem(block, enrolment, publicKeys))
        : 'signature: the ledger enrols no keys';
      if (problem !== null) {
        refuse(block.hash, problem);
        badSignature = true;
      }
    }
    if (badSignature) continue;
    const placed = new Set(blocks.map((block) => block.hash));
    const waiting = [...candidates.values()].filter((block) => !placed.has(block.hash));
    return { blocks, added, refused, waiting, firstChanged, state: verified.state };
  }
}
