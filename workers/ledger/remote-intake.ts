// What another device sends through the sync module (workers/sync/): its blocks, merged with the same checks the
// server runs (workers/core/merge.ts), and the files' bytes and keys that follow them. A part of the store
// (workers/ledger/store.ts): every change is made under its lock, from its newest snapshot.
import type { ChangeKind } from '../api';
import { contentId } from '../core/documents';
import { mergeBlocks, type MergeOutcome } from '../core/merge';
import type { SummaryKey } from '../core/sealed-fields';
import { REVISION_KEY, type StorageWrite } from '../storage/ledger-storage';
import type { RemoteMerge } from '../sync/sync-ports';
import { fail, type LedgerDeps } from './deps';
import { AWAITING_KEY, SUMMARY_KEYS_KEY, type Snapshot } from './snapshot';
import { fileLabel } from './views';
import { ALL_KINDS, isConflict, kindsOf, storageError, WRITE_ATTEMPTS, type WriterHooks, type WriterStore } from './writes';

export interface IntakeStore extends Pick<WriterStore, 'current' | 'publish' | 'refreshIfStale' | 'lock'> {
  ready: () => Promise<void>;
  reloadFrom: (s: Snapshot) => Promise<void>; // reads the pages from the tip of `s` on and publishes them verified
}

export function createRemoteIntake(deps: LedgerDeps, hooks: Pick<WriterHooks, 'committed' | 'stateChanged'>, store: IntakeStore) {
  const { storage, difficulty } = deps;
  const { current, publish, refreshIfStale, lock } = store;

  // One small write from the newest snapshot, under the lock: `change` returns the write and the snapshot it
  // publishes, or null to write nothing. True when it wrote.
  async function commitUnderLock(
    change: (s: Snapshot, revision: number) => Promise<{ write: Omit<StorageWrite, 'expectedRevision'>; next: Snapshot } | null>,
  ): Promise<boolean> {
    await store.ready();
    let added = false;
    await lock(async () => {
      await refreshIfStale();
      const s = current();
      const changed = await change(s, s.revision + 1);
      if (!changed) return;
      await storage.commit({ ...changed.write, expectedRevision: s.revision });
      publish(changed.next);
      added = true;
    });
    if (added) hooks.committed({ revision: current().revision, kinds: ['records'] });
    return added;
  }

  // Blocks another device wrote: only verified blocks are stored, nothing held is dropped. Their files' keys and
  // bytes follow (addRemoteContent); until then those files are awaited, not missing.
  async function mergeRemote(incoming: readonly unknown[]): Promise<RemoteMerge> {
    await store.ready();
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
            now: deps.now(),
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
          } else await store.reloadFrom(s);
          return { added: outcome.added.length, refused: outcome.refused, waiting: outcome.waiting };
        }
      });
    } finally {
      if (kinds.length > 0) hooks.committed({ revision: current().revision, kinds });
    }
  }

  // A file's encrypted bytes (and, when it came too, its key), checked against the content id the chain names for
  // it. False when no live document of the chain is this one.
  async function addRemoteContent(documentId: string, bytes: ArrayBuffer, encryptionKey?: string): Promise<boolean> {
    await store.ready();
    const document = current().verified.state.documents.get(documentId);
    if (!document || document.deletedAt) return false;
    if ((await contentId(bytes)) !== document.ipfsHash)
      fail('IntegrityError', `The bytes of ${fileLabel(document)} from another device do not match its content id.`);
    return commitUnderLock(async (s, revision) => {
      const awaiting = new Set(s.awaiting);
      if (encryptionKey ?? s.keys.get(documentId)) awaiting.delete(documentId);
      const keys = encryptionKey ? new Map(s.keys).set(documentId, encryptionKey) : s.keys;
      const write = {
        contents: [{ id: documentId, bytes }],
        ...(encryptionKey ? { documents: [{ id: documentId, encryptionKey }] } : {}),
        meta: { [REVISION_KEY]: revision, [AWAITING_KEY]: [...awaiting] },
      };
      return { write, next: { ...s, keys, awaiting, revision } };
    });
  }

  // A file's key, unwrapped for the signed-in user (workers/ledger/key-sharing.ts, which checks it opens the file's
  // bytes). False when no live document of the chain is this one, or its key is already held.
  async function addRemoteKey(documentId: string, encryptionKey: string): Promise<boolean> {
    if (!/^[0-9a-f]{64}$/.test(encryptionKey)) fail('ValidationError', 'A document key is 64 hex digits.');
    return commitUnderLock(async (s, revision) => {
      const document = s.verified.state.documents.get(documentId);
      if (!document || document.deletedAt || s.keys.has(documentId)) return null;
      const awaiting = new Set(s.awaiting);
      if (await storage.readContent(documentId)) awaiting.delete(documentId);
      const write = {
        documents: [{ id: documentId, encryptionKey }],
        meta: { [REVISION_KEY]: revision, [AWAITING_KEY]: [...awaiting] },
      };
      return { write, next: { ...s, keys: new Map(s.keys).set(documentId, encryptionKey), awaiting, revision } };
    });
  }

  // A summary key wrapped to the signed-in user, checked against its epoch by the caller; stored only when its
  // patient announced that epoch. True when it was new.
  async function addSummaryKey(summary: SummaryKey): Promise<boolean> {
    return commitUnderLock(async (s, revision) => {
      const epochs = s.verified.state.summaryEpochs.get(summary.patientId) ?? [];
      if (s.summaryKeys.has(summary.epochId) || !epochs.some((epoch) => epoch.epochId === summary.epochId)) return null;
      const summaryKeys = new Map(s.summaryKeys).set(summary.epochId, summary);
      const write = { meta: { [REVISION_KEY]: revision, [SUMMARY_KEYS_KEY]: [...summaryKeys.values()] } };
      return { write, next: { ...s, summaryKeys, revision } };
    });
  }

  return { mergeRemote, addRemoteContent, addRemoteKey, addSummaryKey };
}
