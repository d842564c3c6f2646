// The one owner of the loaded ledger: loads and verifies the stored chain (workers/ledger/snapshot.ts), publishes
// each verified state as an immutable snapshot, keeps the check of signatures running behind it
// (signature-scheduler.ts), and hands every change to the write pipeline (writes.ts) or a replacement (replace.ts).
import type { ChainStatus, ChangeKind, SignatureState } from '../api';
import { contentId } from '../core/documents';
import { ledgerError } from '../core/errors';
import { mergeBlocks, type MergeOutcome, type RefusedBlockReport } from '../core/merge';
import { project, verifyLedger } from '../core/projection';
import {
  KEYS_KEY,
  REVISION_KEY,
  SESSION_KEY,
  storedRevision,
  type StorageWrite,
  type StoredState,
} from '../storage/ledger-storage';
import { fileLabel } from './views';
import { fail, type LedgerDeps } from './deps';
import { freshWrite, keysToKeep, newKeys, replaceAll, restoreWrite } from './replace';
import { FIRST_SIGNATURE_SLICE, checkSignatures, signatureCheck, until } from './signature-scheduler';
import type { SummaryKey } from '../core/sealed-fields';
import { AWAITING_KEY, SUMMARY_KEYS_KEY, chainOf, loadedLedger, verifiedLedger, type Snapshot } from './snapshot';
import {
  ALL_KINDS,
  createMutex,
  createWriter,
  futureTipProblem,
  isConflict,
  kindsOf,
  storageError,
  WRITE_ATTEMPTS,
  type WriterHooks,
} from './writes';

export type { Snapshot } from './snapshot';

// What a merge of another device's blocks did.
export interface RemoteMerge {
  added: number;
  refused: RefusedBlockReport[];
  waiting: unknown[]; // blocks naming a head not held yet: offer them again with the next ones
  notMerged?: string; // why nothing could be merged
}
export type { Draft, WriteOptions } from './writes';
export { kindsOf, ALL_KINDS } from './writes';
export { offChainProblem } from './snapshot';

export interface StoreHooks extends WriterHooks {
  checked: (change: { revision: number; kinds: ChangeKind[] }) => void; // this tab's screens only: signature progress
}

export function createLedgerStore(deps: LedgerDeps, hooks: StoreHooks) {
  const { storage, difficulty } = deps;
  const lock = deps.lock ?? createMutex();
  let snapshot: Snapshot | null = null;
  let loading: Promise<void> | null = null;

  function current(): Snapshot {
    return snapshot ?? fail('StorageError', 'The stored records are not loaded yet.');
  }

  // The stored ledger as a verified snapshot, its signature check started; `previous` is this tab's last one.
  async function toSnapshot(stored: StoredState, previous: Snapshot | null): Promise<Snapshot> {
    const blocks = chainOf(stored, previous) ?? (await storage.load()).blocks; // the new pages did not follow on: read all
    const loaded = loadedLedger(stored, blocks, previous);
    if (loaded.oldFormat) {
      const signatures = signatureCheck(0);
      return { ...loaded.base, signatures, verified: verifyLedger([], difficulty), invalid: loaded.oldFormat };
    }
    // the earlier blocks' signatures were checked by the snapshot this one extends
    const signatures = signatureCheck(loaded.extends ? loaded.extends.signatures.checked : 0);
    const genesis = verifyLedger(blocks, difficulty, undefined, 1); // the enrolled keys, if block 0 holds
    const enrolment = genesis.firstInvalid ? null : genesis.state.enrolment;
    // the blocks the check reads: this chain's newest published snapshot once shown (own writes append to it)
    const latest = () => (snapshot?.signatures === signatures ? snapshot.blocks : blocks);
    checkSignatures(signatures, latest, enrolment, loaded.base.publicKeys, deps.signatureChecker);
    const { verified, invalid } = await verifiedLedger(loaded, stored.contentIds, difficulty);
    if (verified.firstInvalid) signatures.limit = verified.state.height;
    return { ...loaded.base, signatures, verified, ...(invalid ? { invalid } : {}) };
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
    if (snapshot && snapshot.signatures !== check) snapshot.signatures.stopped = true;
    publish(withSignatureFailure(loaded) ?? loaded);
    check.lanes = deps.signatureChecker?.lanes ?? 1;
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

  async function initialLoad(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const stored = await storage.load();
      const empty = stored.blocks.length + stored.documents.length + stored.contentIds.length === 0;
      if (!empty && !stored.meta[KEYS_KEY]) {
        // an earlier version's ledger: keys let its users sign in, see what it holds and reset it
        await storage.commit({ meta: { [KEYS_KEY]: await newKeys(deps) } });
        continue;
      }
      if (!empty) return setSnapshot(await toSnapshot(stored, null));
      try {
        const keys = await keysToKeep(deps, stored.meta[KEYS_KEY]);
        await storage.commit(await freshWrite(deps, storedRevision(stored.meta[REVISION_KEY]), keys, stored.meta[SESSION_KEY]));
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
        const s = current();
        await setSnapshot(await toSnapshot(await storage.load(Math.max(0, s.blocks.length - 1)), s));
      });
    } finally {
      if (merged && snapshot) hooks.committed({ revision: snapshot.revision, kinds: kindsOf((blocks ?? []).map((b) => b.data)) });
    }
    return merged;
  }

  // Blocks another device wrote (through the sync module), merged with the same checks the server runs
  // (workers/core/merge.ts): only verified blocks are stored, nothing held is dropped. Their files' keys and bytes
  // follow (addRemoteContent); until then those files are awaited, not missing.
  async function mergeRemote(incoming: readonly unknown[]): Promise<RemoteMerge> {
    await ready();
    let outcome: MergeOutcome | null = null;
    let kinds: ChangeKind[] = [];
    try {
      return await lock(async () => {
        for (let tries = 1; ; tries++) {
          await refreshIfStale();
          const s = current();
          if (s.invalid)
            return {
              added: 0,
              refused: [],
              waiting: [...incoming],
              notMerged: 'this device’s stored records failed verification',
            };
          outcome = await mergeBlocks(s.blocks, incoming, {
            difficulty,
            publicKeys: s.publicKeys,
            heldState: s.verified.state,
            checker: deps.signatureChecker,
          });
          if (outcome.added.length === 0) return { added: 0, refused: outcome.refused, waiting: outcome.waiting };
          const before = s.verified.state;
          const after = outcome.state;
          const awaiting = new Set(s.awaiting);
          const deleteDocuments: string[] = [];
          for (const document of after.documents.values()) {
            const held = before.documents.get(document.id);
            if (!held && !document.deletedAt) awaiting.add(document.id);
            if (held && !held.deletedAt && document.deletedAt) deleteDocuments.push(document.id);
            if (document.deletedAt) awaiting.delete(document.id);
          }
          const revision = s.revision + 1;
          try {
            await storage.commit({
              expectedRevision: s.revision,
              blocks: outcome.blocks.slice(outcome.firstChanged),
              deleteDocuments,
              meta: { [REVISION_KEY]: revision, [AWAITING_KEY]: [...awaiting] },
            });
          } catch (error) {
            if (isConflict(error) && tries < WRITE_ATTEMPTS) continue;
            throw storageError('The records from your other devices were not saved', error);
          }
          kinds = kindsOf(outcome.added.map((block) => block.data));
          if (outcome.firstChanged < s.blocks.length) kinds = ALL_KINDS; // blocks moved: every screen reads again
          if (outcome.firstChanged === s.blocks.length && s.signatures.checked === s.blocks.length) {
            // appended to a ledger whose signatures all held, each new block verified by the merge: as an own write
            // publishes, with nothing read back or checked twice
            const keys = new Map(s.keys);
            for (const id of deleteDocuments) keys.delete(id);
            s.signatures.checked = outcome.blocks.length;
            publish({ ...s, blocks: outcome.blocks, verified: { state: outcome.state }, keys, awaiting, revision });
            hooks.stateChanged();
          } else await setSnapshot(await toSnapshot(await storage.load(Math.max(0, s.blocks.length - 1)), s));
          return { added: outcome.added.length, refused: outcome.refused, waiting: outcome.waiting };
        }
      });
    } finally {
      if (kinds.length > 0 && snapshot) hooks.committed({ revision: snapshot.revision, kinds });
    }
  }

  // A file's encrypted bytes (and, when it came too, its key) from another device, checked against the content
  // id the chain names for it. False when no live document of the chain is this one.
  async function addRemoteContent(documentId: string, bytes: ArrayBuffer, encryptionKey?: string): Promise<boolean> {
    await ready();
    const document = current().verified.state.documents.get(documentId);
    if (!document || document.deletedAt) return false;
    if ((await contentId(bytes)) !== document.ipfsHash)
      fail('IntegrityError', `The bytes of ${fileLabel(document)} from another device do not match its content id.`);
    let added = false;
    await lock(async () => {
      await refreshIfStale();
      const s = current();
      const awaiting = new Set(s.awaiting);
      const key = encryptionKey ?? s.keys.get(documentId);
      if (key) awaiting.delete(documentId);
      const revision = s.revision + 1;
      await storage.commit({
        expectedRevision: s.revision,
        contents: [{ id: documentId, bytes }],
        ...(encryptionKey ? { documents: [{ id: documentId, encryptionKey }] } : {}),
        meta: { [REVISION_KEY]: revision, [AWAITING_KEY]: [...awaiting] },
      });
      const keys = new Map(s.keys);
      if (encryptionKey) keys.set(documentId, encryptionKey);
      publish({ ...s, keys, awaiting, revision });
      added = true;
    });
    if (added && snapshot) hooks.committed({ revision: snapshot.revision, kinds: ['records'] });
    return added;
  }

  // A file's key from another device, unwrapped for the signed-in user (workers/ledger/key-sharing.ts, which checks
  // it opens the file's bytes). False when no live document of the chain is this one, or its key is already held.
  async function addRemoteKey(documentId: string, encryptionKey: string): Promise<boolean> {
    await ready();
    if (!/^[0-9a-f]{64}$/.test(encryptionKey)) fail('ValidationError', 'A document key is 64 hex digits.');
    let added = false;
    await lock(async () => {
      await refreshIfStale();
      const s = current();
      const document = s.verified.state.documents.get(documentId);
      if (!document || document.deletedAt || s.keys.has(documentId)) return;
      const awaiting = new Set(s.awaiting);
      if (await storage.readContent(documentId)) awaiting.delete(documentId);
      const revision = s.revision + 1;
      await storage.commit({
        expectedRevision: s.revision,
        documents: [{ id: documentId, encryptionKey }],
        meta: { [REVISION_KEY]: revision, [AWAITING_KEY]: [...awaiting] },
      });
      publish({ ...s, keys: new Map(s.keys).set(documentId, encryptionKey), awaiting, revision });
      added = true;
    });
    if (added && snapshot) hooks.committed({ revision: snapshot.revision, kinds: ['records'] });
    return added;
  }

  // A summary key another device wrapped to the signed-in user, checked against its epoch by the caller; stored
  // only when its patient announced that epoch. True when it was new.
  async function addSummaryKey(summary: SummaryKey): Promise<boolean> {
    await ready();
    let added = false;
    await lock(async () => {
      await refreshIfStale();
      const s = current();
      const epochs = s.verified.state.summaryEpochs.get(summary.patientId) ?? [];
      if (s.summaryKeys.has(summary.epochId) || !epochs.some((epoch) => epoch.epochId === summary.epochId)) return;
      const summaryKeys = new Map(s.summaryKeys).set(summary.epochId, summary);
      const revision = s.revision + 1;
      await storage.commit({
        expectedRevision: s.revision,
        meta: { [REVISION_KEY]: revision, [SUMMARY_KEYS_KEY]: [...summaryKeys.values()] },
      });
      publish({ ...s, summaryKeys, revision });
      added = true;
    });
    if (added && snapshot) hooks.committed({ revision: snapshot.revision, kinds: ['records'] });
    return added;
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
    mergeRemote,
    addRemoteContent,
    addRemoteKey,
    addSummaryKey,
    refresh,
    status,
    signatureOf,
    storedKeys: () => current().storedKeys,
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;
