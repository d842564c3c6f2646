// An emergency access: a grant a doctor opens on a patient, each read under it, its end and its expiry. The reason of a
// sealed grant is sealed to the patient and the doctor alone (sealedReason); everything else the rules need is in clear.
import { EMERGENCY_DURATIONS, LEDGER_AUTHOR } from '../constants';
import { DOCTORS, PATIENTS } from '../directory';
import type { LedgerState, RecordEntry } from '../ledger-state';
import { grantExpiresAt, isLedgerTime } from '../ledger-time';
import { isReaderSealed } from '../sealed-parts';
import type { EmergencyRecord } from '../types';
import type { RecordKind } from './kind';
import { readProblem, readerTextProblem } from './reads';
import { BASE, count, nonEmpty, oneOf, optional, shaped, text, type SealedShape } from './shape';
import { own, push } from './state-lists';

// A grant's details: on a sealed grant, sealing takes every field not listed as clear (today its reason).
export const GRANT_DETAILS: SealedShape = {
  shape: {
    grantId: nonEmpty,
    event: oneOf('granted', 'read', 'ended', 'expired'),
    accessLevel: oneOf('basic', 'full'),
    reason: text,
    durationMinutes: count,
    read: optional(text),
    documentId: optional(nonEmpty),
    endedBy: optional(oneOf('patient')),
    sealedReason: optional(isReaderSealed),
  },
  clear: {
    grantId: 'names the grant its reads, end and expiry follow',
    event: 'granted, read, ended or expired: what the rules and the fold do with it',
    accessLevel: 'what a read under the grant may send; the rules check each read against it',
    durationMinutes: 'with the start, gives the expiry the rules check',
    read: "what a read sent, as the patient's access history shows it",
    documentId: 'the one document a read opened: the sync server releases its key only against it',
    endedBy: 'who ended the grant: the patient or the doctor signs the end',
    sealedReason: 'the sealed fields, to the patient and the doctor alone',
  },
};

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
    const reason = readerTextProblem(
      state,
      record,
      { kind: GRANT_DETAILS, value: details },
      details.reason,
      details.sealedReason,
      'reason',
    );
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

function applyEmergency(state: LedgerState, record: EmergencyRecord, entry: RecordEntry): void {
  const details = record.emergency;
  if (details.event === 'granted') {
    push(state.records, record.patientId, entry); // a grant start is listed with the patient's records
    push(state.patientGrants, record.patientId, details.grantId);
    state.newestGrant.set(`${record.patientId}|${record.doctorId}`, details.grantId);
    state.grants.set(details.grantId, {
      grant: {
        id: details.grantId,
        patientId: record.patientId,
        doctorId: record.doctorId,
        accessLevel: details.accessLevel,
        reason: details.reason,
        durationMinutes: details.durationMinutes,
        expiresAt: record.emergencyAccessExpiry,
        createdAt: record.timestamp,
        isActive: true,
      },
      reads: [],
      acknowledged: false,
      ...(details.sealedReason ? { sealedReason: details.sealedReason } : {}),
    });
    return;
  }
  const known = own(state.grants, details.grantId);
  if (!known) return;
  if (details.event === 'read') {
    known.reads.push({
      at: record.timestamp,
      what: details.read ?? '',
      ...(details.documentId ? { documentId: details.documentId } : {}),
      block: entry.hash,
    });
    return;
  }
  known.closedBy = details.event;
  if (details.event === 'ended') known.endedBy = details.endedBy === 'patient' ? record.patientId : record.doctorId;
  known.grant = { ...known.grant, isActive: false, ...(details.event === 'ended' ? { endedAt: record.timestamp } : {}) };
}

export const EMERGENCY: RecordKind<EmergencyRecord> = {
  shape: {
    ...BASE,
    type: text,
    isEmergencyAccess: (value) => value === true,
    emergencyAccessExpiry: isLedgerTime,
    emergency: shaped(GRANT_DETAILS.shape),
  },
  clear: {
    id: 'names the record its sealed reason is bound to',
    patientId: 'whose records the grant opens; the rules and access read it',
    doctorId: 'who holds the grant; the rules and access read it',
    type: 'tells the rules and the fold what the record is',
    title: "names the event and the doctor (written by the app, no patient's text)",
    description: "what a read sent, as the patient's access history shows it; '' on a sealed grant",
    timestamp: 'orders the event: a read or an end must fall before the expiry',
    isEmergencyAccess: 'marks the record for the screens of the original app',
    emergencyAccessExpiry: "the grant's expiry, which the rules check against its start and duration",
    emergency: "the grant's details, clear as listed for them; on a sealed grant sealing takes the rest",
  },
  author: (record) => {
    if (record.emergency?.event === 'expired') return LEDGER_AUTHOR;
    return record.emergency?.endedBy === 'patient' ? record.patientId : record.doctorId;
  },
  rule: (state, record, { at }) => emergencyProblem(state, record, at),
  fold: applyEmergency,
};
