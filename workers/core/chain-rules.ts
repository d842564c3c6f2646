// The chain's rules: whether a block may follow the blocks before it, given the state they fold to
// (semantic verification). The first block that breaks one is named with it, like a block whose hash does not match.
import { accessScope, isShareActive, readCountText, sentCount, sentRecords, titledReadText } from './access';
import {
  ACCEPTED_EXTENSIONS,
  EMERGENCY_DURATIONS,
  MAX_FILE_BYTES,
  MAX_FILES_PER_UPLOAD,
  SHARE_DURATIONS_DAYS,
} from './constants';
import { DOCTORS, PATIENTS } from './directory';
import { fileTypeProblem } from './file-types';
import type { LedgerState } from './ledger-state';
import { grantExpiresAt, shareExpiresAt } from './ledger-time';
import { recordProblem, storedValueText } from './record-format';
import {
  DOCUMENT_KEY,
  readerSealedProblem,
  sealedUploadProblem,
  type ReaderSealed,
  type SealedClinicalRecord,
} from './sealed-fields';
import { authorOf } from './signatures';
import { checkFileName, checkText, fileNameMessage } from './text-input';
import type {
  AcknowledgementRecord,
  CareConsentRecord,
  Block,
  ChainRecord,
  ClinicalRecord,
  DeletionRecord,
  EmergencyRecord,
  ResealedRecord,
  ShareRecord,
} from './types';

const CID_V0 = /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/;

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

function clinicalProblem(state: LedgerState, record: ClinicalRecord, index: number): string | null {
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

// The epochs an upload of `patientId` sealed under `epochId` may name: theirs so far, and `epochId` itself when no
// block named it before (the first upload sealed under an epoch announces it; projection.ts).
function epochsOpenTo(state: LedgerState, patientId: string, epochId: string): Set<string> {
  const theirs = new Set((state.summaryEpochs.get(patientId) ?? []).map((epoch) => epoch.epochId));
  const anyones = [...state.summaryEpochs.values()].some((epochs) => epochs.some((epoch) => epoch.epochId === epochId));
  return anyones ? theirs : theirs.add(epochId);
}

const hasSealed = (state: LedgerState, patientId: string) => (state.summaryEpochs.get(patientId) ?? []).length > 0;

// An upload in clear: legal only before its patient announced an epoch, under the upload's own rules (text-input.ts);
// names and text stored before NFC was applied stay legal.
function clearUploadTextProblem(state: LedgerState, record: ClinicalRecord): string | null {
  if (hasSealed(state, record.patientId)) return 'an upload after sealing holds text in clear';
  if (record.title !== record.title.trim() || checkText('title', record.title).problem) return 'an upload has no valid title';
  return checkText('description', record.description).problem ? 'an upload has no valid description' : null;
}

// A grant's reason or a share's note: sealed to exactly its patient and doctor (nothing of it in clear, the record's
// description included), or in clear and valid before the patient announced an epoch.
function readerTextProblem(
  state: LedgerState,
  record: EmergencyRecord | ShareRecord,
  text: string,
  sealed: ReaderSealed | undefined,
  field: 'reason' | 'note',
): string | null {
  const what = record.type === 'emergency_access' ? 'grant' : 'share';
  if (sealed !== undefined) {
    if (text !== '' || record.description !== '') return `a sealed ${what} holds its ${field} in clear`;
    return readerSealedProblem(sealed, record.patientId, record.doctorId, record.id);
  }
  if (hasSealed(state, record.patientId)) return `a ${what} after sealing holds its ${field} in clear`;
  return text !== text.trim() || checkText(field, text).problem ? `a ${what} has no valid ${field}` : null;
}

function emergencyProblem(state: LedgerState, record: EmergencyRecord, at: number): string | null {
  const details = record.emergency;
  if (!DOCTORS.some((doctor) => doctor.id === record.doctorId)) return 'an emergency access names no listed doctor';
  if (!PATIENTS.some((patient) => patient.id === record.patientId)) return 'an emergency access names no listed patient';
  if (details.endedBy !== undefined && details.event !== 'ended') return `${details.event} names who ended the grant`;
  if (details.sealedReason !== undefined && details.event !== 'granted') return `${details.event} carries a sealed reason`;
  const known = state.grants.get(details.grantId);
  if (details.event === 'granted') {
    if (known) return `grant ${details.grantId} was already granted`;
    if (!(EMERGENCY_DURATIONS as readonly number[]).includes(details.durationMinutes))
      return 'a grant has a duration that is not offered';
    const reason = readerTextProblem(state, record, details.reason, details.sealedReason, 'reason');
    if (reason) return reason;
    if (record.emergencyAccessExpiry !== grantExpiresAt(at, details.durationMinutes)) {
      return 'a grant expiry does not match its start and duration';
    }
    if (details.read !== undefined || details.documentId !== undefined) return 'a grant names a read';
    // an older grant of the pair was closed, or had expired by the time this newest one was granted
    const newest = state.grants.get(state.newestGrant.get(`${record.patientId}|${record.doctorId}`) ?? '');
    if (newest && !newest.closedBy && at < Date.parse(newest.grant.expiresAt)) {
      return 'a grant opens while the same doctor holds an open grant on the patient';
    }
    return null;
  }
  if (!known) return `${details.event} names grant ${details.grantId}, which was never granted`;
  const { grant } = known;
  if (
    grant.doctorId !== record.doctorId ||
    grant.patientId !== record.patientId ||
    grant.accessLevel !== details.accessLevel ||
    grant.reason !== details.reason ||
    grant.durationMinutes !== details.durationMinutes ||
    grant.expiresAt !== record.emergencyAccessExpiry
  ) {
    return `${details.event} does not match grant ${details.grantId} (doctor, patient, level, reason or expiry)`;
  }
  if (known.closedBy) return `${details.event} names grant ${details.grantId}, which had ${known.closedBy}`;
  const expired = at >= Date.parse(grant.expiresAt);
  if (details.event === 'expired') return expired ? null : 'an expiry is recorded before the grant expires';
  if (expired) return `${details.event === 'read' ? 'a read' : 'an end'} lies after the grant expired`;
  if (details.event === 'ended')
    return details.read === undefined && details.documentId === undefined ? null : 'an end names a read';
  return readProblem(state, grant, details);
}

// A read under a grant or a share covers no more than its level: the level's overview, or one stored document
// of the patient under full access.
function readProblem(
  state: LedgerState,
  access: { patientId: string; accessLevel: 'basic' | 'full' },
  read: { read?: string; documentId?: string },
): string | null {
  if (typeof read.read !== 'string') return 'a read does not say what was read';
  const scope = accessScope(access.accessLevel);
  if (read.documentId === undefined) {
    // the fixed text of chains written before reads named what was sent, the titled text written before titles were
    // sealed, or exactly the count this state sent
    // a full read's titled text is its count text, so only a basic read (5 records at most) lists what it sent
    const legal =
      read.read === scope.legacyRead ||
      read.read === readCountText(access.accessLevel, sentCount(state, access.patientId, access.accessLevel)) ||
      (access.accessLevel === 'basic' &&
        read.read === titledReadText(access.accessLevel, sentRecords(state, access.patientId, access.accessLevel)));
    return legal ? null : 'a read names more than its level covers';
  }
  if (!scope.documents) return 'a document read lies outside basic access';
  const document = state.documents.get(read.documentId);
  if (!document || document.patientId !== access.patientId || document.deletedAt) {
    return "a read names a document that is not one of the patient's stored documents";
  }
  return null;
}

function shareProblem(state: LedgerState, record: ShareRecord, at: number): string | null {
  const details = record.share;
  if (!DOCTORS.some((doctor) => doctor.id === record.doctorId)) return 'a share names no listed doctor';
  if (!PATIENTS.some((patient) => patient.id === record.patientId)) return 'a share names no listed patient';
  if (details.sealedNote !== undefined && details.event !== 'shared') return `${details.event} carries a sealed note`;
  const known = state.shares.get(details.shareId);
  if (details.event === 'shared') {
    if (known) return `share ${details.shareId} was already made`;
    if (!(SHARE_DURATIONS_DAYS as readonly number[]).includes(details.durationDays))
      return 'a share has a duration that is not offered';
    if (details.expiresAt !== (shareExpiresAt(at, details.durationDays) ?? ''))
      return 'a share expiry does not match its start and duration';
    const note = readerTextProblem(state, record, details.note, details.sealedNote, 'note');
    if (note) return note;
    return details.read === undefined && details.documentId === undefined ? null : 'a share names a read';
  }
  if (!known) return `${details.event} names share ${details.shareId}, which was never made`;
  const { share } = known;
  if (
    share.doctorId !== record.doctorId ||
    share.patientId !== record.patientId ||
    share.accessLevel !== details.accessLevel ||
    share.durationDays !== details.durationDays ||
    (share.expiresAt ?? '') !== details.expiresAt ||
    share.note !== details.note
  ) {
    return `${details.event} does not match share ${details.shareId} (doctor, patient, level, duration or note)`;
  }
  if (share.revokedAt !== undefined) return `${details.event} names share ${details.shareId}, which was revoked`;
  if (details.event === 'revoked')
    return details.read === undefined && details.documentId === undefined ? null : 'a revoke names a read';
  if (!isShareActive(share, at)) return 'a read lies after the share expired';
  return readProblem(state, share, details);
}

function deletionProblem(state: LedgerState, record: DeletionRecord): string | null {
  const document = state.documents.get(record.documentId);
  if (!document || document.patientId !== record.patientId || document.doctorId !== record.doctorId) {
    return "a deletion names a document that is not one of the patient's";
  }
  if (document.deletedAt) return 'a deletion names a document that was already deleted';
  // a sealed file's name is '' on the chain (projection.ts): its deletion names only the document id
  return document.fileName === '' && (record.title !== '' || record.description !== '')
    ? 'a deletion names a sealed file in clear'
    : null;
}

function acknowledgementProblem(state: LedgerState, record: AcknowledgementRecord): string | null {
  if (record.grantIds.length === 0 || new Set(record.grantIds).size !== record.grantIds.length) {
    return 'an acknowledgement must name distinct grants';
  }
  for (const id of record.grantIds) {
    const known = state.grants.get(id);
    if (!known || known.grant.patientId !== record.patientId)
      return "an acknowledgement names a grant that is not on the patient's records";
    if (known.acknowledged) return `grant ${id} was already acknowledged`;
  }
  return null;
}

function consentProblem(state: LedgerState, record: CareConsentRecord): string | null {
  if (!PATIENTS.some((patient) => patient.id === record.patientId)) return 'a consent names no listed patient';
  if (record.doctorId !== '') return 'a consent names a doctor';
  // a first choice may be off, the default: it records that the patient was asked
  return state.careConsent.get(record.patientId)?.on === record.careNetwork ? 'a consent repeats the choice in force' : null;
}

// A re-sealing: the patient's own upload written in clear, named by id and block, sealed once, with its text under
// an epoch the patient may name and exactly its live files' names under their document keys.
function resealProblem(state: LedgerState, record: ResealedRecord): string | null {
  const entry = state.uploads.get(record.supersedes);
  const upload = entry?.record.patientId === record.patientId ? entry.record : undefined;
  if (!entry || !upload || (upload.type !== 'prescription' && upload.type !== 'test_report'))
    return "a re-sealing names no upload of the patient's";
  if (upload.sealed) return 'a re-sealing names an upload that was sealed when written';
  if (entry.hash !== record.supersedesBlock) return "a re-sealing names another block than the upload's";
  if (state.resealed.has(upload.id)) return `upload ${upload.id} was already re-sealed`;
  if (record.doctorId !== upload.doctorId || record.title !== '' || record.description !== '')
    return 'a re-sealing holds text in clear';
  const epochs = epochsOpenTo(state, record.patientId, record.sealed.key);
  if (!epochs.has(record.sealed.key)) return 'a re-sealing is sealed under an epoch its patient did not announce';
  const live = upload.files.filter((file) => !state.documents.get(file.documentId)?.deletedAt).map((file) => file.documentId);
  const named = record.fileParts.map((part) => part.documentId);
  const parts = record.fileParts.every((part) => part.sealed.key === DOCUMENT_KEY);
  return parts && named.join('|') === live.join('|') ? null : "a re-sealing does not seal exactly the upload's live files";
}

// null when `block` may follow the blocks folded into `state`, else the rule it breaks.
export function ruleProblem(state: LedgerState, block: Block, index: number): string | null {
  return fixedRuleProblem(state, block) ?? stateRuleProblem(state, block, index);
}

// What a block breaks by itself, wherever a merge places it: its record's shape, its time, its author.
export function fixedRuleProblem(state: LedgerState, block: Block): string | null {
  const shape = recordProblem(block.data);
  if (shape) return shape;
  const record = block.data;
  if (record.timestamp !== block.timestamp) return 'the record time differs from the block time';
  // both are times as iso() writes them (record-format.ts), whose text sorts as their time does
  if (state.lastTimestamp !== '' && block.timestamp < state.lastTimestamp)
    return 'the timestamp goes back before the previous block';
  const author = authorOf(record);
  return block.author === author
    ? null
    : `author may not write this (${storedValueText(block.author)} signed what only ${author} may)`;
}

// What a block breaks given the blocks before it: a block written concurrently with one of them may break it
// only because of that block (projection.ts verifyLedger).
export function stateRuleProblem(state: LedgerState, block: Block, index: number): string | null {
  return kindProblem(state, block.data, index, Date.parse(block.timestamp));
}

function kindProblem(state: LedgerState, record: ChainRecord, index: number, at: number): string | null {
  switch (record.type) {
    case 'diagnosis':
    case 'prescription':
    case 'test_report':
      return clinicalProblem(state, record, index);
    case 'emergency_access':
      return emergencyProblem(state, record, at);
    case 'document_deleted':
      return deletionProblem(state, record);
    case 'access_acknowledged':
      return acknowledgementProblem(state, record);
    case 'access_shared':
      return shareProblem(state, record, at);
    case 'care_consent':
      return consentProblem(state, record);
    case 'resealed':
      return resealProblem(state, record);
  }
}
