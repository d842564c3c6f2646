// What one load of the stored ledger gives: the blocks, their verified projection, the keys beside them, and
// the first failed check. A published snapshot never changes: a write or a late signature failure publishes a
// new one (workers/ledger/store.ts).
import type { InvalidBlock } from '../api';
import { checkBlock } from '../core/chain';
import { verifyLedger, type LedgerState, type VerifiedLedger } from '../core/projection';
import { summaryKeysOf, type SummaryKey } from '../core/sealed-fields';
import type { StoredKeys } from '../core/signatures';
import { copyState } from '../core/state-copy';
import type { Block, KeyEnrolment } from '../core/types';
import { FORMAT_KEY, KEYS_KEY, LEDGER_FORMAT, REVISION_KEY, storedRevision, type StoredState } from '../storage/ledger-storage';
import { nextTask } from './deps';
import type { SignatureCheck } from './signature-scheduler';
import { fileLabel } from './views';

const VERIFY_SLICE = 5000; // blocks verified between yields: a long chain never silences the worker for seconds

export interface Snapshot {
  readonly blocks: readonly Block[];
  readonly verified: VerifiedLedger; // the projection of the verified blocks
  readonly keys: ReadonlyMap<string, string>; // document id -> AES key (hex): the one thing of a file not on the chain
  readonly summaryKeys: ReadonlyMap<string, SummaryKey>; // epoch id -> a patient's summary key this device holds
  readonly revision: number;
  readonly invalid?: InvalidBlock; // the first failed check, of a block or of a stored item: the ledger is read-only
  readonly storedKeys?: StoredKeys; // the users' wrapped keys and the ledger key
  readonly signatures: SignatureCheck; // the live check of this chain's signatures, shared by the snapshots that extend it
  readonly publicKeys: Map<string, Promise<CryptoKey>>; // enrolled keys (base64) imported once: a cache, not state
  readonly awaiting: ReadonlySet<string>; // documents another device wrote whose key or bytes have not reached this one
  readonly hashes?: HashCheck; // a long chain shown before its hashes and links were checked: how far that check got
}

// The check of a long chain's hashes and links, run behind the first screen (workers/ledger/store.ts).
export interface HashCheck {
  checked: number; // blocks [0, checked) have hashes and links that hold
}

// Meta entry: ids of documents merged from another device whose key or bytes are still on their way.
export const AWAITING_KEY = 'awaitingFiles';
// Meta entry: the patients' summary keys this device holds (docs/decisions/nothing-medical-in-clear.md), as a list.
export const SUMMARY_KEYS_KEY = 'summaryKeys';

export function awaitingOf(value: unknown): Set<string> {
  return new Set(Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
}

// `checkedBefore`: blocks whose hashes are not checked here (blocks.length: the rules and the fold alone).
async function verifyInSlices(blocks: readonly Block[], difficulty: number, checkedBefore = 0): Promise<VerifiedLedger> {
  let verified = verifyLedger(blocks, difficulty, undefined, VERIFY_SLICE, checkedBefore);
  while (!verified.firstInvalid && verified.state.height < blocks.length) {
    await nextTask();
    verified = verifyLedger(blocks, difficulty, verified, verified.state.height + VERIFY_SLICE, checkedBefore);
  }
  return verified;
}

// Hashes (SHA-256 of each record and header, in pure JS) are most of a long chain's check, and the first screen
// needs the rules and the fold alone: a chain longer than one slice is shown first and its hashes checked after.
export const longLedger = (height: number) => height > VERIFY_SLICE;
export const hashesBehind = (blocks: readonly Block[]) => longLedger(blocks.length);

// The first block whose hash or link fails, or undefined; `progress` tells how far it got between slices.
export async function firstHashProblem(
  blocks: readonly Block[],
  difficulty: number,
  progress: HashCheck,
  told: () => void,
): Promise<InvalidBlock | undefined> {
  for (let index = progress.checked; index < blocks.length; index++) {
    if (index - progress.checked >= VERIFY_SLICE) {
      progress.checked = index;
      told();
      await nextTask();
    }
    const reason = checkBlock(blocks[index], index, blocks[index - 1], difficulty);
    if (reason !== null) return { index, reason };
  }
  progress.checked = blocks.length;
  return undefined;
}

// The keys the genesis enrols, if block 0 holds (its hash and rules): what signatures and sessions are checked against.
export function genesisEnrolment(blocks: readonly Block[], difficulty: number): KeyEnrolment | null {
  const genesis = verifyLedger(blocks, difficulty, undefined, 1);
  return genesis.firstInvalid ? null : genesis.state.enrolment;
}

// The projection of the blocks before `index`, by the rules alone: their hashes held.
export function verifiedBefore(blocks: readonly Block[], difficulty: number, index: number): VerifiedLedger {
  return verifyLedger(blocks, difficulty, undefined, index, index);
}

// Keys and bytes must match the projection exactly: each live document has both, nothing else is stored.
export function offChainProblem(
  state: LedgerState,
  keys: ReadonlyMap<string, string>,
  contentIds: readonly string[],
  awaiting: ReadonlySet<string> = new Set(),
): InvalidBlock | undefined {
  let first: InvalidBlock | undefined;
  const note = (problem: InvalidBlock) => {
    if (!first || problem.index < first.index) first = problem;
  };
  const contents = new Set(contentIds);
  for (const document of state.documents.values()) {
    if (document.deletedAt || awaiting.has(document.id)) continue;
    if (!keys.has(document.id)) note({ index: document.blockIndex, reason: `the key of ${fileLabel(document)} is missing` });
    if (!contents.has(document.id))
      note({ index: document.blockIndex, reason: `the stored bytes of ${fileLabel(document)} are missing` });
  }
  const live = (id: string) => state.documents.get(id)?.deletedAt === undefined && state.documents.has(id);
  for (const id of keys.keys()) {
    if (!live(id)) note({ index: state.height, item: `document key ${id}`, reason: 'no block names it as a stored file' });
  }
  for (const id of contents) {
    if (!live(id)) note({ index: state.height, item: `document bytes ${id}`, reason: 'no block names them as a stored file' });
  }
  return first;
}

// The stored blocks of `stored` as one chain: all of them, or (when the storage read only the pages after
// `previous`'s tip) `previous`'s blocks followed by the new ones. Null when the new ones do not follow on.
export function chainOf(stored: StoredState, previous: Snapshot | null): Block[] | null {
  const from = stored.from ?? 0;
  if (from === 0) return stored.blocks;
  if (!previous || from > previous.blocks.length) return null;
  const overlap = previous.blocks.length - from; // blocks read again to check the link
  const fresh = stored.blocks.slice(overlap);
  const follows = stored.blocks.every((block, i) => Number(block.id) === from + i);
  if (!follows || stored.blocks[overlap - 1]?.hash !== previous.blocks.at(-1)?.hash) return null;
  return [...previous.blocks, ...fresh];
}

export interface LoadedLedger {
  base: Omit<Snapshot, 'verified' | 'invalid' | 'signatures'>;
  extends?: Snapshot; // the snapshot these blocks extend: only its new blocks need verifying
  oldFormat?: InvalidBlock; // an earlier version's ledger: named, nothing verified
}

export function loadedLedger(stored: StoredState, blocks: Block[], previous: Snapshot | null): LoadedLedger {
  const revision = storedRevision(stored.meta[REVISION_KEY]);
  const keys = new Map(stored.documents.map((row) => [row?.id, row?.encryptionKey]));
  const storedKeys = stored.meta[KEYS_KEY] as StoredKeys | undefined;
  const publicKeys = previous?.publicKeys ?? new Map<string, Promise<CryptoKey>>();
  const awaiting = awaitingOf(stored.meta[AWAITING_KEY]);
  const summaryKeys = summaryKeysOf(stored.meta[SUMMARY_KEYS_KEY]);
  const base = { blocks, keys, summaryKeys, revision, publicKeys, awaiting, ...(storedKeys ? { storedKeys } : {}) };
  if (blocks.length > 0 && stored.meta[FORMAT_KEY] !== LEDGER_FORMAT) {
    const reason =
      stored.meta[FORMAT_KEY] === 2
        ? 'the records were stored by an earlier version of MedLedger, before blocks were signed, so no block says who wrote it'
        : 'the records were stored by an earlier version of MedLedger, in a format this version does not read';
    return { base, oldFormat: { index: 0, reason } };
  }
  // Another tab only appended: verify its new blocks on top of what this tab verified.
  const extends_ =
    previous &&
    !previous.invalid &&
    previous.blocks.length <= blocks.length &&
    blocks[previous.blocks.length - 1]?.hash === previous.blocks.at(-1)?.hash;
  return { base, ...(extends_ ? { extends: previous } : {}) };
}

// Hashes, links, rules and the stored items beside the chain; never touches `previous`'s projection. With
// `deferHashes`, a long chain's hashes and links are left to `firstHashProblem` (`hashes` says so).
export async function verifiedLedger(
  loaded: LoadedLedger,
  contentIds: readonly string[],
  difficulty: number,
  deferHashes = false,
): Promise<{ verified: VerifiedLedger; invalid?: InvalidBlock; hashes?: HashCheck }> {
  const { blocks } = loaded.base;
  const from = loaded.extends;
  const deferred = !from && deferHashes && hashesBehind(blocks);
  const verified = from
    ? verifyLedger(blocks, difficulty, { state: copyState(from.verified.state) })
    : await verifyInSlices(blocks, difficulty, deferred ? blocks.length : 0);
  const invalid = verified.firstInvalid ?? offChainProblem(verified.state, loaded.base.keys, contentIds, loaded.base.awaiting);
  return { verified, ...(invalid ? { invalid } : {}), ...(deferred ? { hashes: { checked: 0 } } : {}) };
}
