// The one owner of the loaded ledger: loads and verifies the stored chain (workers/ledger/snapshot.ts), publishes
// each verified state as an immutable snapshot, keeps the check of signatures running behind it
// (signature-scheduler.ts), and hands every change to the write pipeline (writes.ts) or a replacement (replace.ts).
import type { ChainStatus, SignatureState } from '../api';
import { isOtherThanDemo } from '../core/demo-ledger';
import { ledgerError } from '../core/errors';
import { project, verifyLedger } from '../core/projection';
import {
  KEYS_KEY,
  REVISION_KEY,
  SESSION_KEY,
  storedRevision,
  type StorageWrite,
  type StoredState,
} from '../storage/ledger-storage';
import { createRemoteIntake } from './remote-intake';
import { fail, type LedgerDeps } from './deps';
import { freshWrite, newKeys, replaceAll, restoreWrite } from './replace';
import { FIRST_SIGNATURE_SLICE, checkSignatures, resumeCheck, signatureCheck, until } from './signature-scheduler';
import type { SummaryKey } from '../core/sealed-fields';
import {
  SUMMARY_KEYS_KEY,
  chainOf,
  firstHashProblem,
  genesisEnrolment,
  loadedLedger,
  verifiedBefore,
  verifiedLedger,
  type Snapshot,
} from './snapshot';
import {
  ALL_KINDS,
  createMutex,
  createWriter,
  futureTipProblem,
  isConflict,
  kindsOf,
  storageError,
  WRITE_ATTEMPTS,
} from './writes';
import type { StoreHooks } from './store-hooks';

export type { Snapshot } from './snapshot';

export type { Draft, WriteOptions } from './writes';
export { kindsOf, ALL_KINDS } from './writes';
export { offChainProblem } from './snapshot';

export function createLedgerStore(deps: LedgerDeps, hooks: StoreHooks) {
  const { storage, difficulty } = deps;
  const lock = deps.lock ?? createMutex();
  let snapshot: Snapshot | null = null;
  let loading: Promise<void> | null = null;

  function current(): Snapshot {
    return snapshot ?? fail('StorageError', 'The stored records are not loaded yet.');
  }

  // The stored ledger as a verified snapshot, its signature check started; `previous` is this tab's last one.
  // `deferHashes`: a long chain's hashes and links are checked after it is shown (checkHashesBehind).
  async function toSnapshot(stored: StoredState, previous: Snapshot | null, deferHashes = false): Promise<Snapshot> {
    const blocks = chainOf(stored, previous) ?? (await storage.load()).blocks; // the new pages did not follow on: read all
    const loaded = loadedLedger(stored, blocks, previous);
    if (loaded.oldFormat) {
      const signatures = signatureCheck(0);
      return { ...loaded.base, signatures, verified: verifyLedger([], difficulty), invalid: loaded.oldFormat };
    }
    // the earlier blocks' signatures were checked by the snapshot this one extends
    const signatures = signatureCheck(loaded.extends ? loaded.extends.signatures.checked : 0);
    const enrolment = genesisEnrolment(blocks, difficulty);
    // the blocks the check reads: this chain's newest published snapshot once shown (own writes append to it)
    const latest = () => (snapshot?.signatures === signatures ? snapshot.blocks : blocks);
    checkSignatures(signatures, latest, enrolment, loaded.base.publicKeys, deps.signatureChecker);
    const { verified, invalid, hashes } = await verifiedLedger(loaded, stored.contentIds, difficulty, deferHashes);
    if (verified.firstInvalid) signatures.limit = verified.state.height;
    return { ...loaded.base, signatures, verified, ...(invalid ? { invalid } : {}), ...(hashes ? { hashes } : {}) };
  }

  // A long chain shown before its hashes and links were checked: checks them, under the lock so nothing is
  // written on top of them first, and publishes the outcome; a failure turns the ledger read-only from that block.
  async function checkHashesBehind(): Promise<void> {
    const shown = current();
    if (!shown.hashes) return;
    const told = () => hooks.checked({ revision: shown.revision, kinds: ['signatures'] });
    const failure = await firstHashProblem(shown.blocks, difficulty, shown.hashes, told).catch((error: unknown) => ({
      index: shown.hashes?.checked ?? 0,
      reason: `the check of hashes failed (${error instanceof Error ? error.name : 'unknown error'})`,
    }));
    const { hashes: _checked, ...s } = current(); // a signature failure may have been published meanwhile
    const earlier = !failure || (s.invalid && s.invalid.index < failure.index); // at one block, a full check names this first
    if (failure && !earlier) s.signatures.limit = Math.min(s.signatures.limit, failure.index);
    publish(earlier ? s : { ...s, invalid: failure, verified: verifiedBefore(s.blocks, difficulty, failure.index) });
    hooks.stateChanged();
    hooks.checked({ revision: s.revision, kinds: earlier ? ['signatures'] : ALL_KINDS });
  }

  // After a signature failed: the ledger as verified up to that block, read-only from there; null when the
  // failure changes nothing (none yet, after a failed check of hashes or rules, or an earlier block failed).
  function withSignatureFailure(s: Snapshot): Snapshot | null {
    const { failure, limit } = s.signatures;
    if (!failure || failure.index >= limit) return null;
    if (s.invalid && s.invalid.index < failure.index) return null;
    s.signatures.limit = failure.index; // the scheduler's own state: applied once
    return { ...s, invalid: failure, verified: { state: project(s.blocks.slice(0, failure.index)), firstInvalid: failure } };
  }

  function publish(next: Snapshot): void {
    snapshot = Object.freeze(next);
  }

  // A short chain is published with every signature checked; a long one once its first slice is, the rest
  // checked in the background while the screens already show it, on every core.
  async function setSnapshot(loaded: Snapshot): Promise<void> {
    const check = loaded.signatures;
    await until(
      check,
      () => check.failure !== undefined || check.checked >= Math.min(FIRST_SIGNATURE_SLICE, loaded.blocks.length),
    );
    if (snapshot && snapshot.signatures !== check) resumeCheck(snapshot.signatures, { stopped: true });
    publish(withSignatureFailure(loaded) ?? loaded);
    resumeCheck(check, { shown: true, lanes: deps.signatureChecker?.lanes ?? 1 });
    hooks.stateChanged();
    check.progressed.add(() => {
      if (snapshot?.signatures !== check) return;
      const failed = withSignatureFailure(snapshot);
      if (!failed) return hooks.checked({ revision: snapshot.revision, kinds: ['signatures'] });
      publish(failed);
      hooks.stateChanged(); // found after the screens showed the blocks: they turn read-only
      hooks.checked({ revision: failed.revision, kinds: ALL_KINDS });
    });
  }

  // `shown`: called once the screens can read the ledger, which may be before a long chain's hashes are checked.
  async function initialLoad(shown: () => void): Promise<void> {
    await hooks.beforeLoad?.();
    for (let attempt = 1; ; attempt++) {
      const stored = await storage.load();
      const empty = stored.blocks.length + stored.documents.length + stored.contentIds.length === 0;
      if (!empty && !stored.meta[KEYS_KEY]) {
        // an earlier version's ledger: keys let its users sign in, see what it holds and reset it
        await storage.commit({ meta: { [KEYS_KEY]: await newKeys(deps) } });
        continue;
      }
      if (!empty) {
        await setSnapshot(await toSnapshot(stored, null, true));
        shown();
        return checkHashesBehind();
      }
      try {
        const revision = storedRevision(stored.meta[REVISION_KEY]);
        await storage.commit(await freshWrite(deps, revision, stored.meta[KEYS_KEY], stored.meta[SESSION_KEY]));
      } catch (error) {
        if (!isConflict(error) || attempt >= WRITE_ATTEMPTS) throw error; // another tab made the genesis first
      }
    }
  }

  // Resolves once the screens can read the ledger; the lock is held until every check of the load is done.
  function ready(): Promise<void> {
    loading ??= new Promise<void>((resolve, reject) => {
      lock(() => initialLoad(resolve)).then(resolve, (error: unknown) => {
        loading = null; // the next call tries again
        const cause = error instanceof Error && error.name !== 'Error' ? ` (${error.name})` : '';
        reject(ledgerError('StorageError', `The stored records could not be loaded${cause}.`));
      });
    });
    return loading;
  }

  // Under the lock: another tab may have written since this one last read. Reads only the pages from this
  // tab's tip on (the whole ledger when they do not follow on). True when it had written.
  async function refreshIfStale(): Promise<boolean> {
    const stored = storedRevision(await storage.readMeta(REVISION_KEY));
    if (stored === current().revision) return false;
    const s = current();
    const from = s.invalid ? 0 : Math.max(0, s.blocks.length - 1); // the tip again, to check the link
    await setSnapshot(await toSnapshot(await storage.load(from), s));
    return true;
  }

  // After this tab wrote blocks past the tip of `s`: the pages from that tip on (to check the link), verified.
  async function reloadFrom(s: Snapshot): Promise<void> {
    await setSnapshot(await toSnapshot(await storage.load(Math.max(0, s.blocks.length - 1)), s));
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

  const writer = createWriter(deps, hooks, {
    current,
    loaded: () => snapshot !== null,
    publish,
    refreshIfStale,
    assertWritable,
    lock,
  });

  // what another device sends: its blocks, and the files' bytes and keys that follow them
  const intake = createRemoteIntake(deps, hooks, {
    ready,
    current,
    publish,
    refreshIfStale,
    lock,
    reloadFrom,
  });

  // Everything stored is replaced in one write (a reset, a restore); every tab reloads all of it.
  async function replace(failure: string, replacement: Parameters<typeof replaceAll>[3]): Promise<void> {
    try {
      await replaceAll(deps, lock, failure, replacement, async () => setSnapshot(await toSnapshot(await storage.load(), null)));
    } finally {
      if (snapshot) hooks.committed({ revision: snapshot.revision, kinds: ALL_KINDS });
    }
  }

  // A backup's blocks after this chain's tip, with their files' keys and bytes, checked by the caller against this
  // ledger (workers/ledger/backup-restore.ts); keys and session stay. False, writing nothing, when the stored
  // ledger is no longer at `expectedRevision`.
  async function merge(
    expectedRevision: number,
    {
      blocks,
      documents,
      contents,
      deleteDocuments,
      summaryKeys = [],
    }: Pick<StorageWrite, 'blocks' | 'documents' | 'contents' | 'deleteDocuments'> & { summaryKeys?: SummaryKey[] },
  ): Promise<boolean> {
    let merged = false;
    try {
      await lock(async () => {
        const stored = storedRevision(await storage.readMeta(REVISION_KEY));
        if (stored !== expectedRevision || current().revision !== expectedRevision) return;
        const held = new Map(current().summaryKeys);
        for (const key of summaryKeys) held.set(key.epochId, key);
        const meta = { [REVISION_KEY]: stored + 1, [SUMMARY_KEYS_KEY]: [...held.values()] };
        const write = { expectedRevision, blocks, documents, contents, deleteDocuments, meta };
        try {
          await storage.commit(write);
        } catch (error) {
          if (isConflict(error)) return;
          throw storageError('The restore was not saved', error);
        }
        merged = true;
        await reloadFrom(current());
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
    const ahead = futureTipProblem(s.verified.state, deps.now());
    return {
      height: s.blocks.length,
      valid: !s.invalid,
      ...(s.invalid ? { firstInvalid: { ...s.invalid } } : {}),
      difficulty,
      lastBlockTime: s.blocks.at(-1)?.timestamp ?? '',
      readOnly: !!s.invalid || ahead !== null,
      ...(ahead ? { futureTip: ahead } : {}),
      signaturesChecked: Math.min(s.signatures.checked, s.verified.state.height),
      signaturesToCheck: s.verified.state.height,
      hashesChecked: s.hashes ? s.hashes.checked : s.blocks.length,
      ...(isOtherThanDemo(s.blocks[0], deps.demoLedger) ? { ownLedger: true as const } : {}),
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
    clock: () => deps.now(), // access is decided by the device clock; only new blocks' times never go back
    assertWritable,
    write: writer.write,
    reset: () => replace('The reset was not saved', (expected, keys, session) => freshWrite(deps, expected, keys, session)),
    restore: (ledger: Parameters<typeof restoreWrite>[0]) => replace('The restore was not saved', restoreWrite(ledger)),
    merge,
    ...intake,
    refresh,
    status,
    signatureOf,
    storedKeys: () => current().storedKeys,
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;
