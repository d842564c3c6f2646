// A care-network consent: the patient lets the sync server's care network open their files under an emergency grant,
// or stops it (docs/decisions/document-keys-travel-wrapped.md).
import { PATIENTS } from '../directory';
import type { LedgerState } from '../ledger-state';
import type { CareConsentRecord } from '../types';
import type { RecordKind } from './kind';
import { BASE, text } from './shape';

function consentProblem(state: LedgerState, record: CareConsentRecord): string | null {
  if (!PATIENTS.some((patient) => patient.id === record.patientId)) return 'a consent names no listed patient';
  if (record.doctorId !== '') return 'a consent names a doctor';
  // a first choice may be off, the default: it records that the patient was asked
  return state.careConsent.get(record.patientId)?.on === record.careNetwork ? 'a consent repeats the choice in force' : null;
}

export const CARE_CONSENT: RecordKind<CareConsentRecord> = {
  shape: { ...BASE, type: text, careNetwork: (value) => typeof value === 'boolean' },
  clear: {
    id: 'names the record',
    patientId: 'whose choice it is',
    doctorId: "''",
    type: 'tells the rules and the fold what the record is',
    title: 'a fixed text of the app, naming the choice',
    description: "''",
    timestamp: 'from when the choice holds',
    careNetwork: 'the choice: the sync server releases a key under a grant only while it is on',
  },
  author: (record) => record.patientId,
  rule: (state, record) => consentProblem(state, record),
  fold: (state, record) => {
    state.careConsent.set(record.patientId, { on: record.careNetwork, at: record.timestamp, bySetup: false });
  },
};
