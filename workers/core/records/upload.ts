// An upload: a prescription or a test report and its files. Its text, its own date and its files' names and types are
// sealed (docs/decisions/nothing-medical-in-clear.md); it keeps in clear only the fields listed here.
import { ACCEPTED_EXTENSIONS, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from '../constants';
import { DOCTORS, PATIENTS } from '../directory';
import { fileTypeProblem } from '../file-types';
import type { LedgerState, RecordEntry } from '../ledger-state';
import { isDocumentDate } from '../ledger-time';
import { DOCUMENT_KEY, isSealedPart } from '../sealed-parts';
import { checkFileName, checkText, fileNameMessage } from '../text-input';
import type { ClinicalRecord, SealedClinicalRecord } from '../types';
import type { RecordKind } from './kind';
import { BASE, clearTextIn, count, listOf, nonEmpty, optional, shaped, text, type SealedShape } from './shape';
import { announceEpoch, epochsOpenTo, hasSealed, push } from './state-lists';

const CID_V0 = /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/;

// a sealed file's name is '' in clear (docs/decisions/nothing-medical-in-clear.md); a clear one's is checked by the rules
export const FILE: SealedShape = {
  shape: {
    documentId: nonEmpty,
    name: text,
    type: text,
    size: count,
    cid: nonEmpty,
    sealed: optional(isSealedPart),
  },
  clear: {
    documentId: 'names the file to its key, its bytes, deletions, reads and re-sealings',
    size: "the rules bound a file's size; the screens show it before the file is opened",
    cid: 'the IPFS content id of the encrypted bytes: storage and sync fetch and check them by it',
    sealed: 'the name and type, sealed under the file’s document key',
  },
};

// An upload's kind, with its files': a test passes one with a field added (tests/unit/sealed-by-default.test.ts).
export type UploadKind = SealedShape & { file: SealedShape };
export type UploadRecordKind = RecordKind<ClinicalRecord> & UploadKind;

export const UPLOAD: UploadRecordKind = {
  author: (record) => record.patientId,
  fhir: {
    prescription: { loinc: '57833-6', display: 'Prescription for medication', label: 'Prescription' },
    test_report: { loinc: '11502-2', display: 'Laboratory report', label: 'Test report' },
  },
  rule: (state, record, { index }) => clinicalProblem(state, record, index),
  fold: foldClinical,
  file: FILE,
  shape: {
    ...BASE,
    type: text,
    files: listOf(shaped(FILE.shape)),
    documentDate: optional(isDocumentDate),
    sealed: optional(isSealedPart),
  },
  clear: {
    id: 'binds the sealed part to this record; re-sealings and reads name it',
    patientId: 'whose summary key seals it; access and the rules read it',
    doctorId: "the rules check it is the patient's doctor; access reads it",
    type: 'binds the sealed part to its kind; the rules and the FHIR export tell a prescription from a test report',
    timestamp: 'orders the record on the chain, and the first upload under a summary key starts its epoch',
    files: "each file's clear fields (an upload's file, below); the rest of a file is sealed under its own key",
    sealed: 'the sealed fields, under the patient’s summary key',
  },
  opens: { documentDate: text }, // sealed as the import gave it: a date, or a date and time
};

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

export function clinicalProblem(state: LedgerState, record: ClinicalRecord, index: number): string | null {
  if (index === 0) {
    if (record.type !== 'diagnosis' || record.files.length !== 0) return 'the genesis block must be a diagnosis without files';
    const enrolled = record.enrolment?.users ?? {};
    if (![...PATIENTS, ...DOCTORS].every((user) => Object.hasOwn(enrolled, user.id)))
      return 'the genesis block must enrol a key for every listed user';
    // a ledger made before keys travelled enrols no encryption keys; one that does enrols them for everyone
    const consents = Object.keys(record.setupConsents ?? {});
    if (!consents.every((id) => PATIENTS.some((patient) => patient.id === id))) return 'a setup consent names no listed patient';
    const encryption = record.enrolment?.encryption;
    return encryption === undefined || [...PATIENTS, ...DOCTORS].every((user) => Object.hasOwn(encryption, user.id))
      ? null
      : 'the genesis block must enrol an encryption key for every listed user';
  }
  if (record.type === 'diagnosis') return 'a diagnosis record may only open the chain';
  if (record.setupConsents !== undefined) return 'only the genesis block records setup consents';
  const patient = PATIENTS.find((candidate) => candidate.id === record.patientId);
  if (!patient) return 'an upload names no listed patient';
  if (record.doctorId !== (patient.doctorId ?? '')) return "an upload names a doctor other than the patient's";
  const sealed = record.sealed !== undefined;
  const textProblem = sealed
    ? sealedUploadProblem(record as SealedClinicalRecord, epochsOpenTo(state, record.patientId, record.sealed?.key ?? ''))
    : clearUploadTextProblem(state, record);
  if (textProblem) return textProblem;
  if (record.files.length === 0 || record.files.length > MAX_FILES_PER_UPLOAD) {
    return `an upload must hold 1 to ${MAX_FILES_PER_UPLOAD} files`;
  }
  const seen = new Set<string>();
  for (const file of record.files) {
    if (state.documents.has(file.documentId) || seen.has(file.documentId)) {
      return `document ${file.documentId} is already named by another record`;
    }
    seen.add(file.documentId);
    if (!sealed) {
      const name = checkFileName(file.name).problem;
      if (name) return fileNameMessage(name);
      if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(extensionOf(file.name)))
        return `"${file.name}" is not an accepted file type`;
      const typeProblem = fileTypeProblem(file.name, file.type);
      if (typeProblem) return typeProblem;
    }
    // a sealed file's name is '' in clear: its messages name the document
    const named = sealed ? `document ${file.documentId}` : `"${file.name}"`;
    if (file.size < 1 || file.size > MAX_FILE_BYTES) return `${named} has a size outside 1 byte to 10 MB`;
    if (!CID_V0.test(file.cid)) return `${named} has no valid content id`;
  }
  return null;
}

// An upload in clear: legal only before its patient announced an epoch, under the upload's own rules (text-input.ts);
// names and text stored before NFC was applied stay legal.
function clearUploadTextProblem(state: LedgerState, record: ClinicalRecord): string | null {
  if (hasSealed(state, record.patientId)) return 'an upload after sealing holds text in clear';
  if (record.title !== record.title.trim() || checkText('title', record.title).problem) return 'an upload has no valid title';
  return checkText('description', record.description).problem ? 'an upload has no valid description' : null;
}

// What the chain's rules will ask of an upload once its patient announced a summary epoch (`epochs`: the ones they
// announced before it), from its clear fields alone: no text in clear, and every part under a key it may name.
export function sealedUploadProblem(
  record: SealedClinicalRecord,
  epochs: ReadonlySet<string>,
  kind: UploadKind = UPLOAD,
): string | null {
  const clearText = clearTextIn(kind, record) || record.files.some((file) => clearTextIn(kind.file, file));
  if (clearText || !isSealedPart(record.sealed)) return 'an upload after sealing holds text in clear';
  if (!epochs.has(record.sealed.key)) return 'an upload is sealed under an epoch its patient did not announce';
  return record.files.every((file) => isSealedPart(file.sealed) && file.sealed.key === DOCUMENT_KEY)
    ? null
    : "a file of a sealed upload is not sealed under its document's key";
}

// The genesis and every upload: listed with the patient's records, their files become documents.
export function foldClinical(state: LedgerState, record: ClinicalRecord, entry: RecordEntry): void {
  const { index } = entry;
  if (index === 0) {
    state.enrolment = record.enrolment ?? null;
    for (const [patientId, on] of Object.entries(record.setupConsents ?? {}))
      state.careConsent.set(patientId, { on, at: record.timestamp, bySetup: true });
  }
  push(state.records, record.patientId, entry);
  push(state.medicalRecords, record.patientId, entry);
  state.uploads.set(record.id, entry);
  if (record.sealed) announceEpoch(state, record.patientId, record.sealed.key, entry);
  for (const file of record.files) {
    state.documents.set(file.documentId, {
      id: file.documentId,
      fileName: file.name,
      fileType: file.type,
      fileSize: file.size,
      uploadDate: record.timestamp,
      ipfsHash: file.cid,
      patientId: record.patientId,
      doctorId: record.doctorId,
      isEncrypted: true,
      blockIndex: index,
    });
  }
}
