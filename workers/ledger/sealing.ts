// A patient's medical text sealed before it is written, and opened for the signed-in reader
// (docs/decisions/nothing-medical-in-clear.md): the chain keeps only clear fields, the screens read what this device
// may open. Keys never cross the worker boundary.
import { iso } from '../core/ledger-records';
import type { LedgerState, RecordEntry } from '../core/ledger-state';
import {
  createSummaryKey,
  openClinicalRecord,
  openFromReaders,
  readerSealedRecordId,
  rotationDue,
  sealClinicalRecord,
  sealToReaders,
  type ReaderSealed,
  type SealBinding,
  type SealedClinicalRecord,
  type SummaryKey,
} from '../core/sealed-fields';
import { SharedMap } from '../core/shared-map';
import type { ChainFile, ChainRecord, ClinicalRecord, ResealedRecord, User } from '../core/types';
import type { Snapshot } from './snapshot';
import type { LedgerStore } from './store';

// What a reader sees of a record whose key has not reached this device (or that is not theirs to open).
export const SEALED_TITLE = 'Sealed record (its key is not on this device)';
export const SEALED_FILE = 'Sealed file';
export const DELETED_FILE = 'Deleted file'; // its name was sealed under its key, which the deletion dropped
export const SEALED_TEXT = '(sealed)';

export interface SealingSession {
  encryptionKey: (userId: string) => CryptoKey | undefined;
}

interface OpenedUpload {
  record: ClinicalRecord;
  tried: string; // which keys were held when it was tried: tried again when that changes
}

// The summary key an upload of `patientId` is sealed under at `now`: their newest epoch, when this device holds its
// key and no reader lost access since it began; else null, and a new epoch is announced first.
function currentSummaryKey(s: Snapshot, patientId: string, now: number): SummaryKey | null {
  const state = s.verified.state;
  const newest = state.summaryEpochs.get(patientId)?.at(-1);
  const held = newest && s.summaryKeys.get(newest.epochId);
  return held && !rotationDue(state, patientId, Date.parse(newest.at), now) ? held : null;
}

export function createSealing(store: LedgerStore, session: SealingSession) {
  const uploads = new Map<string, OpenedUpload>(); // record id -> what was opened of it: records never change
  const texts = new Map<string, string>(); // `${reader}|${record id}` -> a reason or note opened for that reader
  const readableOf = new WeakMap<Snapshot, Map<string, Promise<LedgerState>>>();
  // a projection's entry -> its opened copy: every build lists every record, and most were opened alike before
  const openedEntries = new WeakMap<RecordEntry, RecordEntry>();

  // `records` (uploads of `patientId`) with their text sealed under the patient's current summary key, or under a new
  // one when none this device holds is current (the first upload sealed under it announces it); the new key is
  // stored with them. A ledger made before keys travelled keeps its uploads in clear (no reader could get the key).
  async function sealUploads(
    s: Snapshot,
    patientId: string,
    records: readonly ClinicalRecord[],
    documentKeys: ReadonlyMap<string, string>,
    at: number,
  ): Promise<{ records: ChainRecord[]; summaryKeys: SummaryKey[] }> {
    if (!s.verified.state.enrolment?.encryption) return { records: [...records], summaryKeys: [] };
    const held = currentSummaryKey(s, patientId, at);
    const summary = held ?? (await createSummaryKey(patientId));
    const sealed = await Promise.all(records.map((record) => sealClinicalRecord(record, summary, documentKeys)));
    return { records: sealed, summaryKeys: held ? [] : [summary] };
  }

  // `patientId`'s uploads written in clear before sealing that this device can re-seal (it holds every live file's
  // key), oldest first.
  function clearUploads(s: Snapshot, patientId: string): RecordEntry[] {
    const state = s.verified.state;
    if (!state.enrolment?.encryption) return []; // no reader could be given a key: sealing would lock them out
    return (state.records.get(patientId) ?? []).filter(({ record }) => {
      if (record.type !== 'prescription' && record.type !== 'test_report') return false;
      if (record.sealed || state.resealed.has(record.id)) return false;
      return record.files.every((file) => state.documents.get(file.documentId)?.deletedAt || s.keys.has(file.documentId));
    });
  }

  // The re-sealings of `patientId`'s clear uploads on `s`, under their current summary key (or a new one, stored
  // with them). Each names the clear block it re-seals; the clear block stays on the chain.
  async function resealings(
    s: Snapshot,
    patientId: string,
    at: number,
    newId: () => string,
  ): Promise<{ records: ResealedRecord[]; summaryKeys: SummaryKey[] }> {
    const clear = clearUploads(s, patientId);
    if (clear.length === 0) return { records: [], summaryKeys: [] };
    const held = currentSummaryKey(s, patientId, at);
    const summary = held ?? (await createSummaryKey(patientId));
    const state = s.verified.state;
    const records = await Promise.all(
      clear.map(async ({ record, hash }): Promise<ResealedRecord> => {
        const upload = record as ClinicalRecord;
        const live = upload.files.filter((file) => !state.documents.get(file.documentId)?.deletedAt); // a deleted name goes
        const sealed = await sealClinicalRecord({ ...upload, files: live }, summary, s.keys);
        return {
          id: newId(),
          type: 'resealed',
          patientId,
          doctorId: upload.doctorId,
          title: '',
          description: '',
          timestamp: iso(at),
          supersedes: upload.id,
          supersedesBlock: hash,
          sealed: sealed.sealed,
          fileParts: sealed.files.map((file) => ({ documentId: file.documentId, sealed: file.sealed })),
        };
      }),
    );
    return { records, summaryKeys: held ? [] : [summary] };
  }

  // A grant's reason or a share's note sealed to the patient and the doctor alone; null on a ledger that enrols no
  // encryption keys (it stays in clear there).
  async function sealForPair(
    state: LedgerState,
    binding: SealBinding,
    fields: object,
    doctorId: string,
    from: string,
  ): Promise<ReaderSealed | null> {
    const enrolled = state.enrolment?.encryption;
    const patientKey = enrolled?.[binding.patientId];
    const doctorKey = enrolled?.[doctorId];
    if (!patientKey || !doctorKey) return null;
    const readers = [
      { id: binding.patientId, publicKey: patientKey },
      { id: doctorId, publicKey: doctorKey },
    ];
    return sealToReaders(binding, fields, readers, from);
  }

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

  // Opens a sealed upload with the keys this device holds (`tried`: keysFor), and keeps it for the next build.
  async function openUpload(s: Snapshot, record: ClinicalRecord, tried: string): Promise<ClinicalRecord> {
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
    uploads.set(record.id, { record: shown, tried });
    return shown;
  }

  async function openText(
    reader: User | null,
    sealed: ReaderSealed,
    binding: SealBinding,
    field: 'reason' | 'note',
  ): Promise<string> {
    const privateKey = reader ? session.encryptionKey(reader.id) : undefined;
    const id = `${reader?.id ?? ''}|${binding.recordId}`;
    const known = texts.get(id);
    if (known !== undefined) return known;
    const opened = reader && privateKey ? await openFromReaders(sealed, reader.id, privateKey, binding) : null;
    const text = typeof opened?.[field] === 'string' ? opened[field] : null;
    if (text === null) return SEALED_TEXT; // not this reader's, or no key unlocked: tried again next time
    texts.set(id, text);
    return text;
  }

  // The verified projection with what `reader` may open on this device opened: upload titles, descriptions and file
  // names, and the reasons and notes sealed to them. Rules and writes never read it: they work on clear fields.
  async function build(s: Snapshot, reader: User | null): Promise<LedgerState> {
    const state = s.verified.state;
    const openedById = new Map<string, ClinicalRecord>();
    const toOpen: Promise<ClinicalRecord>[] = [];
    for (const entries of state.records.values())
      for (const { record } of entries) {
        if (!('files' in record) || !record.sealed) continue;
        const tried = keysFor(s, record);
        const known = uploads.get(record.id);
        if (known?.tried === tried) openedById.set(record.id, known.record);
        else toOpen.push(openUpload(s, record, tried)); // all at once: the browser decrypts on several threads
      }
    for (const opened of await Promise.all(toOpen)) openedById.set(opened.id, opened);
    const grants = state.grants.copy();
    for (const [id, known] of state.grants) {
      if (!known.sealedReason) continue;
      const recordId = readerSealedRecordId(known.sealedReason);
      const binding = { recordId, patientId: known.grant.patientId, type: 'emergency_access' };
      grants.set(id, {
        ...known,
        grant: { ...known.grant, reason: await openText(reader, known.sealedReason, binding, 'reason') },
      });
    }
    const shares = state.shares.copy();
    for (const [id, known] of state.shares) {
      if (!known.sealedNote) continue;
      const binding = {
        recordId: readerSealedRecordId(known.sealedNote),
        patientId: known.share.patientId,
        type: 'access_shared',
      };
      shares.set(id, { ...known, share: { ...known.share, note: await openText(reader, known.sealedNote, binding, 'note') } });
    }
    if (openedById.size === 0) return { ...state, grants, shares };
    const opened = (entry: RecordEntry): RecordEntry => {
      const record = openedById.get(entry.record.id);
      if (!record) return entry;
      const known = openedEntries.get(entry);
      if (known?.record === record) return known;
      const made = { ...entry, record };
      openedEntries.set(entry, made);
      return made;
    };
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
    return { ...state, records, medicalRecords, uploads: openedUploads, documents, grants, shares };
  }

  // The state the screens of `reader` read, built once per published snapshot and reader.
  function readable(reader: User | null): Promise<LedgerState> {
    const s = store.current();
    const byReader = readableOf.get(s) ?? new Map<string, Promise<LedgerState>>();
    readableOf.set(s, byReader);
    const id = reader?.id ?? '';
    let state = byReader.get(id);
    if (!state) {
      state = build(s, reader);
      byReader.set(id, state);
      state.catch(() => byReader.delete(id));
    }
    return state;
  }

  // Block index -> each upload's title as `reader` reads it here (the explorer's rows show it for sealed blocks).
  const titlesOf = new WeakMap<LedgerState, Map<number, string>>();
  async function openedTitles(reader: User | null): Promise<ReadonlyMap<number, string>> {
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

  return { sealUploads, sealForPair, readable, openedTitles, clearUploads, resealings };
}

export type Sealing = ReturnType<typeof createSealing>;
