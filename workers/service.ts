// createLedgerService(deps): the one object the UI talks to (workers/api.ts); storage, clock, delays and tabs are injected.
import { proxy, transfer } from 'comlink';
import type {
  AccessHistoryEntry,
  BlockSummary,
  BlocksPage,
  ChainStatus,
  ChangeKind,
  ChangeListener,
  DocumentContent,
  DocumentView,
  EmergencyRequest,
  LedgerService,
  MiningProgress,
  ProgressListener,
  RecordQuery,
  RecordView,
  UploadRequest,
} from './api';
import {
  accessDenied,
  assertCanDelete,
  assertCanReadPatient,
  assertGrantUsable,
  canSeeRecord,
  documentAccess,
  emergencyScope,
  findActiveGrant,
  isGrantActive,
  isGrantDue,
  requireRole,
  validateEmergencyRequest,
} from './core/access';
import { createGenesisBlock, mineBlock, verifyChain, verifyChainFrom, type VerifyResult } from './core/chain';
import {
  DEMO_PASSWORD,
  DIFFICULTY,
  DOCTOR_KEPT_RECORDS,
  MAX_DESCRIPTION_LENGTH,
  MAX_FILES_PER_UPLOAD,
  MAX_TITLE_LENGTH,
  PATIENT_RECENT_RECORDS,
} from './core/constants';
import { PATIENTS, USERS, findUser } from './core/directory';
import { decryptDocument, encryptDocument, fileExtension, validateUploadFile } from './core/documents';
import { MESSAGES, ledgerError, type LedgerErrorName } from './core/errors';
import { MIME_TYPES } from './core/file-types';
import { mineBlockAsync } from './core/mining';
import type {
  Block,
  ChainRecord,
  EmergencyEvent,
  EmergencyGrant,
  Patient,
  StoredDocument,
  User,
} from './core/types';
import {
  REVISION_CONFLICT,
  REVISION_KEY,
  storedRevision,
  type LedgerStorage,
  type StorageWrite,
  type StoredState,
} from './storage/ledger-storage';
import { createMemoryStorage } from './storage/memory-storage';

// What one tab tells the others after it changed the stored ledger (BroadcastChannel in the worker).
export interface LedgerBroadcast {
  type: 'changed';
  revision: number;
  source: string;
}

export interface LedgerDeps {
  storage: LedgerStorage;
  now: () => number; // ms since the epoch: grants, timestamps, expiry
  uploadDelayMs: number;
  grantDelayMs: number;
  difficulty: number; // leading zero hex digits of the records chain
  randomId?: () => string;
  notifyOthers?: (message: LedgerBroadcast) => void;
  listenToOthers?: (listener: (message: LedgerBroadcast) => void) => void;
  lock?: <T>(fn: () => Promise<T>) => Promise<T>; // exclusive across tabs (Web Locks in the worker)
  expiryTimer?: boolean; // record expiries on time with a timer (the worker); otherwise lazily on the next call
}

export const GENESIS_TITLE = 'Initial health assessment';
export const SANDBOX_PATIENT_ID = 'sandbox'; // synthetic sandbox records, readable by everyone
export const RESTRICTED_TITLE = 'Restricted record'; // a block summary of a record the reader may not see
export const EMERGENCY_READ_REPEAT_MS = 60_000; // the same read of the same grant is logged once a minute
export const MAX_PAGE_SIZE = 500;
export const SANDBOX_FIRST_PAGE = 20;
export const MAX_SANDBOX_BLOCKS = 10_000;
export const MAX_LAB_BLOCKS = 1000;
export const LAB_DIFFICULTY_RANGE = { min: 1, max: 6 } as const;
const PROGRESS_INTERVAL_MS = 100; // mining progress at most ~10 times a second
const MAX_TIMER_MS = 2 ** 31 - 1;
const WRITE_ATTEMPTS = 4; // another tab writing first makes a write start over on fresh state

interface LedgerState {
  blocks: Block[];
  documents: Map<string, StoredDocument>;
  grants: Map<string, EmergencyGrant>;
  meta: Record<string, unknown>;
  revision: number; // bumped by every write, so a tab can tell the storage moved on without it
  verification: VerifyResult;
}

interface RecordEntry {
  block: Block;
  index: number;
}

// Indexes over the verified part of the chain, rebuilt after a change.
interface Derived {
  listed: Map<string, RecordEntry[]>; // the patient's records, oldest first
  emergency: Map<string, RecordEntry[]>; // the patient's emergency_access records, oldest first
  documentRecord: Map<string, RecordEntry>;
}

interface Change<T> {
  write?: StorageWrite;
  apply?: () => void;
  result: () => T;
}

interface Sandbox {
  blocks: Block[];
  difficulty: number; // the lowest difficulty any of its blocks was mined at
  tampered: Set<number>; // indexes whose title the user typed (shown even when the record is restricted)
  verification: VerifyResult | null; // null: to be recomputed
}

function fail(name: LedgerErrorName, message: string): never {
  throw ledgerError(name, message);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

function isIndex(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

function createMutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

function storageError(failure: string, error: unknown): Error {
  const cause = error instanceof Error && error.name !== 'Error' ? ` (${error.name})` : '';
  return ledgerError('StorageError', `${failure}: the browser's storage refused the write${cause}.`);
}

function documentView(document: StoredDocument): DocumentView {
  const { encryptionKey: _key, ...view } = document;
  return view;
}

function summary(block: Block, index: number, visible: boolean): BlockSummary {
  return {
    index,
    hash: block.hash,
    previousHash: block.previousHash,
    timestamp: block.timestamp,
    nonce: block.nonce,
    type: block.data?.type, // data can be missing only in a tampered store, which verification reports
    title: visible ? block.data.title : RESTRICTED_TITLE,
    patientId: visible ? block.data.patientId : '',
  };
}

function pageOf(
  blocks: readonly Block[],
  offset: number,
  limit: number,
  visible: (block: Block, index: number) => boolean,
): BlocksPage {
  if (!isIndex(offset) || !Number.isInteger(limit) || limit < 1) {
    fail('ValidationError', 'Ask for a page with a whole offset of 0 or more and a limit of 1 or more.');
  }
  const size = Math.min(limit, MAX_PAGE_SIZE);
  const page: BlockSummary[] = [];
  for (let i = blocks.length - 1 - offset; i >= 0 && page.length < size; i--) {
    page.push(summary(blocks[i], i, visible(blocks[i], i)));
  }
  return { total: blocks.length, offset, blocks: page };
}

function verifiedLength(verification: VerifyResult, height: number): number {
  return verification.valid ? height : (verification.firstInvalid?.index ?? 0);
}

function genesisRecord(timestamp: string): ChainRecord {
  return {
    id: 'genesis',
    patientId: PATIENTS[0].id,
    doctorId: PATIENTS[0].doctorId ?? '',
    type: 'diagnosis',
    title: GENESIS_TITLE,
    description: 'Baseline assessment recorded when the ledger was created.',
    fileName: '',
    fileUrl: '',
    documentIds: [],
    timestamp,
  };
}

function sandboxRecord(index: number, timestamp: string, mined: boolean): ChainRecord {
  return {
    id: `sandbox-${index}`,
    patientId: SANDBOX_PATIENT_ID,
    doctorId: '',
    type: index === 0 ? 'diagnosis' : index % 2 === 0 ? 'test_report' : 'prescription',
    title: mined ? `Mining lab block ${index}` : `Demo record ${index}`,
    description: mined ? 'Mined in the mining lab sandbox.' : 'A demo block of the explorer sandbox.',
    fileName: '',
    fileUrl: '',
    documentIds: [],
    timestamp,
  };
}

function emergencyTitle(event: EmergencyEvent, grant: EmergencyGrant, doctorName: string): string {
  switch (event) {
    case 'granted':
      return `Emergency access (${grant.accessLevel}) granted to ${doctorName}`;
    case 'read':
      return `Emergency read by ${doctorName}`;
    case 'ended':
      return `Emergency access ended by ${doctorName}`;
    case 'expired':
      return `Emergency access of ${doctorName} expired`;
  }
}

export function createLedgerService(overrides: Partial<LedgerDeps> = {}): LedgerService {
  const deps: LedgerDeps = {
    ...overrides,
    storage: overrides.storage ?? createMemoryStorage(),
    now: overrides.now ?? (() => Date.now()),
    uploadDelayMs: overrides.uploadDelayMs ?? 0,
    grantDelayMs: overrides.grantDelayMs ?? 0,
    difficulty: overrides.difficulty ?? DIFFICULTY,
  };
  const { storage, now, difficulty } = deps;
  const randomId = deps.randomId ?? (() => crypto.randomUUID());
  const lock = deps.lock ?? createMutex();
  const instanceId = randomId();

  let actor: User | null = null;
  let state: LedgerState | null = null;
  let loading: Promise<void> | null = null;
  let derivedCache: Derived | null = null;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<ChangeListener>();
  let sandbox: Sandbox | null = null;
  const jobs = new Map<string, { cancelled: boolean }>();

  // ---- state, loading and other tabs ----

  function current(): LedgerState {
    if (!state) fail('StorageError', 'The stored records are not loaded yet.');
    return state;
  }

  function readOnly(): boolean {
    return !current().verification.valid;
  }

  function toState(stored: StoredState): LedgerState {
    const verification: VerifyResult =
      stored.blocks.length === 0
        ? { valid: false, height: 0, firstInvalid: { index: 0, reason: 'the stored chain has no blocks' } }
        : verifyChain(stored.blocks, difficulty);
    return {
      blocks: stored.blocks,
      documents: new Map(stored.documents.map((document) => [document.id, document])),
      grants: new Map(stored.grants.map((grant) => [grant.id, grant])),
      meta: stored.meta,
      revision: storedRevision(stored.meta[REVISION_KEY]),
      verification,
    };
  }

  function setState(next: LedgerState): void {
    state = next;
    derivedCache = null;
    scheduleExpiry();
  }

  function freshLedger(expectedRevision: number): { write: StorageWrite; stored: StoredState } {
    const timestamp = iso(now());
    const genesis = createGenesisBlock(genesisRecord(timestamp), timestamp, difficulty);
    const meta = { [REVISION_KEY]: expectedRevision + 1 };
    return {
      write: { expectedRevision, clear: true, blocks: [genesis], meta },
      stored: { blocks: [genesis], documents: [], grants: [], meta },
    };
  }

  async function initialLoad(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const stored = await storage.load();
      const empty = stored.blocks.length + stored.documents.length + stored.grants.length === 0;
      if (!empty) return setState(toState(stored));
      const fresh = freshLedger(storedRevision(stored.meta[REVISION_KEY]));
      try {
        await storage.commit(fresh.write);
        return setState(toState(fresh.stored));
      } catch (error) {
        if (!isConflict(error) || attempt >= WRITE_ATTEMPTS) throw error; // another tab made the genesis first
      }
    }
  }

  function isConflict(error: unknown): boolean {
    return error instanceof Error && error.name === REVISION_CONFLICT;
  }

  function ensureLoaded(): Promise<void> {
    loading ??= lock(initialLoad).catch((error: unknown) => {
      loading = null; // the next call tries again
      throw ledgerError('StorageError', `The stored records could not be loaded${storageCause(error)}.`);
    });
    return loading;
  }

  function storageCause(error: unknown): string {
    return error instanceof Error && error.name !== 'Error' ? ` (${error.name})` : '';
  }

  // Runs under the lock: another tab may have written since this one last read.
  async function refreshIfStale(): Promise<boolean> {
    const stored = storedRevision(await storage.readMeta(REVISION_KEY));
    if (stored === current().revision) return false;
    setState(toState(await storage.load()));
    return true;
  }

  function notifyLocal(): void {
    const change = { revision: current().revision, kinds: ['chain', 'records', 'grants', 'access'] as ChangeKind[] };
    for (const listener of listeners) {
      try {
        Promise.resolve(listener(change) as unknown).catch(() => undefined); // a closed tab's proxy may reject
      } catch {
        // a listener's failure is not the ledger's
      }
    }
  }

  function announce(): void {
    notifyLocal();
    deps.notifyOthers?.({ type: 'changed', revision: current().revision, source: instanceId });
  }

  deps.listenToOthers?.((message) => {
    if (!state || message?.source === instanceId) return;
    lock(refreshIfStale)
      .then((reloaded) => reloaded && notifyLocal())
      .catch(() => undefined);
  });

  // ---- writing ----

  function assertWritable(): void {
    const invalid = current().verification.firstInvalid;
    if (invalid) {
      fail(
        'ReadOnlyError',
        `The stored records failed verification at block ${invalid.index} (${invalid.reason}), so changes are turned off. Reset the demo data to start over.`,
      );
    }
  }

  function tip(): Block {
    const blocks = current().blocks;
    return blocks[blocks.length - 1];
  }

  function appendBlocks(blocks: readonly Block[]): void {
    const s = current();
    for (const block of blocks) {
      const index = s.blocks.length;
      s.blocks.push(block);
      if (s.verification.valid) s.verification = verifyChainFrom(s.blocks, index, difficulty);
    }
  }

  async function save<T>(failure: string, change: Change<T>): Promise<void> {
    const expectedRevision = current().revision;
    const revision = expectedRevision + 1;
    try {
      await storage.commit({ ...change.write, expectedRevision, meta: { ...change.write?.meta, [REVISION_KEY]: revision } });
    } catch (error) {
      throw isConflict(error) ? error : storageError(failure, error);
    }
    change.apply?.();
    current().revision = revision;
    derivedCache = null;
    scheduleExpiry();
  }

  // Every write: locked, on fresh state, expiries first, revision-checked by storage (a lost race rebuilds), announced after.
  async function commitChange<T>(
    failure: string,
    build: () => Change<T> | Promise<Change<T>>,
    options: { allowReadOnly?: boolean; skipExpiries?: boolean } = {},
  ): Promise<T> {
    let changed = false;
    const attempt = async (): Promise<T> => {
      if (await refreshIfStale()) changed = true;
      if (!options.allowReadOnly) assertWritable();
      if (!options.skipExpiries && !readOnly()) {
        const expiries = expiryChange();
        if (expiries) {
          await save('The end of an emergency access was not saved', expiries);
          changed = true;
        }
      }
      const change = await build();
      if (change.write) {
        await save(failure, change);
        changed = true;
      }
      return change.result();
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
      if (changed) announce();
    }
  }

  function emergencyBlock(
    previous: Block,
    grant: EmergencyGrant,
    event: EmergencyEvent,
    timestamp: string,
    read?: string,
  ): Block {
    const doctorName = findUser(grant.doctorId)?.name ?? grant.doctorId;
    const record: ChainRecord = {
      id: randomId(),
      patientId: grant.patientId,
      doctorId: grant.doctorId,
      type: 'emergency_access',
      title: emergencyTitle(event, grant, doctorName),
      description: event === 'granted' ? grant.reason : (read ?? ''),
      fileName: '',
      fileUrl: '',
      documentIds: [],
      timestamp,
      isEmergencyAccess: true,
      emergencyAccessExpiry: grant.expiresAt,
      emergency: {
        grantId: grant.id,
        event,
        accessLevel: grant.accessLevel,
        reason: grant.reason,
        durationMinutes: grant.durationMinutes,
        ...(read === undefined ? {} : { read }),
      },
    };
    return mineBlock(previous, record, timestamp, difficulty);
  }

  // Grants past their expiry that are still marked active: mark them and put 'expired' on the chain.
  function expiryChange(): Change<void> | null {
    const at = now();
    const due = [...current().grants.values()].filter((grant) => isGrantDue(grant, at));
    if (due.length === 0) return null;
    due.sort((a, b) => a.expiresAt.localeCompare(b.expiresAt));
    const timestamp = iso(at);
    const blocks: Block[] = [];
    const grants = due.map((grant) => ({ ...grant, isActive: false }));
    for (const grant of grants) blocks.push(emergencyBlock(blocks.at(-1) ?? tip(), grant, 'expired', timestamp));
    return {
      write: { blocks, grants },
      apply: () => {
        appendBlocks(blocks);
        for (const grant of grants) current().grants.set(grant.id, grant);
      },
      result: () => undefined,
    };
  }

  async function recordDueExpiries(): Promise<void> {
    if (!state || readOnly()) return;
    const at = now();
    if (![...current().grants.values()].some((grant) => isGrantDue(grant, at))) return;
    await commitChange('The end of an emergency access was not saved', () => ({ result: () => undefined }));
  }

  function scheduleExpiry(): void {
    if (!deps.expiryTimer) return;
    clearTimeout(expiryTimer);
    expiryTimer = undefined;
    let next = Infinity;
    for (const grant of current().grants.values()) {
      if (grant.isActive && grant.endedAt === undefined) next = Math.min(next, Date.parse(grant.expiresAt));
    }
    if (next === Infinity) return;
    const delay = Math.min(Math.max(0, next - now()) + 10, MAX_TIMER_MS);
    expiryTimer = setTimeout(() => {
      expiryTimer = undefined;
      recordDueExpiries()
        .then(() => expiryTimer ?? scheduleExpiry()) // nothing was due yet (a long wait is split): look again
        .catch(() => undefined);
    }, delay);
  }

  // ---- reading ----

  function derived(): Derived {
    if (derivedCache) return derivedCache;
    const s = current();
    const listed = new Map<string, RecordEntry[]>();
    const emergency = new Map<string, RecordEntry[]>();
    const documentRecord = new Map<string, RecordEntry>();
    const add = (map: Map<string, RecordEntry[]>, key: string, entry: RecordEntry) => {
      const list = map.get(key);
      if (list) list.push(entry);
      else map.set(key, [entry]);
    };
    const length = verifiedLength(s.verification, s.blocks.length);
    for (let index = 0; index < length; index++) {
      const block = s.blocks[index];
      const record = block.data;
      const entry = { block, index };
      if (record.type === 'emergency_access' && record.emergency) add(emergency, record.patientId, entry);
      // Emergency reads, ends and expiries are the access log, not the patient's records.
      if (record.type !== 'emergency_access' || record.emergency?.event === 'granted') add(listed, record.patientId, entry);
      for (const id of record.documentIds ?? []) documentRecord.set(id, entry);
    }
    derivedCache = { listed, emergency, documentRecord };
    return derivedCache;
  }

  function recordView(entry: RecordEntry, withDocuments: boolean): RecordView {
    const { block, index } = entry;
    const documents = current().documents;
    return {
      ...block.data,
      documentIds: [...block.data.documentIds],
      ...(block.data.emergency ? { emergency: { ...block.data.emergency } } : {}),
      blockchainHash: block.hash,
      blockIndex: index,
      documents: withDocuments
        ? block.data.documentIds.flatMap((id) => {
            const document = documents.get(id);
            return document ? [documentView(document)] : [];
          })
        : [],
    };
  }

  function newestRecords(patientId: string): RecordEntry[] {
    return [...(derived().listed.get(patientId) ?? [])].reverse();
  }

  function clinical(entry: RecordEntry): boolean {
    return entry.block.data.type !== 'emergency_access';
  }

  function patient(id: string): Patient {
    return PATIENTS.find((candidate) => candidate.id === id) ?? fail('NotFoundError', 'No patient has this id.');
  }

  // The document as the chain vouches for it: owner and doctor come from its verified record.
  function verifiedDocument(documentId: unknown): { document: StoredDocument; entry: RecordEntry } {
    const document = typeof documentId === 'string' ? current().documents.get(documentId) : undefined;
    const entry = document && derived().documentRecord.get(document.id);
    if (!document || !entry) fail('NotFoundError', 'This document does not exist.');
    const record = entry.block.data;
    return { document: { ...document, patientId: record.patientId, doctorId: record.doctorId }, entry };
  }

  function accessHistoryOf(patientId: string): AccessHistoryEntry[] {
    const at = now();
    const entries = new Map<string, AccessHistoryEntry>();
    for (const { block } of derived().emergency.get(patientId) ?? []) {
      const record = block.data;
      const details = record.emergency;
      if (!details) continue;
      if (details.event === 'granted') {
        entries.set(details.grantId, {
          grantId: details.grantId,
          doctorId: record.doctorId,
          doctorName: findUser(record.doctorId)?.name ?? record.doctorId,
          reason: details.reason,
          accessLevel: details.accessLevel,
          startedAt: record.timestamp,
          expiresAt: record.emergencyAccessExpiry ?? record.timestamp,
          status: 'active',
          reads: [],
        });
        continue;
      }
      const entry = entries.get(details.grantId);
      if (!entry) continue;
      if (details.event === 'read') entry.reads.push({ at: record.timestamp, what: details.read ?? '' });
      if (details.event === 'ended') Object.assign(entry, { status: 'ended', endedAt: record.timestamp });
      if (details.event === 'expired') Object.assign(entry, { status: 'expired', endedAt: entry.expiresAt });
    }
    const history = [...entries.values()].reverse(); // newest grant first
    for (const entry of history) {
      if (entry.status === 'active' && at >= Date.parse(entry.expiresAt)) {
        Object.assign(entry, { status: 'expired', endedAt: entry.expiresAt }); // not yet recorded: the clock decides
      }
    }
    return history;
  }

  function acknowledgedBy(patientId: string): string[] {
    const value = current().meta[`acknowledged:${patientId}`];
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  }

  // The same read of the same grant within a minute is one entry (a re-render is not a new read).
  function readJustLogged(grant: EmergencyGrant, read: string): boolean {
    const records = derived().emergency.get(grant.patientId) ?? [];
    for (let i = records.length - 1; i >= 0; i--) {
      const record = records[i].block.data;
      if (record.emergency?.grantId !== grant.id || record.emergency.event !== 'read') continue;
      return record.emergency.read === read && now() - Date.parse(record.timestamp) < EMERGENCY_READ_REPEAT_MS;
    }
    return false;
  }

  // Break-the-glass reads are recorded before the data is handed out: no record, no read.
  async function logEmergencyRead(signedIn: User, grantId: string, read: string): Promise<void> {
    await commitChange('The emergency read could not be recorded', () => {
      const grant = assertGrantUsable(signedIn, current().grants.get(grantId), now());
      if (readJustLogged(grant, read)) return { result: () => undefined };
      const block = emergencyBlock(tip(), grant, 'read', iso(now()), read);
      return { write: { blocks: [block] }, apply: () => appendBlocks([block]), result: () => undefined };
    });
  }

  // Every call but the session ones: a signed-in actor, the stored ledger loaded, due expiries recorded.
  async function enter(): Promise<User> {
    const signedIn = actor;
    if (!signedIn) throw accessDenied();
    await ensureLoaded();
    await recordDueExpiries().catch(() => undefined); // reads still end at expiry by the clock if storage refuses
    return signedIn;
  }

  // ---- uploads ----

  function validateUpload(request: UploadRequest): { title: string; description: string; files: UploadRequest['files'] } {
    if (!request || typeof request !== 'object') fail('ValidationError', 'The upload is missing its details.');
    const title = typeof request.title === 'string' ? request.title.trim() : '';
    if (title === '') fail('ValidationError', 'Enter a title.');
    if (title.length > MAX_TITLE_LENGTH) fail('ValidationError', `The title is longer than ${MAX_TITLE_LENGTH} characters.`);
    if (request.description !== undefined && typeof request.description !== 'string') {
      fail('ValidationError', 'The description must be text.');
    }
    const description = (request.description ?? '').trim();
    if (description.length > MAX_DESCRIPTION_LENGTH) {
      fail('ValidationError', `The description is longer than ${MAX_DESCRIPTION_LENGTH} characters.`);
    }
    if (request.type !== 'prescription' && request.type !== 'test_report') {
      fail('ValidationError', 'Choose a record type: prescription or test report.');
    }
    const files = Array.isArray(request.files) ? request.files : [];
    if (files.length === 0) fail('ValidationError', 'Add at least one file.');
    if (files.length > MAX_FILES_PER_UPLOAD) fail('ValidationError', `An upload holds at most ${MAX_FILES_PER_UPLOAD} files.`);
    for (const file of files) {
      const name = typeof file?.name === 'string' ? file.name : 'A file';
      if (typeof file?.name !== 'string' || !isArrayBuffer(file.bytes)) fail('ValidationError', `"${name}" could not be read.`);
      const problem = validateUploadFile({ name, type: typeof file.type === 'string' ? file.type : '', bytes: file.bytes });
      if (problem) fail('ValidationError', problem);
    }
    return { title, description, files };
  }

  // ---- the sandbox ----

  function sandboxCopy(): Sandbox {
    return { blocks: structuredClone(current().blocks), difficulty, tampered: new Set(), verification: null };
  }

  async function demoSandbox(count: number): Promise<Sandbox> {
    const timestamp = iso(now());
    const blocks = [createGenesisBlock(sandboxRecord(0, timestamp, false), timestamp, difficulty)];
    for (let index = 1; index < count; index++) {
      blocks.push(mineBlock(blocks[index - 1], sandboxRecord(index, timestamp, false), timestamp, difficulty));
      if (index % 250 === 0) await sleep(1); // a macrotask now and then, so a cancel or another call gets in
    }
    return { blocks, difficulty, tampered: new Set(), verification: null };
  }

  function sandboxStatus(box: Sandbox): ChainStatus {
    box.verification ??= verifyChain(box.blocks, box.difficulty);
    return {
      height: box.blocks.length,
      valid: box.verification.valid,
      ...(box.verification.firstInvalid ? { firstInvalid: { ...box.verification.firstInvalid } } : {}),
      difficulty: box.difficulty,
      lastBlockTime: box.blocks[box.blocks.length - 1]?.timestamp ?? '',
      readOnly: false,
    };
  }

  function sandboxVisible(signedIn: User, box: Sandbox) {
    return (block: Block, index: number) =>
      !!block.data &&
      (block.data.patientId === SANDBOX_PATIENT_ID || box.tampered.has(index) || canSeeRecord(signedIn, block.data));
  }

  function sandboxBlockIndex(box: Sandbox, index: unknown): number {
    if (!isIndex(index) || index >= box.blocks.length) fail('NotFoundError', `Block ${String(index)} does not exist.`);
    return index;
  }

  function report(onProgress: ProgressListener, progress: MiningProgress): void {
    try {
      Promise.resolve(onProgress(progress) as unknown).catch(() => undefined);
    } catch {
      // a broken progress callback must not stop the mining
    }
  }

  const service: LedgerService = {
    // ---- session ----
    async signIn(email, password, role) {
      actor = null;
      try {
        const wanted = typeof email === 'string' ? email.trim().toLowerCase() : '';
        const user = USERS.find((candidate) => candidate.email.toLowerCase() === wanted);
        if (!user || password !== DEMO_PASSWORD) fail('LoginError', MESSAGES.invalidCredentials);
        if (user.role !== role) fail('LoginError', MESSAGES.wrongRole(user.role));
        await ensureLoaded(); // a ledger that cannot load is the unexpected failure of SEED.md section 8
        actor = user;
        return structuredClone(user);
      } catch (error) {
        if (error instanceof Error && error.name === 'LoginError') throw error;
        throw ledgerError('LoginError', MESSAGES.loginFailed);
      }
    },

    async resumeSession(userId) {
      actor = (typeof userId === 'string' && findUser(userId)) || null; // D11: only the id is trusted
      return actor && structuredClone(actor);
    },

    async signOut() {
      actor = null;
    },

    // ---- chain ----
    async chainStatus() {
      await enter();
      const s = current();
      return {
        height: s.blocks.length,
        valid: s.verification.valid,
        ...(s.verification.firstInvalid ? { firstInvalid: { ...s.verification.firstInvalid } } : {}),
        difficulty,
        lastBlockTime: tip()?.timestamp ?? '',
        readOnly: readOnly(),
      };
    },

    async blocksPage(offset, limit) {
      const signedIn = await enter();
      return pageOf(current().blocks, offset, limit, (block) => !!block.data && canSeeRecord(signedIn, block.data));
    },

    async block(index) {
      const signedIn = await enter();
      const blocks = current().blocks;
      if (!isIndex(index) || index >= blocks.length) fail('NotFoundError', `Block ${String(index)} does not exist.`);
      if (!blocks[index].data || !canSeeRecord(signedIn, blocks[index].data)) throw accessDenied();
      return structuredClone(blocks[index]);
    },

    // ---- patient ----
    async patientOverview() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      const records = newestRecords(signedIn.id);
      const lastUpload = records.find(
        ({ block }) => block.data.type === 'prescription' || block.data.type === 'test_report',
      );
      const acknowledged = new Set(acknowledgedBy(signedIn.id));
      return {
        patient: structuredClone(signedIn),
        totalRecords: records.length,
        lastUpload: lastUpload ? lastUpload.block.data.timestamp : null,
        recent: records.slice(0, PATIENT_RECENT_RECORDS).map((entry) => recordView(entry, true)),
        newEmergencyAccesses: accessHistoryOf(signedIn.id).filter((entry) => !acknowledged.has(entry.grantId)),
      };
    },

    async listRecords(patientId, query: RecordQuery = {}) {
      const signedIn = await enter();
      assertCanReadPatient(signedIn, patientId);
      const search = typeof query?.search === 'string' ? query.search.trim().toLowerCase() : '';
      return newestRecords(patientId)
        .filter(({ block }) => !query?.type || block.data.type === query.type)
        .filter(
          ({ block }) =>
            search === '' ||
            block.data.title.toLowerCase().includes(search) ||
            block.data.description.toLowerCase().includes(search),
        )
        .map((entry) => recordView(entry, true));
    },

    async upload(request) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      assertWritable();
      const { title, description, files } = validateUpload(request);
      await sleep(deps.uploadDelayMs);
      const encrypted = await Promise.all(files.map((file) => encryptDocument(file.bytes)));
      return commitChange('The upload was not saved', () => {
        const timestamp = iso(now());
        const doctorId = signedIn.doctorId ?? '';
        const documents: StoredDocument[] = files.map((file, i) => ({
          id: randomId(),
          fileName: file.name,
          fileType: file.type || MIME_TYPES[fileExtension(file.name)]?.[0] || 'application/octet-stream',
          fileSize: file.bytes.byteLength,
          uploadDate: timestamp,
          ipfsHash: encrypted[i].ipfsHash,
          encryptionKey: encrypted[i].encryptionKey,
          patientId: signedIn.id,
          doctorId,
          isEncrypted: true,
        }));
        const record: ChainRecord = {
          id: randomId(),
          patientId: signedIn.id,
          doctorId,
          type: request.type,
          title,
          description,
          fileName: documents[0].fileName,
          fileUrl: `ipfs://${documents[0].ipfsHash}`,
          documentIds: documents.map((document) => document.id),
          timestamp,
        };
        const block = mineBlock(tip(), record, timestamp, difficulty);
        const index = current().blocks.length;
        return {
          write: {
            blocks: [block],
            documents,
            contents: documents.map((document, i) => ({ id: document.id, bytes: encrypted[i].stored })),
          },
          apply: () => {
            appendBlocks([block]);
            for (const document of documents) current().documents.set(document.id, document);
          },
          result: () => ({ record: recordView({ block, index }, true), block: summary(block, index, true) }),
        };
      });
    },

    async readDocument(documentId) {
      const signedIn = await enter();
      const { document, entry } = verifiedDocument(documentId);
      const access = documentAccess(signedIn, document, current().grants.values(), now());
      if (document.deletedAt) fail('NotFoundError', `"${document.fileName}" was deleted.`);
      const record = entry.block.data;
      if (record.documentIds[0] === document.id && record.fileUrl !== `ipfs://${document.ipfsHash}`) {
        fail('IntegrityError', `"${document.fileName}" does not match the content id its record holds on the chain.`);
      }
      const stored = await storage.readContent(document.id);
      if (!stored) fail('IntegrityError', `The stored bytes of "${document.fileName}" are missing.`);
      const bytes = await decryptDocument(stored, document.encryptionKey, document.ipfsHash);
      if (access.via === 'emergency') await logEmergencyRead(signedIn, access.grant.id, `document "${document.fileName}"`);
      const content: DocumentContent = { document: documentView(current().documents.get(document.id) ?? document), bytes };
      return transfer(content, [bytes]); // over comlink the decrypted bytes move, they are not copied
    },

    async deleteDocument(documentId) {
      const signedIn = await enter();
      assertCanDelete(signedIn, verifiedDocument(documentId).document);
      return commitChange('The deletion was not saved', () => {
        const { document } = verifiedDocument(documentId);
        assertCanDelete(signedIn, document);
        const stored = current().documents.get(document.id) ?? document;
        if (stored.deletedAt) return { result: () => documentView(stored) };
        const deleted: StoredDocument = { ...stored, deletedAt: iso(now()) };
        return {
          write: { documents: [deleted], deleteContents: [deleted.id] },
          apply: () => current().documents.set(deleted.id, deleted),
          result: () => documentView(deleted),
        };
      });
    },

    async accessHistory() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      return accessHistoryOf(signedIn.id);
    },

    async acknowledgeEmergencyAccesses() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      const key = `acknowledged:${signedIn.id}`;
      // Dismissing an alert is the patient's own setting, not ledger data: allowed when read-only.
      await commitChange(
        'The acknowledgement was not saved',
        () => {
          const seen = new Set(acknowledgedBy(signedIn.id));
          const fresh = accessHistoryOf(signedIn.id).filter((entry) => !seen.has(entry.grantId));
          if (fresh.length === 0) return { result: () => undefined };
          const value = [...seen, ...fresh.map((entry) => entry.grantId)];
          return {
            write: { meta: { [key]: value } },
            apply: () => {
              current().meta[key] = value;
            },
            result: () => undefined,
          };
        },
        { allowReadOnly: true },
      );
    },

    // ---- doctor ----
    async doctorOverview() {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      const patients = signedIn.patients.map(patient);
      const entries = patients
        .flatMap((p) => newestRecords(p.id))
        .sort((a, b) => b.index - a.index);
      const today = new Date(now()).toDateString();
      return {
        patients: structuredClone(patients),
        recentActivity: entries.slice(0, DOCTOR_KEPT_RECORDS).map((entry) => recordView(entry, true)),
        recordsToday: entries.filter(({ block }) => new Date(block.data.timestamp).toDateString() === today).length,
      };
    },

    async searchPatients(query) {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      const wanted = typeof query === 'string' ? query.trim().toLowerCase() : '';
      return structuredClone(
        PATIENTS.filter((p) => p.name.toLowerCase().includes(wanted) || p.id.toLowerCase().includes(wanted)),
      );
    },

    async requestEmergencyAccess(request: EmergencyRequest) {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      assertWritable();
      const problem = validateEmergencyRequest(request ?? {}, (id) => PATIENTS.find((p) => p.id === id));
      if (problem) fail('ValidationError', problem);
      await sleep(deps.grantDelayMs);
      return commitChange('The emergency access was not saved', () => {
        const at = now();
        const existing = findActiveGrant(current().grants.values(), signedIn.id, request.patientId, at);
        if (existing) {
          // A second click on Grant: the same grant, not a second one.
          if (existing.accessLevel === request.accessLevel) return { result: () => ({ ...existing }) };
          fail('ValidationError', 'End the active emergency session for this patient before asking for another level.');
        }
        const grant: EmergencyGrant = {
          id: randomId(),
          patientId: request.patientId,
          doctorId: signedIn.id,
          accessLevel: request.accessLevel,
          reason: request.reason.trim(),
          durationMinutes: request.durationMinutes,
          expiresAt: iso(at + request.durationMinutes * 60_000),
          createdAt: iso(at),
          isActive: true,
        };
        const block = emergencyBlock(tip(), grant, 'granted', grant.createdAt);
        return {
          write: { grants: [grant], blocks: [block] },
          apply: () => {
            appendBlocks([block]);
            current().grants.set(grant.id, grant);
          },
          result: () => ({ ...grant }),
        };
      });
    },

    async endEmergencyAccess(grantId) {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      const known = current().grants.get(grantId);
      if (!known || known.doctorId !== signedIn.id) throw accessDenied();
      return commitChange('Ending the emergency access was not saved', () => {
        const grant = current().grants.get(grantId) ?? known;
        if (!grant.isActive) return { result: () => ({ ...grant }) }; // already ended, or expired just now
        const ended: EmergencyGrant = { ...grant, isActive: false, endedAt: iso(now()) };
        const block = emergencyBlock(tip(), ended, 'ended', ended.endedAt ?? iso(now()));
        return {
          write: { grants: [ended], blocks: [block] },
          apply: () => {
            appendBlocks([block]);
            current().grants.set(ended.id, ended);
          },
          result: () => ({ ...ended }),
        };
      });
    },

    async activeGrants() {
      const signedIn = await enter();
      const at = now();
      return [...current().grants.values()]
        .filter((grant) => (signedIn.role === 'doctor' ? grant.doctorId : grant.patientId) === signedIn.id)
        .filter((grant) => isGrantActive(grant, at))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .map((grant) => ({ ...grant }));
    },

    async emergencyView(grantId) {
      const signedIn = await enter();
      const grant = assertGrantUsable(signedIn, current().grants.get(grantId), now());
      const scope = emergencyScope(grant.accessLevel);
      const records = newestRecords(grant.patientId)
        .filter(clinical)
        .slice(0, scope.records)
        .map((entry) => recordView(entry, scope.documents));
      await logEmergencyRead(signedIn, grant.id, scope.read);
      return {
        grant: { ...grant },
        patient: structuredClone(patient(grant.patientId)),
        records,
        documentsReadable: scope.documents,
      };
    },

    // ---- demo data ----
    async resetDemoData() {
      await enter();
      await commitChange(
        'The reset was not saved',
        () => {
          const fresh = freshLedger(current().revision);
          return { write: fresh.write, apply: () => setState(toState(fresh.stored)), result: () => undefined };
        },
        { allowReadOnly: true, skipExpiries: true },
      );
    },

    async onChange(listener: ChangeListener) {
      listeners.add(listener); // carries no data, so no sign-in needed
      return proxy(() => {
        listeners.delete(listener);
      });
    },

    // ---- sandbox ----
    async sandboxReset(blocks) {
      const signedIn = await enter();
      if (!Number.isInteger(blocks) || blocks < 0 || blocks > MAX_SANDBOX_BLOCKS) {
        fail('ValidationError', `Choose between 0 and ${MAX_SANDBOX_BLOCKS} blocks.`);
      }
      for (const job of jobs.values()) job.cancelled = true;
      const box = blocks === 0 ? sandboxCopy() : await demoSandbox(blocks);
      sandbox = box;
      return pageOf(box.blocks, 0, SANDBOX_FIRST_PAGE, sandboxVisible(signedIn, box));
    },

    async sandboxPage(offset, limit) {
      const signedIn = await enter();
      const box = (sandbox ??= sandboxCopy());
      return { ...pageOf(box.blocks, offset, limit, sandboxVisible(signedIn, box)), status: sandboxStatus(box) };
    },

    async sandboxTamper(index, title) {
      await enter();
      const box = (sandbox ??= sandboxCopy());
      const at = sandboxBlockIndex(box, index);
      if (typeof title !== 'string') fail('ValidationError', 'The new title must be text.');
      const block = box.blocks[at];
      box.blocks[at] = { ...block, data: { ...block.data, title } }; // not re-mined: verification must notice
      box.tampered.add(at);
      box.verification = null;
      return sandboxStatus(box);
    },

    async sandboxRemine(index) {
      await enter();
      const box = (sandbox ??= sandboxCopy());
      const at = sandboxBlockIndex(box, index);
      const block = box.blocks[at];
      box.blocks[at] =
        at === 0
          ? createGenesisBlock(block.data, block.timestamp, box.difficulty)
          : mineBlock(box.blocks[at - 1], block.data, block.timestamp, box.difficulty);
      box.verification = null;
      return sandboxStatus(box);
    },

    async mineSandbox(jobId, jobDifficulty, blocks, onProgress) {
      await enter();
      if (typeof jobId !== 'string' || jobId === '') fail('ValidationError', 'A mining job needs an id.');
      const { min, max } = LAB_DIFFICULTY_RANGE;
      if (!Number.isInteger(jobDifficulty) || jobDifficulty < min || jobDifficulty > max) {
        fail('ValidationError', `Choose a difficulty from ${min} to ${max}.`);
      }
      if (!Number.isInteger(blocks) || blocks < 1 || blocks > MAX_LAB_BLOCKS) {
        fail('ValidationError', `Choose from 1 to ${MAX_LAB_BLOCKS} blocks.`);
      }
      if (jobs.size > 0) fail('ValidationError', 'A mining job is already running.');
      const box = (sandbox ??= sandboxCopy());
      const job = { cancelled: false };
      jobs.set(jobId, job);
      const started = performance.now();
      let attempts = 0;
      let mined = 0;
      let lastReport = -Infinity;
      const progress = (inBlock: number): MiningProgress => {
        const elapsedMs = performance.now() - started;
        const total = attempts + inBlock;
        return {
          jobId,
          blocksMined: mined,
          blocksTotal: blocks,
          attempts: total,
          elapsedMs,
          hashRate: elapsedMs > 0 ? (total / elapsedMs) * 1000 : 0,
        };
      };
      const throttled = (inBlock: number) => {
        const at = performance.now();
        if (at - lastReport < PROGRESS_INTERVAL_MS) return;
        lastReport = at;
        report(onProgress, progress(inBlock));
      };
      try {
        while (mined < blocks && !job.cancelled && sandbox === box) {
          const index = box.blocks.length;
          const timestamp = iso(now());
          const result = await mineBlockAsync(box.blocks[index - 1], sandboxRecord(index, timestamp, true), timestamp, {
            difficulty: jobDifficulty,
            isCancelled: () => job.cancelled,
            onProgress: (p) => throttled(p.attempts),
            now: () => performance.now(),
          });
          attempts += result.attempts;
          if (!result.block || sandbox !== box) break;
          box.blocks.push(result.block);
          box.difficulty = Math.min(box.difficulty, jobDifficulty);
          if (box.verification?.valid) box.verification = verifyChainFrom(box.blocks, index, box.difficulty);
          mined++;
          throttled(0);
        }
        const final = progress(0);
        report(onProgress, final);
        return { ...final, cancelled: mined < blocks };
      } finally {
        jobs.delete(jobId);
      }
    },

    async cancelJob(jobId) {
      await enter();
      const job = jobs.get(jobId);
      if (!job || job.cancelled) return false;
      job.cancelled = true;
      return true;
    },
  };

  void ensureLoaded().catch(() => undefined); // start loading now; a failure is reported by the first call
  return service;
}
