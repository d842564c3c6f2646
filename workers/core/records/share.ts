// A share: the patient shares their records with one listed doctor, the doctor's reads under it, and its revoke. The
// note of a sealed share is sealed to the patient and the doctor alone (sealedNote).
import { SHARE_DURATIONS_DAYS } from '../constants';
import { DOCTORS, PATIENTS } from '../directory';
import { isShareActive } from '../access';
import type { LedgerState, RecordEntry } from '../ledger-state';
import { isLedgerTime, shareExpiresAt } from '../ledger-time';
import { isReaderSealed } from '../sealed-parts';
import type { ShareRecord } from '../types';
import type { RecordKind } from './kind';
import { readProblem, readerTextProblem } from './reads';
import { BASE, count, nonEmpty, oneOf, optional, shaped, text, type SealedShape } from './shape';
import { own, push } from './state-lists';

// A share's details: on a sealed share, sealing takes every field not listed as clear (today its note).
export const SHARE_DETAILS: SealedShape = {
  shape: {
    shareId: nonEmpty,
    event: oneOf('shared', 'revoked', 'read'),
    accessLevel: oneOf('basic', 'full'),
    durationDays: count,
    expiresAt: (value) => value === '' || isLedgerTime(value),
    note: text,
    read: optional(text),
    documentId: optional(nonEmpty),
    sealedNote: optional(isReaderSealed),
  },
  clear: {
    shareId: 'names the share its reads and revoke follow',
    event: 'shared, read or revoked: what the rules and the fold do with it',
    accessLevel: 'what a read under the share may send; the rules check each read against it',
    durationDays: 'with the start, gives the expiry the rules check',
    expiresAt: "the share's expiry ('' until revoked): a read after it is refused",
    read: "what a read sent, as the patient's access history shows it",
    documentId: 'the one document a read opened',
    sealedNote: 'the sealed fields, to the patient and the doctor alone',
  },
};

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
    const note = readerTextProblem(
      state,
      record,
      { kind: SHARE_DETAILS, value: details },
      details.note,
      details.sealedNote,
      'note',
    );
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

function applyShare(state: LedgerState, record: ShareRecord, entry: RecordEntry): void {
  const details = record.share;
  if (details.event === 'shared') {
    push(state.patientShares, record.patientId, details.shareId);
    push(state.doctorShares, record.doctorId, details.shareId);
    state.shares.set(details.shareId, {
      share: {
        id: details.shareId,
        patientId: record.patientId,
        doctorId: record.doctorId,
        accessLevel: details.accessLevel,
        durationDays: details.durationDays,
        note: details.note,
        createdAt: record.timestamp,
        expiresAt: details.expiresAt === '' ? null : details.expiresAt,
      },
      reads: [],
      ...(details.sealedNote ? { sealedNote: details.sealedNote } : {}),
    });
    return;
  }
  const known = own(state.shares, details.shareId);
  if (!known) return;
  if (details.event === 'revoked') known.share = { ...known.share, revokedAt: record.timestamp };
  else
    known.reads.push({
      at: record.timestamp,
      what: details.read ?? '',
      ...(details.documentId ? { documentId: details.documentId } : {}),
      block: entry.hash,
    });
}

export const SHARE: RecordKind<ShareRecord> = {
  shape: { ...BASE, type: text, share: shaped(SHARE_DETAILS.shape) },
  clear: {
    id: 'names the record its sealed note is bound to',
    patientId: 'whose records are shared; the rules and access read it',
    doctorId: 'who may read them; the rules and access read it',
    type: 'tells the rules and the fold what the record is',
    title: "names the event and the doctor (written by the app, no patient's text)",
    description: "what a read sent, as the patient's access history shows it; '' on a sealed share",
    timestamp: 'orders the event: a read must fall before the expiry and the revoke',
    share: "the share's details, clear as listed for them; on a sealed share sealing takes the rest",
  },
  author: (record) => (record.share?.event === 'read' ? record.doctorId : record.patientId),
  rule: (state, record, { at }) => shareProblem(state, record, at),
  fold: applyShare,
};
