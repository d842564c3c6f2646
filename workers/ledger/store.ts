// The stored ledger and its revision: loads and verifies the chain, keeps its projection, and makes every
// change one locked, revision-checked write decided on fresh state. The one owner of the loaded ledger.
import type { ChainStatus, ChangeKind, InvalidBlock, SignatureState } from '../api';
import { mineBlock, createGenesisBlock } from '../core/chain';
import { DEMO_PASSWORD } from '../core/constants';
import { USERS } from '../core/directory';
import { MESSAGES, ledgerError } from '../core/errors';
import { genesisRecord, iso } from '../core/ledger-records';
import { apply, project, ruleProblem, verifyLedger, type LedgerState, type VerifiedLedger } from '../core/projection';
import {
  LEDGER_AUTHOR,
  createStoredKeys,
  enrolmentOf,
  firstSignatureFailure,
  signBlock,
  type SignatureFailure,
  type StoredKeys,
} from '../core/signatures';
import type { Block, ChainRecord, DocumentKey, KeyEnrolment } from '../core/types';
import {
  FORMAT_KEY,
  KEYS_KEY,
  LEDGER_FORMAT,
  SESSION_KEY,
  REVISION_CONFLICT,
  REVISION_KEY,
  storedRevision,
  type StorageWrite,
  type StoredState,
} from '../storage/ledger-storage';
import { fail, nextTask, type LedgerDeps } from './deps';

// A full disk in plain words, with what to do (My Profile shows the space used and left).
const QUOTA_FULL =
  'this device has no room left for MedLedger. Free some space (or delete files you no longer need), then try again.';
const WRITE_ATTEMPTS = 4; // another tab writing first makes a write start over on fresh state
const VERIFY_SLICE = 5000; // blocks verified between yields: a long chain never silences the worker for seconds
const FIRST_SIGNATURE_SLICE = 500; // checked before a loaded chain is shown: all of a short chain, at little delay
const SIGNATURE_SLICE = 2500; // signatures one checker worker is handed at a time (about 150 ms); progress is told after each

async function verifyInSlices(blocks: readonly Block[], difficulty: number): Promise<VerifiedLedger> {
  let verified = verifyLedger(blocks, difficulty, undefined, VERIFY_SLICE);
  while (!verified.firstInvalid && verified.state.height < blocks.length) {
    await nextTask();
    verified = verifyLedger(blocks, difficulty, verified, verified.state.height + VERIFY_SLICE);
  }
  return verified;
}

export interface Snapshot {
  blocks: Block[];
  verified: VerifiedLedger; // the projection of the verified blocks
  keys: Map<string, string>; // document id -> AES key (hex): the one thing of a file not on the chain
  revision: number;
  invalid?: InvalidBlock; // the first failed check, of a block or of a stored item: the ledger is read-only
  storedKeys?: StoredKeys; // the users' wrapped keys and the ledger key
  signatures: SignatureCheck;
  publicKeys: Map<string, Promise<CryptoKey>>; // enrolled keys (base64) imported once
}

// Signatures are checked from the moment the blocks are read, beside the check of hashes, links and rules, and
// go on in the background once those passed and the screens show the blocks; a failure found later turns the
// ledger read-only like any other.
export interface SignatureCheck {
  checked: number; // blocks [0, checked) have signatures that hold
  failure?: InvalidBlock; // the first block whose signature failed
  limit: number; // blocks from here on need no check: an earlier one failed a check of hashes, links or rules
  lanes: number; // slices checked at once: one while this worker verifies the hashes (the other core is free), every checker once shown
  running: boolean;
  stopped: boolean; // a newer snapshot took over
  progressed: Set<() => void>; // told after every checked slice, a failure, and the end
}

// A change, decided on the fresh snapshot: records to mine (in order, each legal on the state before the
// change) and what goes beside them.
export interface Draft<T> {
  records?: ChainRecord[];
  documents?: DocumentKey[];
  contents?: { id: string; bytes: ArrayBuffer }[];
  deleteDocuments?: string[];
  result: (blocks: Block[]) => T;
}

export interface WriteOptions {
  allowReadOnly?: boolean;
  skipDue?: boolean; // do not record due expiries first
}

export interface StoreHooks {
  dueRecords: (state: LedgerState, at: number) => ChainRecord[]; // recorded before any other change
  committed: (change: { revision: number; kinds: ChangeKind[] }) => void;
  stateChanged: () => void;
  signingKey: (author: string) => CryptoKey | undefined; // the signed-in user's unlocked key, when `author` is that user
  checked: (change: { revision: number; kinds: ChangeKind[] }) => void; // this tab's screens only: signature progress
}

export function kindsOf(records: readonly ChainRecord[]): ChangeKind[] {
  const kinds = new Set<ChangeKind>(records.length > 0 ? ['chain'] : []);
  for (const record of records) {
    if (record.type === 'emergency_access') {
      kinds.add(record.emergency.event === 'read' ? 'access' : 'grants');
      if (record.emergency.event === 'granted') kinds.add('records'); // a grant start is listed with the records
    } else if (record.type === 'access_shared') kinds.add(record.share.event === 'read' ? 'access' : 'grants');
    else kinds.add(record.type === 'access_acknowledged' ? 'access' : 'records');
  }
  return [...kinds];
}

export const ALL_KINDS: ChangeKind[] = ['reset', 'chain', 'records', 'grants', 'access'];

function isConflict(error: unknown): boolean {
  return error instanceof Error && error.name === REVISION_CONFLICT;
}

function storageError(failure: string, error: unknown): Error {
  if (error instanceof Error && error.name === 'QuotaExceededError') {
    return ledgerError('StorageError', `${failure}: ${QUOTA_FULL}`);
  }
  const cause = error instanceof Error && error.name !== 'Error' ? ` (${error.name})` : '';
  return ledgerError('StorageError', `${failure}: the browser's storage refused the write${cause}.`);
}

function createMutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

// Keys and bytes must match the projection exactly: each live document has both, nothing else is stored.
export function offChainProblem(
  state: LedgerState,
  keys: ReadonlyMap<string, string>,
  contentIds: readonly string[],
): InvalidBlock | undefined {
  let first: InvalidBlock | undefined;
  const note = (problem: InvalidBlock) => {
    if (!first || problem.index < first.index) first = problem;
  };
  const contents = new Set(contentIds);
  for (const document of state.documents.values()) {
    if (document.deletedAt) continue;
    if (!keys.has(document.id)) note({ index: document.blockIndex, reason: `the key of "${document.fileName}" is missing` });
    if (!contents.has(document.id))
      note({ index: document.blockIndex, reason: `the stored bytes of "${document.fileName}" are missing` });
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

export function createLedgerStore(deps: LedgerDeps, hooks: StoreHooks) {
  const { storage, difficulty } = deps;
  const lock = deps.lock ?? createMutex();
  let snapshot: Snapshot | null = null;
  let loading: Promise<void> | null = null;

  async function toSnapshot(stored: StoredState, previous: Snapshot | null): Promise<Snapshot> {
    const revision = storedRevision(stored.meta[REVISION_KEY]);
    const keys = new Map(stored.documents.map((row) => [row?.id, row?.encryptionKey]));
    const storedKeys = stored.meta[KEYS_KEY] as StoredKeys | undefined;
    const publicKeys = previous?.publicKeys ?? new Map<string, Promise<CryptoKey>>();
    const base = { blocks: stored.blocks, keys, revision, publicKeys, ...(storedKeys ? { storedKeys } : {}) };
    if (stored.blocks.length > 0 && stored.meta[FORMAT_KEY] !== LEDGER_FORMAT) {
      const reason =
        stored.meta[FORMAT_KEY] === 2
          ? 'the records were stored by an earlier version of MedLedger, before blocks were signed, so no block says who wrote it'
          : 'the records were stored by an earlier version of MedLedger, in a format this version does not read';
      const signatures = signatureCheck(0);
      return { ...base, signatures, verified: verifyLedger([], difficulty), invalid: { index: 0, reason } };
    }
    // Another tab only appended: verify its new blocks on top of what this tab verified.
    const extends_ =
      previous &&
      !previous.invalid &&
      previous.blocks.length <= stored.blocks.length &&
      stored.blocks[previous.blocks.length - 1]?.hash === previous.blocks.at(-1)?.hash;
    // the earlier blocks' signatures were checked by the snapshot this one extends
    const signatures = signatureCheck(extends_ ? previous.signatures.checked : 0);
    const genesis = verifyLedger(stored.blocks, difficulty, undefined, 1); // the enrolled keys, if block 0 holds
    const enrolment = genesis.firstInvalid ? null : genesis.state.enrolment;
    checkSignatures(signatures, stored.blocks, enrolment, publicKeys);
    // Resumed in one go: the shared state must never be seen half-advanced. A whole chain is checked in slices.
    const verified = extends_
      ? verifyLedger(stored.blocks, difficulty, previous.verified)
      : await verifyInSlices(stored.blocks, difficulty);
    if (verified.firstInvalid) signatures.limit = verified.state.height;
    const invalid = verified.firstInvalid ?? offChainProblem(verified.state, keys, stored.contentIds);
    return { ...base, signatures, verified, ...(invalid ? { invalid } : {}) };
  }

  function signatureCheck(checked: number): SignatureCheck {
    return { checked, limit: Infinity, lanes: 1, running: false, stopped: false, progressed: new Set() };
  }

  // Resolves once `done` holds for `check`, or its checking ended.
  function until(check: SignatureCheck, done: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const test = () => {
        if (!done() && check.running) return;
        check.progressed.delete(test);
        resolve();
      };
      check.progressed.add(test);
      test();
    });
  }

  // A short chain is published with every signature checked; a long one once its first slice is, the rest
  // checked in the background while the screens already show it, on every core.
  async function setSnapshot(next: Snapshot): Promise<void> {
    const check = next.signatures;
    await until(check, () => check.failure !== undefined || check.checked >= Math.min(FIRST_SIGNATURE_SLICE, next.blocks.length));
    if (snapshot && snapshot !== next) snapshot.signatures.stopped = true;
    signatureFailed(next);
    snapshot = next;
    check.lanes = deps.signatureChecker?.lanes ?? 1;
    hooks.stateChanged();
    check.progressed.add(() => {
      if (snapshot !== next) return;
      if (!signatureFailed(next)) return hooks.checked({ revision: next.revision, kinds: ['signatures'] });
      hooks.stateChanged(); // found after the screens showed the blocks: they turn read-only
      hooks.checked({ revision: next.revision, kinds: ALL_KINDS });
    });
  }

  // Checks the signatures of `blocks` from `check.checked` on, slice by slice, up to `check.lanes` slices at
  // once (each to another checker worker), in order; stops at the first failure. Blocks appended meanwhile
  // are checked too.
  function checkSignatures(
    check: SignatureCheck,
    blocks: readonly Block[],
    enrolment: KeyEnrolment | null,
    publicKeys: Map<string, Promise<CryptoKey>>,
  ): void {
    const sliceOf = (from: number, to: number): Promise<SignatureFailure | null> => {
      if (!enrolment) return Promise.resolve({ offset: 0, reason: 'signature: no keys are enrolled' });
      const slice = blocks.slice(from, to).map(({ author, hash, signature }) => ({ author, hash, signature }));
      return deps.signatureChecker
        ? deps.signatureChecker.check(slice, enrolment)
        : firstSignatureFailure(slice, enrolment, publicKeys);
    };
    const told = () => check.progressed.forEach((listener) => listener());
    check.running = true;
    void (async () => {
      const queue: { from: number; to: number; result: Promise<SignatureFailure | null> }[] = [];
      let next = check.checked;
      try {
        for (;;) {
          const end = Math.min(blocks.length, check.limit);
          while (queue.length < check.lanes && next < end) {
            const to = Math.min(end, next + (next < FIRST_SIGNATURE_SLICE ? FIRST_SIGNATURE_SLICE : SIGNATURE_SLICE));
            queue.push({ from: next, to, result: sliceOf(next, to) });
            next = to;
          }
          const head = queue.shift();
          if (!head || check.stopped) return;
          const failure = await head.result;
          if (check.stopped) return;
          if (failure) {
            const index = head.from + failure.offset;
            check.checked = Math.max(check.checked, index); // the blocks before it in the slice hold
            if (index < check.limit) check.failure = { index, reason: failure.reason };
            return;
          }
          check.checked = Math.max(check.checked, head.to);
          told();
        }
      } finally {
        check.running = false;
        told();
      }
    })();
  }

  // After a signature failed: the ledger as verified up to that block, read-only from there. True when this
  // changed the snapshot (once per failure).
  function signatureFailed(s: Snapshot): boolean {
    const { failure, limit } = s.signatures;
    if (!failure || failure.index >= limit) return false; // none, after a failed check of hashes or rules, or applied already
    if (s.invalid && s.invalid.index < failure.index) return false; // an earlier block failed another check
    s.signatures.limit = failure.index;
    s.invalid = failure;
    s.verified = { state: project(s.blocks.slice(0, failure.index)), firstInvalid: failure };
    return true;
  }

  function current(): Snapshot {
    return snapshot ?? fail('StorageError', 'The stored records are not loaded yet.');
  }

  // A new chain: its genesis enrols the public keys and is signed by the ledger key. The keys (and the
  // session) are kept across a reset, so a signed-in user stays signed in and signs with the same key.
  async function freshWrite(expectedRevision: number, keys: StoredKeys, session: unknown): Promise<StorageWrite> {
    const timestamp = iso(deps.now());
    const record = genesisRecord(deps.randomId(), timestamp, enrolmentOf(keys));
    const genesis = await signBlock(createGenesisBlock(record, timestamp, difficulty), keys.ledger.privateKey);
    return {
      expectedRevision,
      clear: true,
      blocks: [genesis],
      meta: {
        [REVISION_KEY]: expectedRevision + 1,
        [FORMAT_KEY]: LEDGER_FORMAT,
        [KEYS_KEY]: keys,
        ...(session ? { [SESSION_KEY]: session } : {}),
      },
    };
  }

  // Every listed user's key pair, made once per browser (one PBKDF2 derivation per user) and kept across resets.
  function newKeys(): Promise<StoredKeys> {
    return createStoredKeys(
      USERS.map((user) => user.id),
      DEMO_PASSWORD,
      deps.keyIterations,
    );
  }

  async function initialLoad(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const stored = await storage.load();
      const empty = stored.blocks.length + stored.documents.length + stored.contentIds.length === 0;
      if (!empty && !stored.meta[KEYS_KEY]) {
        // an earlier version's ledger: keys let its users sign in, see what it holds and reset it
        await storage.commit({ meta: { [KEYS_KEY]: await newKeys() } });
        continue;
      }
      if (!empty) return setSnapshot(await toSnapshot(stored, null));
      try {
        const keys = (stored.meta[KEYS_KEY] as StoredKeys | undefined) ?? (await newKeys());
        await storage.commit(await freshWrite(storedRevision(stored.meta[REVISION_KEY]), keys, stored.meta[SESSION_KEY]));
      } catch (error) {
        if (!isConflict(error) || attempt >= WRITE_ATTEMPTS) throw error; // another tab made the genesis first
      }
    }
  }

  function ready(): Promise<void> {
    loading ??= lock(initialLoad).catch((error: unknown) => {
      loading = null; // the next call tries again
      const cause = error instanceof Error && error.name !== 'Error' ? ` (${error.name})` : '';
      throw ledgerError('StorageError', `The stored records could not be loaded${cause}.`);
    });
    return loading;
  }

  // Under the lock: another tab may have written since this one last read. True when it had.
  async function refreshIfStale(): Promise<boolean> {
    const stored = storedRevision(await storage.readMeta(REVISION_KEY));
    if (stored === current().revision) return false;
    await setSnapshot(await toSnapshot(await storage.load(), current()));
    return true;
  }

  function assertWritable(): void {
    const invalid = current().invalid;
    if (invalid) {
      const where = invalid.item ?? `block ${invalid.index}`;
      fail(
        'ReadOnlyError',
        `The stored records failed verification at ${where} (${invalid.reason}), so changes are turned off. Reset the demo data to start over.`,
      );
    }
  }

  // The time of a new block: the clock, but never before the tip (a clock moved back cannot reorder the chain).
  function clock(): number {
    const last = current().verified.state.lastTimestamp;
    return Math.max(deps.now(), last ? Date.parse(last) : -Infinity);
  }

  async function commitDraft<T>(failure: string, draft: Draft<T>): Promise<Block[]> {
    const s = current();
    const state = s.verified.state;
    const blocks: Block[] = [];
    if (!draft.records?.length && !draft.documents?.length && !draft.deleteDocuments?.length) return blocks;
    for (const record of draft.records ?? []) {
      const mined = mineBlock(blocks.at(-1) ?? s.blocks[s.blocks.length - 1], record, record.timestamp, difficulty);
      // a change must be legal where it lands; records of one change are independent of each other
      const problem = ruleProblem(state, mined, state.height + blocks.length);
      if (problem) fail('IntegrityError', `This change would break a rule of the chain: ${problem}.`);
      const key = mined.author === LEDGER_AUTHOR ? s.storedKeys?.ledger.privateKey : hooks.signingKey(mined.author);
      if (!key) fail('AccessDeniedError', MESSAGES.accessDenied);
      blocks.push(await signBlock(mined, key));
    }
    const revision = s.revision + 1;
    const write: StorageWrite = {
      expectedRevision: s.revision,
      blocks,
      documents: draft.documents,
      contents: draft.contents,
      deleteDocuments: draft.deleteDocuments,
      meta: { [REVISION_KEY]: revision },
    };
    try {
      await storage.commit(write);
    } catch (error) {
      throw isConflict(error) ? error : storageError(failure, error);
    }
    const caughtUp = s.signatures.checked === s.blocks.length;
    for (const block of blocks) {
      apply(state, block, s.blocks.length);
      s.blocks.push(block);
    }
    if (caughtUp) s.signatures.checked = s.blocks.length; // signed here, with the key that unlocked just now
    for (const row of draft.documents ?? []) s.keys.set(row.id, row.encryptionKey);
    for (const id of draft.deleteDocuments ?? []) s.keys.delete(id);
    s.revision = revision;
    hooks.stateChanged();
    return blocks;
  }

  // Every change: locked, on fresh state, due expiries first, revision-checked by storage (a lost race
  // decides again), announced after.
  async function write<T>(
    failure: string,
    decide: (snapshot: Snapshot, at: number) => Draft<T>,
    options: WriteOptions = {},
  ): Promise<T> {
    const kinds = new Set<ChangeKind>();
    const attempt = async (): Promise<T> => {
      if (await refreshIfStale()) ALL_KINDS.forEach((kind) => kinds.add(kind));
      if (!options.allowReadOnly) assertWritable();
      if (!options.skipDue && !current().invalid) {
        const due = hooks.dueRecords(current().verified.state, clock());
        if (due.length > 0) {
          await commitDraft('The end of an emergency access was not saved', { records: due, result: () => undefined });
          kindsOf(due).forEach((kind) => kinds.add(kind));
        }
      }
      const draft = decide(current(), clock());
      const blocks = await commitDraft(failure, draft);
      kindsOf(draft.records ?? []).forEach((kind) => kinds.add(kind));
      return draft.result(blocks);
    };
    try {
      return await lock(async () => {
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
      if (kinds.size > 0 && snapshot) hooks.committed({ revision: snapshot.revision, kinds: [...kinds] });
    }
  }

  // Everything stored is replaced in one write (a reset, a restore); every tab reloads all of it.
  async function replaceAll(
    failure: string,
    replacement: (expectedRevision: number, keys: StoredKeys, session: unknown) => Promise<StorageWrite>,
  ): Promise<void> {
    try {
      await lock(async () => {
        for (let tries = 1; ; tries++) {
          const expected = storedRevision(await storage.readMeta(REVISION_KEY));
          const keys = ((await storage.readMeta(KEYS_KEY)) as StoredKeys | undefined) ?? (await newKeys());
          const session = await storage.readMeta(SESSION_KEY);
          try {
            await storage.commit(await replacement(expected, keys, session));
            return setSnapshot(await toSnapshot(await storage.load(), null));
          } catch (error) {
            if (!isConflict(error)) throw storageError(failure, error);
            if (tries >= WRITE_ATTEMPTS) throw storageError(failure, error);
          }
        }
      });
    } finally {
      if (snapshot) hooks.committed({ revision: snapshot.revision, kinds: ALL_KINDS });
    }
  }

  const reset = () => replaceAll('The reset was not saved', freshWrite);

  // A restored ledger: its chain, keys and encrypted bytes, checked by the caller before (workers/ledger/portability.ts).
  // The session is not kept: its key was unlocked from this browser's keys, which the backup's replace.
  function restore({
    keys,
    ...ledger
  }: Pick<StorageWrite, 'blocks' | 'documents' | 'contents'> & { keys: StoredKeys }): Promise<void> {
    return replaceAll('The restore was not saved', async (expectedRevision) => ({
      ...ledger,
      expectedRevision,
      clear: true,
      meta: { [REVISION_KEY]: expectedRevision + 1, [FORMAT_KEY]: LEDGER_FORMAT, [KEYS_KEY]: keys },
    }));
  }

  // A backup's blocks after this chain's tip, with their files' keys and bytes, checked by the caller against this
  // ledger (workers/ledger/backup-restore.ts); keys and session stay. False, writing nothing, when the stored
  // ledger is no longer at `expectedRevision`.
  async function merge(
    expectedRevision: number,
    { blocks, documents, contents, deleteDocuments }: Pick<StorageWrite, 'blocks' | 'documents' | 'contents' | 'deleteDocuments'>,
  ): Promise<boolean> {
    let merged = false;
    try {
      await lock(async () => {
        const stored = storedRevision(await storage.readMeta(REVISION_KEY));
        if (stored !== expectedRevision || current().revision !== expectedRevision) return;
        const write = { expectedRevision, blocks, documents, contents, deleteDocuments, meta: { [REVISION_KEY]: stored + 1 } };
        try {
          await storage.commit(write);
        } catch (error) {
          if (isConflict(error)) return;
          throw storageError('The restore was not saved', error);
        }
        merged = true;
        await setSnapshot(await toSnapshot(await storage.load(), current()));
      });
    } finally {
      if (merged && snapshot) hooks.committed({ revision: snapshot.revision, kinds: kindsOf((blocks ?? []).map((b) => b.data)) });
    }
    return merged;
  }

  // Another tab changed the stored ledger: load what it wrote. True when there was something new.
  async function refresh(): Promise<boolean> {
    if (!snapshot) return false;
    return lock(refreshIfStale);
  }

  function status(): ChainStatus {
    const s = current();
    return {
      height: s.blocks.length,
      valid: !s.invalid,
      ...(s.invalid ? { firstInvalid: { ...s.invalid } } : {}),
      difficulty,
      lastBlockTime: s.blocks.at(-1)?.timestamp ?? '',
      readOnly: !!s.invalid,
      signaturesChecked: Math.min(s.signatures.checked, s.verified.state.height),
      signaturesToCheck: s.verified.state.height,
    };
  }

  // Whether block `index`'s signature holds, is being checked, or failed.
  function signatureOf(index: number): SignatureState {
    const { signatures } = current();
    if (signatures.failure?.index === index) return 'fails';
    return index < signatures.checked ? 'holds' : 'unchecked';
  }

  return {
    ready,
    current,
    state: () => current().verified.state,
    loaded: () => snapshot !== null,
    clock,
    assertWritable,
    write,
    reset,
    restore,
    merge,
    refresh,
    status,
    signatureOf,
    storedKeys: () => current().storedKeys,
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;
