// Opening one sealed text for the signed-in reader (docs/decisions/nothing-medical-in-clear.md): an upload's title,
// description and file names with the keys this device holds, a grant's reason or a share's note sealed to the reader,
// each kept in a set of caches for the next build. The builds of a whole projection from them are in ./sealing.ts.
import type { GrantState, LedgerState, RecordEntry, ShareState } from '../core/ledger-state';
import {
  openClinicalRecord,
  openFromReaders,
  readerSealedRecordId,
  type ReaderSealed,
  type SealBinding,
  type SealedClinicalRecord,
} from '../core/sealed-fields';
import type { ChainFile, ChainRecord, ClinicalRecord, User } from '../core/types';
import type { Snapshot } from './snapshot';
import { DELETED_FILE, SEALED_FILE } from './views';

// What a reader sees of a record whose key has not reached this device (or that is not theirs to open).
export const SEALED_TITLE = 'Sealed record (its key is not on this device)';
export const SEALED_TEXT = '(sealed)';

export interface SealingSession {
  encryptionKey: (userId: string) => CryptoKey | undefined;
}

// One build of the screens' projection for a reader: the snapshot it read, what it made, the texts it could not open.
export interface Built {
  source: Snapshot;
  result: LedgerState;
  unopened: Set<string>; // 'grant|<id>' or 'share|<id>' whose sealed text was not opened: tried again by the next build
}

interface OpenedUpload {
  record: ClinicalRecord;
  tried: string; // which keys were held when it was tried: tried again when that changes
}

interface Opening {
  tried: string;
  done: Promise<ClinicalRecord>;
}

// Uploads a whole build opens at once: WebCrypto runs its jobs in the order they were asked, so a build that asked for
// every upload at once would hold a page's few openings behind all of them.
export const WHOLE_BUILD_OPENINGS = 32;

// Every text this device opened, kept for the next build: one set, dropped whole when the signed-in user changes or the
// demo data is reset (forget), so nothing opened for one user is held for the next.
export function openedCaches() {
  return {
    uploads: new Map<string, OpenedUpload>(), // record id -> what was opened of it: records never change
    opening: new Map<string, Opening>(), // record id -> its opening under way: a second read waits for it
    texts: new Map<string, string>(), // `${reader}|${record id}` -> a reason or note opened for that reader
    readableOf: new WeakMap<Snapshot, Map<string, Promise<LedgerState>>>(),
    builtOf: new WeakMap<Snapshot, Map<string, LedgerState>>(), // the builds of readableOf that are done
    // a projection's entry -> its opened copy: every build lists every record, and most were opened alike before
    openedEntries: new WeakMap<RecordEntry, RecordEntry>(),
    lastBuilt: new Map<string, Built>(), // reader id -> their newest build
    titlesOf: new WeakMap<LedgerState, Map<number, string>>(),
  };
}

export type Caches = ReturnType<typeof openedCaches>; // a build reads and fills the set it started with

export function createOpening(session: SealingSession) {
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

  // One upload opened with the keys `s` holds: kept from before, the opening under way, or a new one.
  function openOne(c: Caches, s: Snapshot, record: ClinicalRecord, tried: string): ClinicalRecord | Promise<ClinicalRecord> {
    const known = c.uploads.get(record.id);
    if (known?.tried === tried) return known.record;
    const under = c.opening.get(record.id);
    if (under?.tried === tried) return under.done;
    const done = openUpload(c, s, record, tried).finally(() => {
      if (c.opening.get(record.id)?.done === done) c.opening.delete(record.id);
    });
    c.opening.set(record.id, { tried, done });
    return done;
  }

  // The uploads of `records` opened with the keys `s` holds: each opened once per set of keys it was tried with, at
  // most `atOnce` at a time (a whole build leaves WebCrypto's queue short for a screen's page asked meanwhile).
  async function openAll(
    c: Caches,
    s: Snapshot,
    records: Iterable<ChainRecord>,
    atOnce = Infinity,
  ): Promise<Map<string, ClinicalRecord>> {
    const openedById = new Map<string, ClinicalRecord>();
    const toOpen: [ClinicalRecord, string][] = [];
    for (const record of records) {
      if (!('files' in record)) continue;
      for (const file of record.files) recordOfDocument.set(file.documentId, record.id);
      if (!record.sealed) continue;
      const tried = keysFor(s, record);
      const known = c.uploads.get(record.id);
      if (known?.tried === tried) openedById.set(record.id, known.record);
      else toOpen.push([record, tried]);
    }
    let next = 0;
    const lane = async () => {
      while (next < toOpen.length) {
        const [record, tried] = toOpen[next++];
        openedById.set(record.id, await openOne(c, s, record, tried)); // the browser decrypts on several threads
      }
    };
    await Promise.all(Array.from({ length: Math.min(atOnce, toOpen.length) }, lane));
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

  return { recordOfDocument, openAll, openedWith, openedGrant, openedShare, openedDocument };
}
