// A copy of a projected state that a fold can advance without touching the original: a published snapshot
// never changes after it is handed out (workers/ledger/store.ts). Its maps share their entries with the original's
// (shared-map.ts), and the fold copies a list, a grant or a share before it changes one (projection.ts push, own).
import type { LedgerState } from './projection';

export function copyState(state: LedgerState): LedgerState {
  return {
    ...state,
    tips: state.tips.slice(),
    placed: state.placed.copy(),
    notApplied: state.notApplied.copy(),
    records: state.records.copy(),
    medicalRecords: state.medicalRecords.copy(),
    uploads: state.uploads.copy(),
    documents: state.documents.copy(),
    grants: state.grants.copy(),
    patientGrants: state.patientGrants.copy(),
    newestGrant: state.newestGrant.copy(),
    shares: state.shares.copy(),
    patientShares: state.patientShares.copy(),
    doctorShares: state.doctorShares.copy(),
    careConsent: state.careConsent.copy(),
    summaryEpochs: state.summaryEpochs.copy(),
    resealed: state.resealed.copy(),
  };
}
