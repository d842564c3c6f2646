// The encrypted backup and its restore (docs/decisions/backup-file.md, restore-merges.md): a backup holds what its
// maker may read, or the whole browser (patients only); a restore adds what this ledger lacks and drops nothing, or
// replaces a new browser's untouched ledger. The CAR code is imported only when one of these runs.
import type { LedgerCounts, LedgerService, RestorePlan } from '../api';
import { canSeeRecord, documentAccess, requireRole } from '../core/access';
import type { BackupScope } from '../api';
import type { BackupContents, BackupKeys } from '../core/backup-file';
import { BACKUP_ITERATIONS, MIN_BACKUP_PASSWORD_LENGTH } from '../core/constants';
import { findUser } from '../core/directory';
import { contentId, storedSize } from '../core/documents';
import { iso } from '../core/ledger-records';
import { mergeBlocks } from '../core/merge';
import { verifyLedger, type LedgerState } from '../core/projection';
import { summaryKeysOfEpochs, type SummaryKey } from '../core/sealed-fields';
import { exportKeys, firstSignatureFailure, importKeys, type StoredKeys } from '../core/signatures';
import type { Block, DocumentInfo, DocumentKey, User } from '../core/types';
import { isArrayBuffer } from '../core/upload-request';
import { fileLabel } from './views';
import { fail, nextTask, type LedgerDeps } from './deps';
import { offChainProblem, type LedgerStore, type Snapshot } from './store';
import { fileOf, type TransferJobs } from './transfer-jobs';
import { grantsOf, isClinical, sharesOf } from './views';

type BackupFile = typeof import('../core/backup-file');
type Opened = BackupContents & { documentIds: string[]; car: Map<string, Uint8Array> };
// What a restore would write, and what it adds.
type Planned = Pick<PendingRestore, 'blocks' | 'documents' | 'contents' | 'deleteDocuments'> & { adds: LedgerCounts };

// The summary keys a backup of `scope` made by `signedIn` carries: all of them for the whole browser, else a patient's
// own and those of the epochs the records they may read are sealed under.
function summaryKeysFor(snapshot: Snapshot, signedIn: User, scope: BackupScope): SummaryKey[] {
  if (scope === 'browser') return [...snapshot.summaryKeys.values()];
  const epochs = new Set<string>();
  for (const { data } of snapshot.blocks)
    if ('files' in data && data.sealed && canSeeRecord(signedIn, data)) epochs.add(data.sealed.key);
  return [...snapshot.summaryKeys.values()].filter((key) => key.patientId === signedIn.id || epochs.has(key.epochId));
}

const NOTHING: LedgerCounts = { blocks: 0, records: 0, files: 0, accessEvents: 0 };
const HEX_KEY = /^[0-9a-f]{64}$/;
const CHANGED = 'The records changed since the backup was checked: choose the file again.';

interface PendingRestore {
  id: string;
  mode: RestorePlan['mode'];
  revision: number; // this ledger's stored revision when the plan was checked
  blocks: Block[];
  documents: DocumentKey[];
  contents: { id: string; bytes: ArrayBuffer }[];
  deleteDocuments: string[];
  keys?: StoredKeys; // a replacement's keys, matched against its chain's enrolment
  summaryKeys: SummaryKey[]; // the backup's summary keys, each checked against its epoch
}

function countsOf(state: LedgerState, height: number, liveFiles: number): LedgerCounts {
  let records = 0;
  for (const entries of state.records.values()) records += entries.filter(isClinical).length;
  let accessEvents = 0;
  for (const { reads } of state.grants.values()) accessEvents += 1 + reads.length;
  for (const { reads } of state.shares.values()) accessEvents += 1 + reads.length;
  return { blocks: height, records, files: liveFiles, accessEvents };
}

function liveDocuments(state: LedgerState) {
  return [...state.documents.values()].filter((document) => !document.deletedAt);
}

function refused(reason: string): never {
  fail('ValidationError', `${reason} Nothing was changed.`);
}

// The fields of a block, and nothing else a file may have added to them.
function blockOf({ id, hash, previousHash, heads, timestamp, dataHash, data, nonce, author, signature }: Block): Block {
  return {
    id,
    hash,
    previousHash,
    ...(heads !== undefined ? { heads } : {}),
    timestamp,
    dataHash,
    data,
    nonce,
    author,
    signature,
  };
}

export function createBackupRestore(
  deps: LedgerDeps,
  store: LedgerStore,
  enter: () => Promise<User>,
  signOut: () => Promise<void>,
  transfers: TransferJobs,
) {
  const { jobs, startJob, progressOf } = transfers;
  const iterations = deps.backupIterations ?? BACKUP_ITERATIONS;
  let pendingRestore: PendingRestore | null = null;

  function mayRead(actor: User, document: DocumentInfo, state: LedgerState, at: number): boolean {
    try {
      documentAccess(actor, document, grantsOf(state), at, sharesOf(state));
      return true;
    } catch {
      return false;
    }
  }

  // The bytes and keys of `documents` from the backup, each checked against its content id.
  async function filesOf(backup: BackupFile, opened: Opened, documents: DocumentInfo[]) {
    const contents: { id: string; bytes: ArrayBuffer }[] = [];
    const keys: DocumentKey[] = [];
    for (const document of documents) {
      const key = opened.keys[document.id];
      if (typeof key !== 'string' || !HEX_KEY.test(key)) refused(`The backup does not hold the key of ${fileLabel(document)}.`);
      const limit = { fileName: document.fileName, maxBytes: storedSize(document.fileSize), nextTask };
      const bytes = await backup.assembleDocument(document.ipfsHash, opened.car, limit);
      if ((await contentId(bytes)) !== document.ipfsHash)
        refused(`The backup's bytes of ${fileLabel(document)} do not match its content id.`);
      contents.push({ id: document.id, bytes: bytes.slice().buffer });
      keys.push({ id: document.id, encryptionKey: key });
    }
    return { contents, keys };
  }

  // The same ledger: the backup's blocks this browser lacks are merged with it, checked with this ledger's rules and
  // enrolled keys (workers/core/merge.ts); a backup that went separate ways merges too, both sides kept.
  async function mergePlan(backup: BackupFile, opened: Opened, current: Snapshot): Promise<Planned> {
    const mine = current.blocks;
    const theirs = opened.blocks;
    const before = current.verified.state;
    const held = new Set(mine.map((block) => block.hash));
    const nothing = { blocks: [], documents: [], contents: [], deleteDocuments: [] };
    const missing = theirs.flatMap((block, index) => (held.has(block.hash) ? [] : [{ block, index }]));
    if (missing.length === 0) return { ...nothing, adds: NOTHING }; // this browser holds all of it already
    const incoming = missing.map(({ block, index }) => {
      if (backup.isOpaque(block)) {
        refused(
          `This backup leaves out block ${index}, a record this browser lacks: it can only be restored in a browser that holds it.`,
        );
      }
      return blockOf(block);
    });
    const merged = await mergeBlocks(mine, incoming, { difficulty: deps.difficulty, heldState: before });
    const problem = merged.refused[0];
    if (problem) {
      const index = theirs.findIndex((block) => block.hash === problem.hash);
      const verb = problem.reason.startsWith('signature') ? 'fails verification' : 'breaks a rule of this ledger';
      refused(`The backup's block ${index} ${verb} (${problem.reason}).`);
    }
    if (merged.waiting.length > 0) refused(`The backup's block ${merged.waiting[0].id} names a block neither holds.`);
    const added = merged.added;
    const after = merged.state;
    const arriving = liveDocuments(after).filter((document) => !before.documents.has(document.id));
    const deleteDocuments = liveDocuments(before)
      .filter((document) => after.documents.get(document.id)?.deletedAt !== undefined)
      .map((document) => document.id);
    const { contents, keys } = await filesOf(backup, opened, arriving);
    const was = countsOf(before, mine.length, 0);
    const will = countsOf(after, mine.length + added.length, 0);
    const adds = {
      blocks: added.length,
      records: will.records - was.records,
      files: arriving.length,
      accessEvents: will.accessEvents - was.accessEvents,
    };
    return { blocks: merged.blocks.slice(merged.firstChanged), documents: keys, contents, deleteDocuments, adds };
  }

  // Another ledger: it may only replace a new browser's untouched ledger, and only as a whole-browser backup.
  async function replacePlan(backup: BackupFile, opened: Opened, current: Snapshot): Promise<Planned & { keys: StoredKeys }> {
    if (current.blocks.length !== 1 || current.keys.size > 0 || current.verified.state.documents.size > 0) {
      refused(
        'This backup is of another MedLedger ledger. This browser holds records of its own, and a restore never replaces them: back up this browser, then reset it before restoring.',
      );
    }
    if (opened.scope !== 'browser') {
      refused(
        "This backup holds one person's records and key, not the other accounts' keys and records a new ledger needs: only a backup of a whole browser can start this browser over.",
      );
    }
    const blocks = opened.blocks.map((block, i) => {
      if (backup.isOpaque(block)) refused(`The backup's chain fails verification at block ${i} (its record is left out).`);
      return blockOf(block);
    });
    const verified = verifyLedger(blocks, deps.difficulty);
    if (verified.firstInvalid) {
      const { index, reason } = verified.firstInvalid;
      fail('ValidationError', `The backup's chain fails verification at block ${index} (${reason}). Nothing was replaced.`);
    }
    const state = verified.state;
    const enrolment = state.enrolment;
    if (!enrolment) fail('ValidationError', "The backup's chain enrols no signing keys. Nothing was replaced.");
    const badSignature = await firstSignatureFailure(blocks, enrolment, new Map());
    if (badSignature) {
      fail(
        'ValidationError',
        `The backup's chain fails verification at block ${badSignature.offset} (${badSignature.reason}). Nothing was replaced.`,
      );
    }
    for (const [id, key] of Object.entries(opened.signingKeys.users)) {
      const rounds = (key as Partial<typeof key> | null)?.iterations;
      if (typeof rounds === 'number' && rounds >= deps.keyIterations) continue;
      refused(
        `A restore never weakens how a key is protected: the backup's key of ${findUser(id)?.name ?? id} is wrapped with ${String(rounds)} PBKDF2 rounds, fewer than the ${deps.keyIterations} this browser uses.`,
      );
    }
    const { ledger } = opened.signingKeys;
    const keys = ledger ? await importKeys({ ...opened.signingKeys, ledger }, enrolment) : null;
    if (!keys) fail('ValidationError', "The backup's keys are not the ones its chain enrols. Nothing was replaced.");
    const live = liveDocuments(state);
    const ids = live.map((document) => document.ipfsHash).sort();
    if (opened.documentIds.length !== ids.length || [...opened.documentIds].sort().join() !== ids.join()) {
      fail(
        'ValidationError',
        "The backup file is damaged or incomplete: its list of documents differs from its chain's. Nothing was replaced.",
      );
    }
    const files = await filesOf(backup, opened, live);
    const stored = new Map(Object.entries(opened.keys).filter(([, key]) => typeof key === 'string'));
    const problem = offChainProblem(
      state,
      stored,
      files.contents.map(({ id }) => id),
    );
    if (problem) {
      fail(
        'ValidationError',
        `The backup does not match its chain: ${problem.item ?? `block ${problem.index}`}, ${problem.reason}. Nothing was replaced.`,
      );
    }
    const adds = countsOf(state, blocks.length, live.length);
    return { blocks, documents: files.keys, contents: files.contents, deleteDocuments: [], adds, keys };
  }

  const api: Pick<LedgerService, 'downloadBackup' | 'prepareRestore' | 'confirmRestore'> = {
    async downloadBackup(jobId, password, scope, onProgress) {
      const signedIn = await enter();
      if (scope !== 'mine' && scope !== 'browser')
        fail('ValidationError', 'Choose what to back up: your records, or this whole browser.');
      if (scope === 'browser') requireRole(signedIn, 'patient'); // a doctor holds no right to every patient's records
      if (typeof password !== 'string' || [...password].length < MIN_BACKUP_PASSWORD_LENGTH) {
        fail('ValidationError', `Choose a backup password of at least ${MIN_BACKUP_PASSWORD_LENGTH} characters.`);
      }
      store.assertWritable(); // a ledger that failed verification would not restore
      startJob(jobId);
      try {
        const backup = await import('../core/backup-file');
        const snapshot = store.current();
        const state = snapshot.verified.state;
        const at = store.clock();
        const documents = liveDocuments(state).filter(
          (document) => scope === 'browser' || mayRead(signedIn, document, state, at),
        );
        const arriving = documents.filter((document) => snapshot.awaiting.has(document.id));
        if (arriving.length > 0) {
          const names = arriving.map((document) => fileLabel(document)).join(', ');
          const [files, they] =
            arriving.length === 1 ? ['A file has', 'it arrives'] : [`${arriving.length} files have`, 'they arrive'];
          fail(
            'ValidationError',
            `${files} not reached this device yet (${names}): connect to the sync server and wait until ${they}, then back up.`,
          );
        }
        const keys = Object.fromEntries(documents.map((document) => [document.id, snapshot.keys.get(document.id) ?? '']));
        const createdAt = iso(at);
        const storedKeys = store.storedKeys();
        if (!storedKeys) fail('IntegrityError', 'The signing keys of this browser are missing: the backup cannot carry them.');
        const own = storedKeys.users[signedIn.id];
        const signingKeys: BackupKeys =
          scope === 'browser'
            ? await exportKeys(storedKeys)
            : { algorithm: storedKeys.algorithm, users: own ? { [signedIn.id]: own } : {} };
        const blocks =
          scope === 'browser'
            ? snapshot.blocks.slice()
            : snapshot.blocks.map((block) => (canSeeRecord(signedIn, block.data) ? block : backup.opaqueBlock(block)));
        const summaryKeys = summaryKeysFor(snapshot, signedIn, scope);
        const header = await backup.sealContents(
          { scope, blocks, keys, signingKeys, summaryKeys },
          password,
          iterations,
          createdAt,
        );
        const writer = backup.createBackupWriter(
          await backup.headerBlock(header),
          documents.map((document) => document.ipfsHash),
        );
        const step = progressOf(jobId, documents.length, onProgress);
        for (const document of documents) {
          const stored = await deps.storage.readContent(document.id);
          if (!stored) fail('IntegrityError', `The stored bytes of ${fileLabel(document)} are missing.`);
          await writer.addDocument(new Uint8Array(stored), document.ipfsHash);
          if (!(await step(1, stored.byteLength))) return null;
        }
        const name = scope === 'browser' ? 'medledger-browser-backup' : `medledger-backup-${signedIn.id}`;
        return fileOf(`${name}-${createdAt.slice(0, 10)}.car`, 'application/vnd.ipld.car', await writer.finish());
      } finally {
        jobs.delete(jobId);
      }
    },

    async prepareRestore(file, password) {
      await enter(); // patients and doctors: a merge adds only blocks this ledger's keys signed
      pendingRestore = null;
      if (!isArrayBuffer(file)) fail('ValidationError', 'The file could not be read.');
      if (typeof password !== 'string' || password === '') fail('ValidationError', 'Enter the password of the backup.');
      await store.refresh(); // another tab's blocks are part of what this browser holds
      store.assertWritable();
      const backup = await import('../core/backup-file');
      const { header, blocks: car, documentIds } = await backup.readBackupFile(new Uint8Array(file));
      const opened: Opened = { ...(await backup.openContents(header, password)), documentIds, car };
      if (opened.blocks.length === 0)
        fail('ValidationError', "The backup's chain fails verification at its start (it holds no blocks). Nothing was replaced.");
      const broken = backup.backupChainProblem(opened.blocks, deps.difficulty);
      if (broken)
        fail(
          'ValidationError',
          `The backup's chain fails verification at block ${broken.index} (${broken.reason}). Nothing was replaced.`,
        );
      const current = store.current();
      const same = opened.blocks[0].hash === current.blocks[0]?.hash;
      const planned = same ? await mergePlan(backup, opened, current) : await replacePlan(backup, opened, current);
      const id = deps.randomId();
      const summaryKeys = await summaryKeysOfEpochs(opened.summaryKeys ?? []);
      pendingRestore = { ...planned, summaryKeys, id, mode: same ? 'merge' : 'replace', revision: current.revision };
      return {
        planId: id,
        createdAt: header.createdAt,
        scope: opened.scope,
        mode: pendingRestore.mode,
        adds: planned.adds,
        deletesFiles: planned.deleteDocuments.length,
        current: countsOf(current.verified.state, current.blocks.length, liveDocuments(current.verified.state).length),
      };
    },

    async confirmRestore(planId) {
      await enter();
      const plan = pendingRestore;
      if (!plan || plan.id !== planId) fail('NotFoundError', 'This restore is no longer waiting: choose the backup file again.');
      pendingRestore = null;
      await store.refresh();
      if (store.current().revision !== plan.revision) fail('ValidationError', CHANGED);
      if (plan.mode === 'merge') {
        const newKeys = plan.summaryKeys.some((key) => !store.current().summaryKeys.has(key.epochId));
        if ((plan.blocks.length > 0 || newKeys) && !(await store.merge(plan.revision, plan))) fail('ValidationError', CHANGED);
        return store.status(); // this browser's keys, and so the session, are kept
      }
      if (!plan.keys) fail('ValidationError', CHANGED);
      await store.restore({ ...plan, keys: plan.keys });
      await signOut(); // the session's key was unlocked from the keys the backup's replaced
      return store.status();
    },
  };

  // Another user (or none) now: a checked restore of the last one is dropped.
  function actorChanged(): void {
    pendingRestore = null;
  }

  return { api, actorChanged };
}
