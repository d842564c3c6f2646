// The write pipeline: every change is one locked, revision-checked write decided on fresh state, its blocks
// mined, checked against the chain's rules and signed with the key the chain enrols for their author before
// anything is stored.
import type { ChangeKind } from '../api';
import { mineChild } from '../core/chain';
import { FUTURE_TIP_TOLERANCE_MS } from '../core/constants';
import { MESSAGES, ledgerError } from '../core/errors';
import { iso } from '../core/ledger-records';
import { apply, ruleProblem, type LedgerState } from '../core/projection';
import { LEDGER_AUTHOR, firstSignatureFailure, signBlock } from '../core/signatures';
import { copyState } from '../core/state-copy';
import type { SummaryKey } from '../core/sealed-fields';
import type { Block, ChainRecord, DocumentKey } from '../core/types';
import { REVISION_CONFLICT, REVISION_KEY, type StorageWrite } from '../storage/ledger-storage';
import { fail, type LedgerDeps } from './deps';
import { SUMMARY_KEYS_KEY, type Snapshot } from './snapshot';
import type { StoreHooks } from './store-hooks';

// A full disk in plain words, with what to do (My Profile shows the space used and left).
const QUOTA_FULL =
  'this device has no room left for MedLedger. Free some space (or delete files you no longer need), then try again.';
export const WRITE_ATTEMPTS = 4; // another tab writing first makes a write start over on fresh state
export const STALE_KEY =
  'Your session’s key is not the one these records enrol for you (they were restored or reset meanwhile), so nothing was saved. Sign in again.';

// A change, decided on the fresh snapshot: records to mine (in order, each legal on the state the ones before it
// fold to) and what goes beside them.
export interface Draft<T> {
  records?: ChainRecord[];
  documents?: DocumentKey[];
  summaryKeys?: SummaryKey[]; // a new epoch's key, stored with the block that announces it
  contents?: { id: string; bytes: ArrayBuffer }[];
  deleteDocuments?: string[];
  result: (blocks: Block[]) => T;
}

export interface WriteOptions {
  allowReadOnly?: boolean;
  skipDue?: boolean; // do not record due expiries first
}

export function kindsOf(records: readonly ChainRecord[]): ChangeKind[] {
  const kinds = new Set<ChangeKind>(records.length > 0 ? ['chain'] : []);
  for (const record of records) {
    if (record.type === 'emergency_access') {
      kinds.add(record.emergency.event === 'read' ? 'access' : 'grants');
      if (record.emergency.event === 'granted') kinds.add('records'); // a grant start is listed with the records
    } else if (record.type === 'access_shared') kinds.add(record.share.event === 'read' ? 'access' : 'grants');
    else kinds.add(record.type === 'access_acknowledged' || record.type === 'care_consent' ? 'access' : 'records');
  }
  return [...kinds];
}

export const ALL_KINDS: ChangeKind[] = ['reset', 'chain', 'records', 'grants', 'access'];

export function isConflict(error: unknown): boolean {
  return error instanceof Error && error.name === REVISION_CONFLICT;
}

export function storageError(failure: string, error: unknown): Error {
  if (error instanceof Error && error.name === 'QuotaExceededError') {
    return ledgerError('StorageError', `${failure}: ${QUOTA_FULL}`);
  }
  const cause = error instanceof Error && error.name !== 'Error' ? ` (${error.name})` : '';
  return ledgerError('StorageError', `${failure}: the browser's storage refused the write${cause}.`);
}

export function createMutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

// Writes are refused while the newest block is dated far ahead of this device's clock: a new block may not go
// back before it, and access is decided by the device clock, so nothing written now could be dated honestly.
export function futureTipProblem(state: LedgerState, now: number): string | null {
  const tip = state.lastTimestamp ? Date.parse(state.lastTimestamp) : NaN;
  if (!(tip - now > FUTURE_TIP_TOLERANCE_MS)) return null;
  return `The newest block is dated ${state.lastTimestamp}, ahead of this device's clock (${iso(now)}), so changes are turned off until the clock reaches it. Check this device's date and time.`;
}

export type WriterHooks = Omit<StoreHooks, 'checked'>;

export interface WriterStore {
  current: () => Snapshot;
  loaded: () => boolean;
  publish: (next: Snapshot) => void;
  refreshIfStale: () => Promise<boolean>;
  assertWritable: () => void;
  lock: <T>(fn: () => Promise<T>) => Promise<T>;
}

export function createWriter(deps: LedgerDeps, hooks: WriterHooks, store: WriterStore) {
  const { storage, difficulty } = deps;

  // The time of a new block: the device clock, but never before the tip (a clock moved back cannot reorder the chain).
  function blockTime(): number {
    const last = store.current().verified.state.lastTimestamp;
    return Math.max(deps.now(), last ? Date.parse(last) : -Infinity);
  }

  async function signed(s: Snapshot, mined: Block): Promise<Block> {
    const author = mined.author === LEDGER_AUTHOR ? s.storedKeys?.ledger.privateKey : hooks.signingKey(mined.author);
    if (!author) fail('AccessDeniedError', MESSAGES.accessDenied);
    const block = await signBlock(mined, author);
    const enrolment = s.verified.state.enrolment;
    if (!enrolment || (await firstSignatureFailure([block], enrolment, s.publicKeys))) {
      if (mined.author !== LEDGER_AUTHOR) hooks.keyRefused();
      fail('AccessDeniedError', STALE_KEY);
    }
    return block;
  }

  async function commitDraft<T>(failure: string, draft: Draft<T>): Promise<Block[]> {
    const s = store.current();
    const state = s.verified.state;
    const blocks: Block[] = [];
    if (!draft.records?.length && !draft.documents?.length && !draft.deleteDocuments?.length) return blocks;
    const next = copyState(state);
    for (const record of draft.records ?? []) {
      // a block names the heads it follows: every tip this device holds, or the change's block before it
      const heads = blocks.length > 0 ? [blocks[blocks.length - 1].hash] : state.tips;
      const mined = mineChild(heads, state.height + blocks.length, record, record.timestamp, difficulty);
      // a change must be legal where it lands: after the change's blocks before it (an epoch before what it seals)
      const problem = ruleProblem(next, mined, state.height + blocks.length);
      if (problem) fail('IntegrityError', `This change would break a rule of the chain: ${problem}.`);
      const block = await signed(s, mined);
      apply(next, block, s.blocks.length + blocks.length);
      blocks.push(block);
    }
    const summaryKeys = new Map(s.summaryKeys);
    for (const key of draft.summaryKeys ?? []) summaryKeys.set(key.epochId, key);
    const revision = s.revision + 1;
    const write: StorageWrite = {
      expectedRevision: s.revision,
      blocks,
      documents: draft.documents,
      contents: draft.contents,
      deleteDocuments: draft.deleteDocuments,
      meta: {
        [REVISION_KEY]: revision,
        ...(draft.summaryKeys?.length ? { [SUMMARY_KEYS_KEY]: [...summaryKeys.values()] } : {}),
      },
    };
    try {
      await storage.commit(write);
    } catch (error) {
      throw isConflict(error) ? error : storageError(failure, error);
    }
    const keys = new Map(s.keys);
    for (const row of draft.documents ?? []) keys.set(row.id, row.encryptionKey);
    for (const id of draft.deleteDocuments ?? []) keys.delete(id);
    // every new signature was checked against the enrolled key above
    if (s.signatures.checked === s.blocks.length) s.signatures.checked += blocks.length;
    store.publish({ ...s, blocks: [...s.blocks, ...blocks], verified: { state: next }, keys, summaryKeys, revision });
    hooks.stateChanged();
    return blocks;
  }

  // Every change: locked, on fresh state, due expiries first, revision-checked by storage (a lost race
  // decides again), announced after.
  async function write<T>(
    failure: string,
    decide: (snapshot: Snapshot, at: number) => Draft<T> | Promise<Draft<T>>,
    options: WriteOptions = {},
  ): Promise<T> {
    const kinds = new Set<ChangeKind>();
    const attempt = async (): Promise<T> => {
      if (await store.refreshIfStale()) ALL_KINDS.forEach((kind) => kinds.add(kind));
      if (!options.allowReadOnly) {
        store.assertWritable();
        const ahead = futureTipProblem(store.current().verified.state, deps.now());
        if (ahead) fail('ReadOnlyError', ahead);
      }
      // a device without the ledger's key (it took the ledger from a sync server) leaves expiries to one that has it
      if (!options.skipDue && !store.current().invalid && store.current().storedKeys?.ledger.privateKey) {
        const due = hooks.dueRecords(store.current().verified.state, blockTime());
        if (due.length > 0) {
          await commitDraft('The end of an emergency access was not saved', { records: due, result: () => undefined });
          kindsOf(due).forEach((kind) => kinds.add(kind));
        }
      }
      const draft = await decide(store.current(), blockTime());
      const blocks = await commitDraft(failure, draft);
      kindsOf(draft.records ?? []).forEach((kind) => kinds.add(kind));
      return draft.result(blocks);
    };
    try {
      return await store.lock(async () => {
        for (let tries = 1; ; tries++) {
          try {
            return await attempt();
          } catch (error) {
            if (!isConflict(error)) throw error;
            if (tries >= WRITE_ATTEMPTS) throw storageError(failure, error);
          }
        }
      });
    } finally {
      if (kinds.size > 0 && store.loaded()) hooks.committed({ revision: store.current().revision, kinds: [...kinds] });
    }
  }

  return { write, blockTime };
}
