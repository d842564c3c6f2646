// A patient's medical text opened for the signed-in reader (docs/decisions/nothing-medical-in-clear.md): the chain keeps
// only clear fields, the screens read what this device may open (one text opened: ./sealed-opening.ts); sealing before
// a write is in ./seal-writes.ts. Keys never cross the worker boundary.
import type { LedgerState, RecordEntry } from '../core/ledger-state';
import type { SummaryKey } from '../core/sealed-fields';
import { SharedMap } from '../core/shared-map';
import { clearUploads, resealings, sealForPair, sealUploads } from './seal-writes';
import {
  createOpening,
  openedCaches,
  WHOLE_BUILD_OPENINGS,
  type Built,
  type Caches,
  type SealingSession,
} from './sealed-opening';
import type { ChainRecord, ClinicalRecord, User } from '../core/types';
import type { Snapshot } from './snapshot';

export { SEALED_TEXT, SEALED_TITLE, type SealingSession } from './sealed-opening';
export { DELETED_FILE, SEALED_FILE } from './views'; // the names sealing gives the files it cannot open

// The same summary keys held (a write publishes its own copy of them): a new one may open any older upload.
function sameSummaryKeys(a: ReadonlyMap<string, SummaryKey>, b: ReadonlyMap<string, SummaryKey>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [epochId, summary] of a) if (b.get(epochId)?.key !== summary.key) return false;
  return true;
}

// the store's newest snapshot is all sealing reads of it (its type named here: store.ts imports what imports this)
export function createSealing(store: { current(): Snapshot }, session: SealingSession) {
  let caches = openedCaches();
  const { recordOfDocument, openAll, openedWith, openedGrant, openedShare, openedDocument } = createOpening(session);

  // The verified projection with what `reader` may open on this device opened: upload titles, descriptions and file
  // names, and the reasons and notes sealed to them. Rules and writes never read it: they work on clear fields.
  // With `only`, just those uploads are opened and the others stay as the chain holds them (a first screen's build).
  async function fullBuild(c: Caches, s: Snapshot, reader: User | null, only?: Iterable<ChainRecord>): Promise<Built> {
    const state = s.verified.state;
    const every = function* () {
      // newest first: the pages a reader turns to next are opened first
      for (const entries of state.records.values()) for (let i = entries.length - 1; i >= 0; i--) yield entries[i].record;
    };
    const openedById = await (only ? openAll(c, s, only) : openAll(c, s, every(), WHOLE_BUILD_OPENINGS));
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

  // The state a first screen or a page of records reads: only the uploads `shown` picks opened (with every grant's and
  // share's text), when `readable` would open every upload of the ledger; the whole build follows in the next task, for
  // the next screen. Where a build is done or cheap (it extends the reader's last one), it is that build; one under way
  // is not waited for, but the uploads it is opening are (sealed-opening.ts, openOne).
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
