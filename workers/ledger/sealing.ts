// A patient's medical text opened for the signed-in reader (docs/decisions/nothing-medical-in-clear.md): the chain keeps
// only clear fields, the screens read what this device may open; sealing before a write is in ./seal-writes.ts. Keys
// never cross the worker boundary.
import type { GrantState, LedgerState, RecordEntry, ShareState } from '../core/ledger-state';
import {
  openClinicalRecord,
  openFromReaders,
  readerSealedRecordId,
  type ReaderSealed,
  type SealBinding,
  type SealedClinicalRecord,
  type SummaryKey,
} from '../core/sealed-fields';
import { SharedMap } from '../core/shared-map';
import { clearUploads, resealings, sealForPair, sealUploads } from './seal-writes';
import type { ChainFile, ChainRecord, ClinicalRecord, User } from '../core/types';
import type { Snapshot } from './snapshot';
import { DELETED_FILE, SEALED_FILE } from './views';

// What a reader sees of a record whose key has not reached this device (or that is not theirs to open).
export const SEALED_TITLE = 'Sealed record (its key is not on this device)';
export { DELETED_FILE, SEALED_FILE } from './views'; // the names sealing gives the files it cannot open
export const SEALED_TEXT = '(sealed)';

export interface SealingSession {
  encryptionKey: (userId: string) => CryptoKey | undefined;
}

// The same summary keys held (a write publishes its own copy of them): a new one may open any older upload.
function sameSummaryKeys(a: ReadonlyMap<string, SummaryKey>, b: ReadonlyMap<string, SummaryKey>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [epochId, summary] of a) if (b.get(epochId)?.key !== summary.key) return false;
  return true;
}

// One build of the screens' projection for a reader: the snapshot it read, what it made, the texts it could not open.
interface Built {
  source: Snapshot;
  result: LedgerState;
  unopened: Set<string>; // 'grant|<id>' or 'share|<id>' whose sealed text was not opened: tried again by the next build
}

interface OpenedUpload {
  record: ClinicalRecord;
  tried: string; // which keys were held when it was tried: tried again when that changes
}

// Every text this device opened, kept for the next build: one set, dropped whole when the signed-in user changes or the
// demo data is reset (forget), so nothing opened for one user is held for the next.
function openedCaches() {
  return {
    uploads: new Map<string, OpenedUpload>(), // record id -> what was opened of it: records never change
    texts: new Map<string, string>(), // `${reader}|${record id}` -> a reason or note opened for that reader
    readableOf: new WeakMap<Snapshot, Map<string, Promise<LedgerState>>>(),
    builtOf: new WeakMap<Snapshot, Map<string, LedgerState>>(), // the builds of readableOf that are done
    // a projection's entry -> its opened copy: every build lists every record, and most were opened alike before
    openedEntries: new WeakMap<RecordEntry, RecordEntry>(),
    lastBuilt: new Map<string, Built>(), // reader id -> their newest build
    titlesOf: new WeakMap<LedgerState, Map<number, string>>(),
  };
}

// the store's newest snapshot is all sealing reads of it (its type named here: store.ts imports what imports this)
export function createSealing(store: { current(): Snapshot }, session: SealingSession) {
  let caches = openedCaches();
  const recordOfDocument = new Map<string, string>(); // document id -> the upload naming it: a fact of the chain

  // What an upload is opened with here: a change (a key came, a file was deleted) opens it again.
  function keysFor(s: Snapshot, record: ClinicalRecord): string {
    const documents = s.verified.state.documents;
    let held = 0;
    let deleted = 0;
    for (const file of record.files) {
      if (s.keys.has(file.documentId)) held++;
      if (documents.get(file.documentId)?.deletedAt) deleted++;
    }
    return `${record.sealed && s.summaryKeys.has(record.sealed.key) ? 1 : 0}|${held}|${deleted}`;
  }

  type Caches = ReturnType<typeof openedCaches>; // a build reads and fills the set it started with

  // Opens a sealed upload with the keys this device holds (`tried`: keysFor), and keeps it for the next build.
  async function openUpload(c: Caches, s: Snapshot, record: ClinicalRecord, tried: string): Promise<ClinicalRecord> {
    const sealed = record.sealed;
    if (!sealed) return record;
    const summary = s.summaryKeys.get(sealed.key);
    const documents = s.verified.state.documents;
    const opened = summary
      ? await openClinicalRecord(record as SealedClinicalRecord, new Map([[sealed.key, summary.key]]), s.keys)
      : null;
    const unnamed = (file: ChainFile): ChainFile => ({
      ...file,
      name: documents.get(file.documentId)?.deletedAt ? DELETED_FILE : SEALED_FILE,
    });
    const shown: ClinicalRecord = opened
      ? { ...opened.record, files: opened.record.files.map((file, i) => (opened.filesOpened[i] ? file : unnamed(file))) }
      : { ...record, title: SEALED_TITLE, description: SEALED_TEXT, files: record.files.map(unnamed) };
    c.uploads.set(record.id, { record: shown, tried });
    return shown;
  }

  async function openText(
    c: Caches,
    reader: User | null,
    sealed: ReaderSealed,
    binding: SealBinding,
    field: 'reason' | 'note',
  ): Promise<string> {
    const privateKey = reader ? session.encryptionKey(reader.id) : undefined;
    const id = `${reader?.id ?? ''}|${binding.recordId}`;
    const known = c.texts.get(id);
    if (known !== undefined) return known;
    const opened = reader && privateKey ? await openFromReaders(sealed, reader.id, privateKey, binding) : null;
    const text = typeof opened?.[field] === 'string' ? opened[field] : null;
    if (text === null) return SEALED_TEXT; // not this reader's, or no key unlocked: tried again next time
    c.texts.set(id, text);
    return text;
  }

  // The verified projection with what `reader` may open on this device opened: upload titles, descriptions and file
  // names, and the reasons and notes sealed to them. Rules and writes never read it: they work on clear fields.
  // A grant or share with its sealed text opened for `reader`, and whether it opened (else it is tried again next build).
  async function openedGrant(c: Caches, reader: User | null, known: GrantState): Promise<{ value: GrantState; opened: boolean }> {
    if (!known.sealedReason) return { value: known, opened: true };
    const binding = {
      recordId: readerSealedRecordId(known.sealedReason),
      patientId: known.grant.patientId,
      type: 'emergency_access',
    };
    const reason = await openText(c, reader, known.sealedReason, binding, 'reason');
    return {
      value: { ...known, grant: { ...known.grant, reason } },
      opened: c.texts.has(`${reader?.id ?? ''}|${binding.recordId}`),
    };
  }

  async function openedShare(c: Caches, reader: User | null, known: ShareState): Promise<{ value: ShareState; opened: boolean }> {
    if (!known.sealedNote) return { value: known, opened: true };
    const binding = { recordId: readerSealedRecordId(known.sealedNote), patientId: known.share.patientId, type: 'access_shared' };
    const note = await openText(c, reader, known.sealedNote, binding, 'note');
    return {
      value: { ...known, share: { ...known.share, note } },
      opened: c.texts.has(`${reader?.id ?? ''}|${binding.recordId}`),
    };
  }

  // The uploads of `ids` opened with the keys `s` holds: each opened once per set of keys it was tried with.
  async function openAll(c: Caches, s: Snapshot, records: Iterable<ChainRecord>): Promise<Map<string, ClinicalRecord>> {
    const openedById = new Map<string, ClinicalRecord>();
    const toOpen: Promise<ClinicalRecord>[] = [];
    for (const record of records) {
      if (!('files' in record)) continue;
      for (const file of record.files) recordOfDocument.set(file.documentId, record.id);
      if (!record.sealed) continue;
      const tried = keysFor(s, record);
      const known = c.uploads.get(record.id);
      if (known?.tried === tried) openedById.set(record.id, known.record);
      else toOpen.push(openUpload(c, s, record, tried)); // all at once: the browser decrypts on several threads
    }
    for (const opened of await Promise.all(toOpen)) openedById.set(opened.id, opened);
    return openedById;
  }

  const openedWith =
    (c: Caches, openedById: ReadonlyMap<string, ClinicalRecord>) =>
    (entry: RecordEntry): RecordEntry => {
      const record = openedById.get(entry.record.id);
      if (!record) return entry;
      const known = c.openedEntries.get(entry);
      if (known?.record === record) return known;
      const made = { ...entry, record };
      c.openedEntries.set(entry, made);
      return made;
    };

  // A document as the screens read it: its name and type from its opened upload, when that upload is sealed.
  function openedDocument(state: LedgerState, openedById: ReadonlyMap<string, ClinicalRecord>, documentId: string) {
    const document = state.documents.get(documentId);
    const file = openedById.get(recordOfDocument.get(documentId) ?? '')?.files.find((each) => each.documentId === documentId);
    return document && file ? { ...document, fileName: file.name, fileType: file.type } : document;
  }

  // The verified projection with what `reader` may open on this device opened: upload titles, descriptions and file
  // names, and the reasons and notes sealed to them. Rules and writes never read it: they work on clear fields.
  // With `only`, just those uploads are opened and the others stay as the chain holds them (a first screen's build).
  async function fullBuild(c: Caches, s: Snapshot, reader: User | null, only?: Iterable<ChainRecord>): Promise<Built> {
    const state = s.verified.state;
    const openedById = await openAll(
      c,
      s,
      only ??
        (function* () {
          for (const entries of state.records.values()) for (const { record } of entries) yield record;
        })(),
    );
    const unopened = new Set<string>();
    const grants = state.grants.copy();
    for (const [id, known] of state.grants) {
      if (!known.sealedReason) continue;
      const { value, opened } = await openedGrant(c, reader, known);
      grants.set(id, value);
      if (!opened) unopened.add(`grant|${id}`);
    }
    const shares = state.shares.copy();
    for (const [id, known] of state.shares) {
      if (!known.sealedNote) continue;
      const { value, opened } = await openedShare(c, reader, known);
      shares.set(id, value);
      if (!opened) unopened.add(`share|${id}`);
    }
    const built = { source: s, unopened };
    if (openedById.size === 0) return { ...built, result: { ...state, grants, shares } };
    const opened = openedWith(c, openedById);
    const openedLists = (lists: SharedMap<string, RecordEntry[]>) =>
      new SharedMap([...lists].map(([patientId, entries]) => [patientId, entries.map(opened)] as const));
    // maps of their own, changed in place: most of their entries change, which a shared copy would fold in again and again
    const openedUploads = new SharedMap(state.uploads);
    const documents = new SharedMap(state.documents);
    for (const record of openedById.values()) {
      const upload = state.uploads.get(record.id);
      if (upload) openedUploads.set(record.id, opened(upload));
      for (const file of record.files) {
        const document = documents.get(file.documentId);
        if (document) documents.set(file.documentId, { ...document, fileName: file.name, fileType: file.type });
      }
    }
    const records = openedLists(state.records);
    const medicalRecords = openedLists(state.medicalRecords);
    return { ...built, result: { ...state, records, medicalRecords, uploads: openedUploads, documents, grants, shares } };
  }

  // Whether `s` only appended blocks to what `last` was built from, with the same summary keys: its lists are the old
  // ones with entries added (the fold copies a list and appends to it), so only what changed is opened again.
  function appendsTo(last: Built, s: Snapshot): boolean {
    const before = last.source;
    if (s.invalid || before.invalid || !sameSummaryKeys(s.summaryKeys, before.summaryKeys)) return false;
    const [old, now] = [before.verified.state, s.verified.state];
    if (now.height < old.height || s.blocks.length !== now.height || before.blocks.length !== old.height) return false;
    for (const [lists, newLists] of [
      [old.records, now.records],
      [old.medicalRecords, now.medicalRecords],
    ] as const)
      for (const [patientId, list] of lists) {
        const newer = newLists.get(patientId);
        if (!newer || newer.length < list.length || newer[0] !== list[0] || newer[list.length - 1] !== list[list.length - 1])
          return false;
      }
    return true;
  }

  // The build of `s` from the build of a snapshot it appends to: the new blocks' uploads, grants and shares, the
  // uploads whose file keys came or went or whose files were deleted, and the texts not opened yet, opened anew.
  async function extend(c: Caches, last: Built, s: Snapshot, reader: User | null): Promise<Built> {
    const before = last.source;
    const [old, state] = [before.verified.state, s.verified.state];
    const previous = last.result;
    const changedDocuments = new Set<string>();
    if (s.keys !== before.keys) {
      for (const [id, key] of s.keys) if (before.keys.get(id) !== key) changedDocuments.add(id);
      for (const id of before.keys.keys()) if (!s.keys.has(id)) changedDocuments.add(id);
    }
    const grantIds = new Set<string>();
    const shareIds = new Set<string>();
    const records: ClinicalRecord[] = []; // new uploads and the uploads opened again
    for (const block of s.blocks.slice(old.height)) {
      const record = block.data;
      if ('files' in record) records.push(record);
      if (record.type === 'document_deleted') changedDocuments.add(record.documentId);
      if (record.type === 'emergency_access') grantIds.add(record.emergency.grantId);
      if (record.type === 'access_acknowledged') for (const id of record.grantIds) grantIds.add(id);
      if (record.type === 'access_shared') shareIds.add(record.share.shareId);
    }
    const reopened = new Set<string>(); // ids of uploads built before that are opened again
    for (const documentId of changedDocuments) {
      const recordId = recordOfDocument.get(documentId);
      const upload = recordId === undefined ? undefined : state.uploads.get(recordId);
      if (upload && 'files' in upload.record && old.uploads.has(upload.record.id)) {
        reopened.add(upload.record.id);
        records.push(upload.record);
      }
    }
    const openedById = await openAll(c, s, records);
    const opened = openedWith(c, openedById);

    const openedLists = (
      lists: SharedMap<string, RecordEntry[]>,
      oldLists: SharedMap<string, RecordEntry[]>,
      shown: SharedMap<string, RecordEntry[]>,
    ) => {
      const result = shown.copy();
      for (const [patientId, list] of lists) {
        const oldList = oldLists.get(patientId) ?? [];
        const shownList = shown.get(patientId) ?? [];
        if (list === oldList && reopened.size === 0) continue;
        const added = list.slice(oldList.length).map(opened);
        const kept =
          reopened.size === 0
            ? shownList
            : shownList.map((entry, i) => (reopened.has(entry.record.id) ? opened(list[i]) : entry));
        result.set(patientId, kept.concat(added));
      }
      return result;
    };

    const openedUploads = previous.uploads.copy();
    const documents = previous.documents.copy();
    for (const record of records) {
      const upload = state.uploads.get(record.id);
      if (upload) openedUploads.set(record.id, opened(upload));
      for (const file of record.files) changedDocuments.add(file.documentId);
    }
    for (const documentId of changedDocuments) {
      const document = openedDocument(state, openedById, documentId);
      if (document) documents.set(documentId, document);
    }

    const unopened = new Set<string>();
    for (const key of last.unopened) (key.startsWith('grant|') ? grantIds : shareIds).add(key.slice(6));
    const grants = previous.grants.copy();
    for (const id of grantIds) {
      const known = state.grants.get(id);
      if (!known) continue;
      const { value, opened: done } = await openedGrant(c, reader, known);
      grants.set(id, value);
      if (!done) unopened.add(`grant|${id}`);
    }
    const shares = previous.shares.copy();
    for (const id of shareIds) {
      const known = state.shares.get(id);
      if (!known) continue;
      const { value, opened: done } = await openedShare(c, reader, known);
      shares.set(id, value);
      if (!done) unopened.add(`share|${id}`);
    }
    return {
      source: s,
      unopened,
      result: {
        ...state,
        records: openedLists(state.records, old.records, previous.records),
        medicalRecords: openedLists(state.medicalRecords, old.medicalRecords, previous.medicalRecords),
        uploads: openedUploads,
        documents,
        grants,
        shares,
      },
    };
  }

  // Every write publishes a snapshot and its answer reads it: built from the reader's last build when `s` appends to
  // it (the cost of what changed), else from the whole projection.
  async function build(c: Caches, s: Snapshot, reader: User | null): Promise<LedgerState> {
    const id = reader?.id ?? '';
    const last = c.lastBuilt.get(id);
    const built = last && appendsTo(last, s) ? await extend(c, last, s, reader) : await fullBuild(c, s, reader);
    if ((c.lastBuilt.get(id)?.source.verified.state.height ?? -1) <= s.verified.state.height) c.lastBuilt.set(id, built);
    const done = c.builtOf.get(s) ?? new Map<string, LedgerState>();
    c.builtOf.set(s, done.set(id, built.result));
    return built.result;
  }

  // The state the screens of `reader` read, built once per published snapshot and reader.
  function readable(reader: User | null): Promise<LedgerState> {
    const c = caches;
    const s = store.current();
    const byReader = c.readableOf.get(s) ?? new Map<string, Promise<LedgerState>>();
    c.readableOf.set(s, byReader);
    const id = reader?.id ?? '';
    let state = byReader.get(id);
    if (!state) {
      state = build(c, s, reader);
      byReader.set(id, state);
      state.catch(() => byReader.delete(id));
    }
    return state;
  }

  // The state a first screen reads: only the uploads `shown` picks opened (with every grant's and share's text), when
  // `readable` would open every upload of the ledger; the whole build follows in the next task, for the next screen.
  // Where a build is done or cheap (it extends the reader's last one), it is that build; one under way is not waited for.
  async function readableShowing(
    reader: User | null,
    shown: (state: LedgerState) => Iterable<ChainRecord>,
  ): Promise<LedgerState> {
    const c = caches;
    const s = store.current();
    const id = reader?.id ?? '';
    const done = c.builtOf.get(s)?.get(id);
    if (done) return done;
    const last = c.lastBuilt.get(id);
    if (last && appendsTo(last, s)) return readable(reader);
    const first = await fullBuild(c, s, reader, shown(s.verified.state));
    setTimeout(() => {
      if (caches === c && store.current() === s) readable(reader).catch(() => undefined);
    }, 0);
    return first.result;
  }

  // Drops every text opened here (the signed-in user changed, or the demo data was reset). A build under way keeps
  // filling the set it started with, which nothing reads any more.
  function forget(): void {
    caches = openedCaches();
  }

  // Block index -> each upload's title as `reader` reads it here (the explorer's rows show it for sealed blocks).
  async function openedTitles(reader: User | null): Promise<ReadonlyMap<number, string>> {
    const { titlesOf } = caches;
    const state = await readable(reader);
    let titles = titlesOf.get(state);
    if (!titles) {
      titles = new Map();
      for (const entries of state.records.values())
        for (const { index, record } of entries) {
          if (!('files' in record)) continue;
          titles.set(index, record.title);
          const resealedIn = state.resealed.get(record.id);
          if (resealedIn !== undefined) titles.set(resealedIn, record.title); // a re-sealing holds no text in clear
        }
      titlesOf.set(state, titles);
    }
    return titles;
  }

  return { sealUploads, sealForPair, readable, readableShowing, forget, openedTitles, clearUploads, resealings };
}

export type Sealing = ReturnType<typeof createSealing>;
