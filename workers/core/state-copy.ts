// A copy of a projected state that a fold can advance without touching the original: a published snapshot
// never changes after it is handed out (workers/ledger/store.ts). Entries the fold mutates are copied; the
// records and documents it only replaces are shared.
import type { LedgerState } from './projection';

function copyLists<T>(map: Map<string, T[]>): Map<string, T[]> {
  return new Map([...map].map(([key, list]) => [key, list.slice()]));
}

export function copyState(state: LedgerState): LedgerState {
  return {
    ...state,
    tips: state.tips.slice(),
    placed: new Set(state.placed),
    notApplied: new Map(state.notApplied),
    records: copyLists(state.records),
    medicalRecords: copyLists(state.medicalRecords),
    uploads: new Map(state.uploads),
    documents: new Map(state.documents),
    grants: new Map([...state.grants].map(([id, known]) => [id, { ...known, reads: known.reads.slice() }])),
    patientGrants: copyLists(state.patientGrants),
    newestGrant: new Map(state.newestGrant),
    shares: new Map([...state.shares].map(([id, known]) => [id, { ...known, reads: known.reads.slice() }])),
    patientShares: copyLists(state.patientShares),
    doctorShares: copyLists(state.doctorShares),
    careConsent: new Map(state.careConsent),
    summaryEpochs: copyLists(state.summaryEpochs),
    resealed: new Map(state.resealed),
  };
}
