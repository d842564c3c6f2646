// Builders of the records the service mines: one per kind of change. Pure: ids and time come in.
import { PATIENTS, findUser } from './directory';
import type { LedgerState } from './ledger-state';
import { iso } from './ledger-time';
import type {
  AcknowledgementRecord,
  CareConsentRecord,
  ClinicalRecord,
  DeletionRecord,
  DocumentInfo,
  EmergencyEvent,
  EmergencyGrant,
  EmergencyRecord,
  KeyEnrolment,
  Share,
  ShareEvent,
  ShareRecord,
} from './types';

// The service's modules build a record and its times together: the times stay importable from here.
export { grantExpiresAt, iso, shareExpiresAt } from './ledger-time';

export const GENESIS_TITLE = 'Initial health assessment';

// The demo accounts' care-network choices recorded by the ledger's setup (and shown as such): Sarah's is on, so the
// demo's emergency file access works; Michael has not chosen, so he is asked on his first Connect.
export const DEMO_CARE_CONSENTS: Readonly<Record<string, boolean>> = { [PATIENTS[0].id]: true };

export function genesisRecord(id: string, timestamp: string, enrolment: KeyEnrolment): ClinicalRecord {
  return {
    id,
    patientId: PATIENTS[0].id,
    doctorId: PATIENTS[0].doctorId ?? '',
    type: 'diagnosis',
    title: GENESIS_TITLE,
    description: 'Baseline assessment recorded when the ledger was created.',
    files: [],
    timestamp,
    enrolment,
    setupConsents: { ...DEMO_CARE_CONSENTS },
  };
}

function emergencyTitle(event: EmergencyEvent, grant: EmergencyGrant, doctorName: string, byPatient: boolean): string {
  switch (event) {
    case 'granted':
      return `Emergency access (${grant.accessLevel}) granted to ${doctorName}`;
    case 'read':
      return `Emergency read by ${doctorName}`;
    case 'ended':
      return `Emergency access ended by ${byPatient ? (findUser(grant.patientId)?.name ?? grant.patientId) : doctorName}`;
    case 'expired':
      return `Emergency access of ${doctorName} expired`;
  }
}

export interface AccessRead {
  what: string; // as the patient's access history shows it
  documentId?: string;
}

export function emergencyRecord(
  id: string,
  grant: EmergencyGrant,
  event: EmergencyEvent,
  timestamp: string,
  read?: AccessRead,
  endedByPatient = false, // the patient ended the session (their block), not the doctor
): EmergencyRecord {
  return {
    id,
    patientId: grant.patientId,
    doctorId: grant.doctorId,
    type: 'emergency_access',
    title: emergencyTitle(event, grant, findUser(grant.doctorId)?.name ?? grant.doctorId, endedByPatient),
    description: event === 'granted' ? grant.reason : (read?.what ?? ''),
    timestamp,
    isEmergencyAccess: true,
    emergencyAccessExpiry: grant.expiresAt,
    emergency: {
      grantId: grant.id,
      event,
      accessLevel: grant.accessLevel,
      reason: grant.reason,
      durationMinutes: grant.durationMinutes,
      ...(read ? { read: read.what } : {}),
      ...(read?.documentId ? { documentId: read.documentId } : {}),
      ...(endedByPatient ? { endedBy: 'patient' as const } : {}),
    },
  };
}

// An 'expired' record for every grant past its expiry that no block has closed yet, earliest expiry first.
export function dueExpiryRecords(state: LedgerState, at: number, newId: () => string): EmergencyRecord[] {
  return [...state.grants.values()]
    .filter((known) => !known.closedBy && at >= Date.parse(known.grant.expiresAt))
    .sort((a, b) => a.grant.expiresAt.localeCompare(b.grant.expiresAt))
    .map((known) => emergencyRecord(newId(), known.grant, 'expired', iso(at)));
}

export function deletionRecord(id: string, document: DocumentInfo, timestamp: string): DeletionRecord {
  return {
    id,
    patientId: document.patientId,
    doctorId: document.doctorId,
    type: 'document_deleted',
    title: document.fileName === '' ? '' : `File deleted: ${document.fileName}`, // a sealed file's name stays sealed
    description: '',
    documentId: document.id,
    timestamp,
  };
}

export function acknowledgementRecord(
  id: string,
  patientId: string,
  grantIds: string[],
  timestamp: string,
): AcknowledgementRecord {
  return {
    id,
    patientId,
    doctorId: '',
    type: 'access_acknowledged',
    title: 'Emergency access alert dismissed',
    description: '',
    grantIds,
    timestamp,
  };
}

function shareTitle(event: ShareEvent, share: Share, doctorName: string): string {
  switch (event) {
    case 'shared':
      return `Records shared (${share.accessLevel}) with ${doctorName}`;
    case 'revoked':
      return `Sharing with ${doctorName} revoked`;
    case 'read':
      return `Shared records read by ${doctorName}`;
  }
}

export function shareRecord(id: string, share: Share, event: ShareEvent, timestamp: string, read?: AccessRead): ShareRecord {
  return {
    id,
    patientId: share.patientId,
    doctorId: share.doctorId,
    type: 'access_shared',
    title: shareTitle(event, share, findUser(share.doctorId)?.name ?? share.doctorId),
    description: event === 'shared' ? share.note : (read?.what ?? ''),
    timestamp,
    share: {
      shareId: share.id,
      event,
      accessLevel: share.accessLevel,
      durationDays: share.durationDays,
      expiresAt: share.expiresAt ?? '',
      note: share.note,
      ...(read ? { read: read.what } : {}),
      ...(read?.documentId ? { documentId: read.documentId } : {}),
    },
  };
}

export function careConsentRecord(id: string, patientId: string, careNetwork: boolean, timestamp: string): CareConsentRecord {
  return {
    id,
    patientId,
    doctorId: '',
    type: 'care_consent',
    title: careNetwork ? 'Care network may open my files in an emergency' : 'Care network may not open my files',
    description: '',
    careNetwork,
    timestamp,
  };
}
