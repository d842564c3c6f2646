import { describe, expect, it } from 'vitest';
import {
  assertCanDelete,
  assertGrantUsable,
  canReadPatient,
  canSeeRecord,
  documentAccess,
  accessScope,
  findActiveGrant,
  isGrantActive,
  isGrantDue,
  validateEmergencyRequest,
} from '../../workers/core/access';
import { EMERGENCY_DURATIONS } from '../../workers/core/constants';
import { PATIENTS } from '../../workers/core/directory';
import type { ChainRecord, DocumentInfo, EmergencyGrant } from '../../workers/core/types';
import { CARTER, MICHAEL, SARAH, WILSON, DENIED } from '../support/ledger-fixtures';

const NOW = Date.parse('2026-03-02T10:00:00.000Z');
const DELETE_DENIED = { name: 'AccessDeniedError', message: 'Access denied: Only patients can delete their own documents' };

function sarahsDocument(overrides: Partial<DocumentInfo> = {}): DocumentInfo {
  return {
    id: 'doc-1',
    fileName: 'ecg.pdf',
    fileType: 'application/pdf',
    fileSize: 10,
    uploadDate: new Date(NOW).toISOString(),
    ipfsHash: 'QmExample',
    patientId: SARAH.id,
    doctorId: CARTER.id,
    isEncrypted: true,
    ...overrides,
  };
}

function grant(overrides: Partial<EmergencyGrant> = {}): EmergencyGrant {
  return {
    id: 'grant-1',
    patientId: SARAH.id,
    doctorId: WILSON.id,
    accessLevel: 'full',
    reason: 'Unconscious in the ER',
    durationMinutes: 15,
    createdAt: new Date(NOW).toISOString(),
    expiresAt: new Date(NOW + 15 * 60_000).toISOString(),
    isActive: true,
    ...overrides,
  };
}

function record(overrides: Partial<Pick<ChainRecord, 'patientId' | 'doctorId' | 'type'>>): ChainRecord {
  return {
    id: 'r',
    patientId: SARAH.id,
    doctorId: CARTER.id,
    type: 'prescription',
    title: 't',
    description: '',
    files: [],
    timestamp: new Date(NOW).toISOString(),
    ...overrides,
  } as ChainRecord; // the rules read only patientId and doctorId
}

function thrown(fn: () => unknown): { name: string; message: string } {
  try {
    fn();
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error('expected a throw');
}

describe('reading a patient', () => {
  it('lets a patient read only their own data', () => {
    expect(canReadPatient(SARAH, SARAH.id)).toBe(true);
    expect(canReadPatient(SARAH, MICHAEL.id)).toBe(false);
  });

  it('lets a doctor read only the patients in their own list', () => {
    expect(canReadPatient(CARTER, SARAH.id)).toBe(true);
    expect(canReadPatient(CARTER, MICHAEL.id)).toBe(false);
    expect(canReadPatient(WILSON, MICHAEL.id)).toBe(true);
  });

  it("shows a doctor their own emergency records on another doctor's patient, and nobody else's", () => {
    const wilsonsRecord = record({ doctorId: WILSON.id, type: 'emergency_access' });
    expect(canSeeRecord(WILSON, wilsonsRecord)).toBe(true);
    expect(canSeeRecord(WILSON, record({}))).toBe(false);
    expect(canSeeRecord(MICHAEL, wilsonsRecord)).toBe(false);
  });
});

describe('reading a document', () => {
  it('lets the owning patient read it and refuses another patient with the exact message', () => {
    expect(documentAccess(SARAH, sarahsDocument(), [], NOW)).toEqual({ via: 'owner' });
    expect(thrown(() => documentAccess(MICHAEL, sarahsDocument(), [], NOW))).toEqual(DENIED);
  });

  it('lets the doctor the document names read it, and refuses any other doctor', () => {
    expect(documentAccess(CARTER, sarahsDocument(), [], NOW)).toEqual({ via: 'doctor' });
    expect(thrown(() => documentAccess(WILSON, sarahsDocument(), [], NOW))).toEqual(DENIED);
  });

  it('lets a doctor with an active full grant read it, as an emergency read', () => {
    const full = grant();
    expect(documentAccess(WILSON, sarahsDocument(), [full], NOW)).toEqual({ via: 'emergency', grant: full });
  });

  it('refuses a doctor whose active grant is basic', () => {
    expect(thrown(() => documentAccess(WILSON, sarahsDocument(), [grant({ accessLevel: 'basic' })], NOW))).toEqual(DENIED);
  });

  it('refuses a full grant once it expired, or once it was ended', () => {
    const expiry = NOW + 15 * 60_000;
    expect(documentAccess(WILSON, sarahsDocument(), [grant()], expiry - 1).via).toBe('emergency');
    expect(thrown(() => documentAccess(WILSON, sarahsDocument(), [grant()], expiry))).toEqual(DENIED);
    const ended = grant({ isActive: false, endedAt: new Date(NOW + 1000).toISOString() });
    expect(thrown(() => documentAccess(WILSON, sarahsDocument(), [ended], NOW + 2000))).toEqual(DENIED);
  });

  it('refuses a grant that belongs to another doctor or another patient', () => {
    expect(thrown(() => documentAccess(WILSON, sarahsDocument(), [grant({ doctorId: CARTER.id })], NOW))).toEqual(DENIED);
    expect(thrown(() => documentAccess(WILSON, sarahsDocument(), [grant({ patientId: MICHAEL.id })], NOW))).toEqual(DENIED);
  });
});

describe('deleting a document', () => {
  it('is allowed to the owning patient only', () => {
    expect(() => assertCanDelete(SARAH, sarahsDocument())).not.toThrow();
    expect(thrown(() => assertCanDelete(MICHAEL, sarahsDocument()))).toEqual(DELETE_DENIED);
  });

  it("is refused to doctors, the document's own doctor included", () => {
    expect(thrown(() => assertCanDelete(CARTER, sarahsDocument()))).toEqual(DELETE_DENIED);
    expect(thrown(() => assertCanDelete(WILSON, sarahsDocument()))).toEqual(DELETE_DENIED);
  });
});

describe('emergency grants', () => {
  it('are active until the millisecond of expiry, then due for recording', () => {
    const expiry = NOW + 15 * 60_000;
    expect(isGrantActive(grant(), expiry - 1)).toBe(true);
    expect(isGrantDue(grant(), expiry - 1)).toBe(false);
    expect(isGrantActive(grant(), expiry)).toBe(false);
    expect(isGrantDue(grant(), expiry)).toBe(true);
  });

  it('stop at End even before expiry, and an ended grant is never due', () => {
    const ended = grant({ isActive: false, endedAt: new Date(NOW).toISOString() });
    expect(isGrantActive(ended, NOW + 1)).toBe(false);
    expect(isGrantDue(ended, NOW + 60 * 60_000)).toBe(false);
  });

  it('are usable only by their own doctor while active', () => {
    expect(assertGrantUsable(WILSON, grant(), NOW).id).toBe('grant-1');
    expect(thrown(() => assertGrantUsable(CARTER, grant(), NOW))).toEqual(DENIED);
    expect(thrown(() => assertGrantUsable(SARAH, grant(), NOW))).toEqual(DENIED);
    expect(thrown(() => assertGrantUsable(WILSON, undefined, NOW))).toEqual(DENIED);
    expect(thrown(() => assertGrantUsable(WILSON, grant(), NOW + 15 * 60_000))).toEqual(DENIED);
  });

  it('finds the newest active grant of a doctor on a patient', () => {
    const older = grant({ id: 'old', createdAt: new Date(NOW - 1000).toISOString() });
    const newer = grant({ id: 'new' });
    const ended = grant({ id: 'ended', createdAt: new Date(NOW + 1).toISOString(), isActive: false });
    expect(findActiveGrant([older, newer, ended], WILSON.id, SARAH.id, NOW)?.id).toBe('new');
    expect(findActiveGrant([older, newer], CARTER.id, SARAH.id, NOW)).toBeUndefined();
  });

  it('give basic access to 5 recent records without documents, and full access to everything', () => {
    expect(accessScope('basic')).toMatchObject({ records: 5, documents: false });
    expect(accessScope('full')).toMatchObject({ records: Infinity, documents: true });
  });
});

describe('an emergency request', () => {
  const valid = { patientId: SARAH.id, reason: 'Cardiac arrest', accessLevel: 'basic', durationMinutes: 60 };
  const findPatient = (id: string) => PATIENTS.find((p) => p.id === id);

  it('is accepted with a patient, a reason, a level and one of the durations', () => {
    for (const durationMinutes of EMERGENCY_DURATIONS) {
      expect(validateEmergencyRequest({ ...valid, durationMinutes }, findPatient)).toBeNull();
    }
    expect(validateEmergencyRequest({ ...valid, accessLevel: 'full' }, findPatient)).toBeNull();
  });

  it('needs a selected, existing patient', () => {
    expect(validateEmergencyRequest({ ...valid, patientId: '' }, findPatient)).toBe('Select a patient.');
    expect(validateEmergencyRequest({ ...valid, patientId: 'patient-9' }, findPatient)).toBe('No patient has this id.');
  });

  it('needs a reason that is not blank', () => {
    expect(validateEmergencyRequest({ ...valid, reason: '   ' }, findPatient)).toBe('Enter a reason for emergency access.');
    expect(validateEmergencyRequest({ ...valid, reason: 'x'.repeat(1001) }, findPatient)).toBe(
      'The reason is longer than 1000 characters.',
    );
  });

  it('needs basic or full, and a listed duration', () => {
    expect(validateEmergencyRequest({ ...valid, accessLevel: 'admin' }, findPatient)).toBe('Choose basic or full access.');
    expect(validateEmergencyRequest({ ...valid, durationMinutes: 45 }, findPatient)).toBe(
      'Choose a duration of 15, 30, 60, 120 or 240 minutes.',
    );
    expect(validateEmergencyRequest({ ...valid, durationMinutes: '60' }, findPatient)).toBe(
      'Choose a duration of 15, 30, 60, 120 or 240 minutes.',
    );
  });
});
