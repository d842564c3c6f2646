// Who may read or delete what (docs/decisions/access-rules.md, enforced-emergency-access.md).
// Pure: the clock comes in as `now` (ms).
import { EMERGENCY_BASIC_RECORDS, EMERGENCY_DURATIONS, SHARE_DURATIONS_DAYS } from './constants';
import { MESSAGES, ledgerError } from './errors';
import type { LedgerState, RecordEntry } from './ledger-state';
import { checkText } from './text-input';
import type { AccessLevel, ChainRecord, DocumentInfo, EmergencyGrant, Patient, Share, User } from './types';

// Whether the patient lets the care network open their files in an emergency: their newest recorded choice, else
// off (a patient who has not chosen has not consented; docs/decisions/document-keys-travel-wrapped.md).
export function careConsentOf(state: LedgerState, patientId: string): boolean {
  return state.careConsent.get(patientId)?.on ?? false;
}

export function accessDenied(): Error {
  return ledgerError('AccessDeniedError', MESSAGES.accessDenied);
}

export function requireRole<R extends User['role']>(actor: User, role: R): asserts actor is Extract<User, { role: R }> {
  if (actor.role !== role) throw accessDenied();
}

// A patient reads their own data; a doctor the data of the patients in their own list.
export function canReadPatient(actor: User, patientId: string): boolean {
  return actor.role === 'patient' ? actor.id === patientId : actor.patients.includes(patientId);
}

export function assertCanReadPatient(actor: User, patientId: string): void {
  if (!canReadPatient(actor, patientId)) throw accessDenied();
}

// A record is also visible to the doctor it names (a doctor's own emergency records).
export function canSeeRecord(actor: User, record: ChainRecord): boolean {
  return canReadPatient(actor, record.patientId) || (actor.role === 'doctor' && record.doctorId === actor.id);
}

export function isGrantActive(grant: EmergencyGrant, now: number): boolean {
  return grant.isActive && grant.endedAt === undefined && now < Date.parse(grant.expiresAt);
}

// Still marked active but past its expiry: the expiry has yet to be recorded.
export function isGrantDue(grant: EmergencyGrant, now: number): boolean {
  return grant.isActive && grant.endedAt === undefined && now >= Date.parse(grant.expiresAt);
}

export function findActiveGrant(
  grants: Iterable<EmergencyGrant>,
  doctorId: string,
  patientId: string,
  now: number,
): EmergencyGrant | undefined {
  let found: EmergencyGrant | undefined;
  for (const grant of grants) {
    if (grant.doctorId !== doctorId || grant.patientId !== patientId || !isGrantActive(grant, now)) continue;
    if (!found || grant.createdAt > found.createdAt) found = grant;
  }
  return found;
}

export type DocumentAccess =
  { via: 'owner' } | { via: 'doctor' } | { via: 'emergency'; grant: EmergencyGrant } | { via: 'share'; share: Share };

// The doctor's share on the patient in force at `now` (the newest when there are several), if any.
export function findActiveShare(shares: Iterable<Share>, doctorId: string, patientId: string, now: number): Share | undefined {
  let found: Share | undefined;
  for (const share of shares) {
    if (share.doctorId !== doctorId || share.patientId !== patientId || !isShareActive(share, now)) continue;
    if (!found || share.createdAt > found.createdAt) found = share;
  }
  return found;
}

export function isShareActive(share: Share, now: number): boolean {
  return share.revokedAt === undefined && (share.expiresAt === null || now < Date.parse(share.expiresAt));
}

// Own documents, documents naming the doctor, or a doctor's active full grant, else full share, on the patient.
export function documentAccess(
  actor: User,
  document: DocumentInfo,
  grants: Iterable<EmergencyGrant>,
  now: number,
  shares: Iterable<Share> = [],
): DocumentAccess {
  if (actor.role === 'patient') {
    if (document.patientId === actor.id) return { via: 'owner' };
    throw accessDenied();
  }
  if (document.doctorId === actor.id) return { via: 'doctor' };
  const grant = findActiveGrant(grants, actor.id, document.patientId, now);
  if (grant && accessScope(grant.accessLevel).documents) return { via: 'emergency', grant };
  // only shares that open files count: a newer basic share must not hide a full one still in force
  const opening = [...shares].filter((candidate) => accessScope(candidate.accessLevel).documents);
  const share = findActiveShare(opening, actor.id, document.patientId, now);
  if (share) return { via: 'share', share };
  throw accessDenied();
}

export function assertCanDelete(actor: User, document: DocumentInfo): void {
  if (actor.role !== 'patient' || document.patientId !== actor.id) {
    throw ledgerError('AccessDeniedError', MESSAGES.deleteDenied);
  }
}

// The grant a doctor asks to read under: theirs, and active by the clock.
export function assertGrantUsable(actor: User, grant: EmergencyGrant | undefined, now: number): EmergencyGrant {
  if (!grant || actor.role !== 'doctor' || grant.doctorId !== actor.id || !isGrantActive(grant, now)) {
    throw accessDenied();
  }
  return grant;
}

export interface AccessScope {
  records: number; // newest records readable (Infinity = complete history)
  documents: boolean;
  legacyRead: string; // the fixed text reads were recorded with before they named what was sent: old chains keep it
}

export function accessScope(level: AccessLevel): AccessScope {
  return level === 'full'
    ? { records: Infinity, documents: true, legacyRead: 'profile, health overview and complete history' }
    : {
        records: EMERGENCY_BASIC_RECORDS,
        documents: false,
        legacyRead: `profile, health overview and ${EMERGENCY_BASIC_RECORDS} most recent records`,
      };
}

// The records a view under a grant or a share of `level` sends at `state`: the patient's medical records, newest first.
export function sentRecords(state: LedgerState, patientId: string, level: AccessLevel): RecordEntry[] {
  const medical = state.medicalRecords.get(patientId) ?? [];
  return medical.slice(medical.length - sentCount(state, patientId, level)).reverse();
}

// How many records such a view sends, without listing them (the chain's rules check a full read by its count).
export function sentCount(state: LedgerState, patientId: string, level: AccessLevel): number {
  return Math.min(state.medicalRecords.get(patientId)?.length ?? 0, accessScope(level).records);
}

// What such a view read, as recorded on the chain and shown to the patient: a count, never a title (titles are
// sealed, docs/decisions/nothing-medical-in-clear.md); the patient's screen names the records it can open.
export function readText(level: AccessLevel, sent: readonly RecordEntry[]): string {
  return readCountText(level, sent.length);
}

export function readCountText(level: AccessLevel, sent: number): string {
  if (sent === 0) return 'profile and health overview (no records)';
  const count = sent === 1 ? '1 record' : `${sent} records`;
  return level === 'full'
    ? `profile, health overview and the complete history (${count})`
    : `profile, health overview and ${count}`;
}

// What a basic read recorded before titles were sealed: each sent record's title. Only the chain's rules use it,
// so the reads of older chains stay valid.
export function titledReadText(level: AccessLevel, sent: readonly RecordEntry[]): string {
  const text = readText(level, sent);
  return level === 'full' || sent.length === 0 ? text : `${text}: ${sent.map((entry) => `"${entry.record.title}"`).join(', ')}`;
}

export interface EmergencyRequestInput {
  patientId: unknown;
  reason: unknown;
  accessLevel: unknown;
  durationMinutes: unknown;
}

// null when the request may be granted, else a plain message for the doctor.
export function validateEmergencyRequest(
  request: EmergencyRequestInput,
  findPatient: (id: string) => Patient | undefined,
): string | null {
  if (typeof request.patientId !== 'string' || request.patientId.trim() === '') return 'Select a patient.';
  if (!findPatient(request.patientId)) return 'No patient has this id.';
  if (typeof request.reason !== 'string') return 'Enter a reason for emergency access.';
  const reason = checkText('reason', request.reason);
  if (reason.problem) return reason.problem;
  if (request.accessLevel !== 'basic' && request.accessLevel !== 'full') return 'Choose basic or full access.';
  if (!(EMERGENCY_DURATIONS as readonly unknown[]).includes(request.durationMinutes)) {
    return `Choose a duration of ${EMERGENCY_DURATIONS.slice(0, -1).join(', ')} or ${EMERGENCY_DURATIONS.at(-1)} minutes.`;
  }
  return null;
}

export interface ShareRequestInput {
  doctorId: unknown;
  accessLevel: unknown;
  durationDays: unknown;
  note?: unknown;
}

// null when the patient may share as asked, else a plain message.
export function validateShareRequest(request: ShareRequestInput, isDoctor: (id: string) => boolean): string | null {
  if (typeof request.doctorId !== 'string' || !isDoctor(request.doctorId)) return 'Choose a doctor to share with.';
  if (request.accessLevel !== 'basic' && request.accessLevel !== 'full') return 'Choose basic or full access.';
  if (!(SHARE_DURATIONS_DAYS as readonly unknown[]).includes(request.durationDays))
    return 'Choose 1 day, 7 days, 30 days or until revoked.';
  if (request.note !== undefined && typeof request.note !== 'string') return 'The note must be text.';
  return checkText('note', request.note ?? '').problem;
}
