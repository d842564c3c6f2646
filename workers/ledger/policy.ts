// Who may call what: one row per LedgerService method (docs/decisions/who-may-call-what.md). The composition root
// (workers/service.ts) checks the caller's role against this table before any module runs; the relation to the
// patient (`relations`) is then checked by the module with the rules of workers/core/access.ts.
import type { LedgerService } from '../api';
import { accessDenied } from '../core/access';
import { MESSAGES, ledgerError } from '../core/errors';
import type { User } from '../core/types';

// Who is calling: a signed-in patient or doctor, or nobody (no session).
export type Caller = 'nobody' | 'patient' | 'doctor';

// What ties the caller to the data a call touches, beyond the role.
export type Relation =
  | 'self' // the patient's own records, shares, history
  | 'own patient' // a patient in the doctor's own list
  | 'named doctor' // a record or document naming the doctor
  | 'active grant' // the doctor's own emergency grant, while active (basic: 5 newest records; full: everything)
  | 'active share' // a patient's share with the doctor, while active, at its level
  | 'own job' // a job the caller started (a job id is the capability)
  | 'may read' // whatever the caller may read by the relations above: the rest is withheld or shown opaque
  | 'own device' // a device the sync server names as proved by the same user as this one (the server decides again)
  | 'nothing of others dropped'; // the call may not remove what anybody else wrote

export interface Permission {
  callers: readonly Caller[];
  relations?: readonly Relation[];
  why: string; // one line for the table in the docs and the test names
  denied?: string; // the catalogue's own refusal for a signed-in user of another role, when it has one
}

const ANYONE: readonly Caller[] = ['nobody', 'patient', 'doctor'];
const SIGNED_IN: readonly Caller[] = ['patient', 'doctor'];
const PATIENT: readonly Caller[] = ['patient'];
const DOCTOR: readonly Caller[] = ['doctor'];

export const POLICY: Readonly<Record<keyof LedgerService, Permission>> = {
  // session
  signIn: { callers: ANYONE, why: 'the password unlocks the key' },
  resumeSession: { callers: ANYONE, why: 'only a stored session whose key the chain enrols resumes' },
  signOut: { callers: ANYONE, why: 'ending nothing harms nobody' },
  // chain
  chainStatus: { callers: SIGNED_IN, why: 'height and validity of the records chain' },
  blocksPage: { callers: SIGNED_IN, relations: ['may read'], why: 'rows of records the caller may not see are opaque' },
  block: { callers: SIGNED_IN, relations: ['may read'], why: 'a whole block only when the caller may see its record' },
  // patient
  patientOverview: { callers: PATIENT, relations: ['self'], why: "the patient's own dashboard" },
  listRecords: { callers: SIGNED_IN, relations: ['self', 'own patient'], why: 'own records, or an own patient' },
  upload: { callers: PATIENT, relations: ['self'], why: 'patients add their own records' },
  readDocument: {
    callers: SIGNED_IN,
    relations: ['self', 'named doctor', 'active grant', 'active share'],
    why: 'own files, files naming the doctor, or under a full grant or share',
  },
  deleteDocument: {
    callers: PATIENT,
    relations: ['self'],
    why: 'only patients delete their own files',
    denied: MESSAGES.deleteDenied,
  },
  clearRecordCount: { callers: PATIENT, relations: ['self'], why: 'the patient’s own records in clear' },
  sealClearRecords: { callers: PATIENT, relations: ['self'], why: 'only the patient seals their own records' },
  accessHistory: { callers: PATIENT, relations: ['self'], why: 'who read the patient’s records' },
  acknowledgeEmergencyAccesses: { callers: PATIENT, relations: ['self'], why: 'the patient dismisses their own alert' },
  endEmergencyAccessAsPatient: { callers: PATIENT, relations: ['self'], why: 'the patient ends a session open on them' },
  // doctor
  doctorOverview: { callers: DOCTOR, relations: ['own patient'], why: "the doctor's own dashboard" },
  searchPatients: { callers: DOCTOR, why: 'names and ids of listed patients, to ask for emergency access' },
  requestEmergencyAccess: { callers: DOCTOR, why: 'break the glass: recorded on the chain, seen by the patient' },
  endEmergencyAccess: { callers: DOCTOR, relations: ['active grant'], why: "the doctor's own grant" },
  activeGrants: {
    callers: SIGNED_IN,
    relations: ['self', 'active grant'],
    why: "the doctor's own grants; a patient's, the grants open on them",
  },
  emergencyView: { callers: DOCTOR, relations: ['active grant'], why: "the doctor's own active grant, at its level" },
  // sharing
  shareRecords: { callers: PATIENT, relations: ['self'], why: 'the patient shares their own records' },
  revokeShare: { callers: PATIENT, relations: ['self'], why: "the patient's own share" },
  myShares: { callers: PATIENT, relations: ['self'], why: "the patient's own shares" },
  sharedWithMe: { callers: DOCTOR, relations: ['active share'], why: 'shares made with the doctor' },
  sharedView: { callers: DOCTOR, relations: ['active share'], why: 'a share made with the doctor, at its level' },
  // local data
  resetDemoData: {
    callers: ANYONE,
    relations: ['nothing of others dropped'],
    why: 'only when the stored ledger cannot be trusted, or holds nothing written by anyone else',
  },
  resetAllowed: { callers: ANYONE, why: 'the Reset dialog says what a reset would do' },
  onChange: { callers: ANYONE, why: 'a notice carries no data' },
  // sync: the device's link to a sync server; what travels is verified by every device and the server
  connectSync: { callers: SIGNED_IN, why: 'this device joins the ledger it holds; every block it takes is verified' },
  disconnectSync: { callers: SIGNED_IN, why: 'this device works alone again; nothing is dropped' },
  syncStatus: { callers: SIGNED_IN, why: 'the link, block counts and the devices’ tips: no record data' },
  removeSyncDevice: {
    callers: SIGNED_IN,
    relations: ['own device'],
    why: 'the user’s own other device leaves the sync server; the blocks it sent stay',
  },
  careNetworkConsent: { callers: PATIENT, relations: ['self'], why: "the patient's own emergency consent" },
  setCareNetworkConsent: { callers: PATIENT, relations: ['self'], why: 'the patient decides for their own files' },
  // anchor
  saveAnchor: { callers: SIGNED_IN, why: 'hashes of the chain, no record data' },
  checkAnchor: { callers: SIGNED_IN, why: 'hashes of the chain, no record data' },
  // portability
  exportFhir: { callers: PATIENT, relations: ['self'], why: "the patient's own records leave with them" },
  importFhir: { callers: PATIENT, relations: ['self'], why: "into the patient's own records" },
  downloadBackup: {
    callers: SIGNED_IN,
    relations: ['may read'],
    why: 'what the maker may read; the whole-browser backup is for patients only',
  },
  prepareRestore: {
    callers: SIGNED_IN,
    relations: ['nothing of others dropped'],
    why: 'a restore only adds verified blocks of this ledger',
  },
  confirmRestore: { callers: SIGNED_IN, relations: ['nothing of others dropped'], why: 'the plan the caller checked' },
  cancelTransfer: { callers: SIGNED_IN, relations: ['own job'], why: "the caller's own export or backup" },
  // sandbox: copies of the chain, never the records chain itself
  sandboxReset: { callers: SIGNED_IN, relations: ['may read'], why: 'a copy of what the caller may read' },
  sandboxPage: { callers: SIGNED_IN, relations: ['may read'], why: "the caller's own copy" },
  sandboxBlock: { callers: SIGNED_IN, relations: ['may read'], why: "the caller's own copy" },
  sandboxEdit: { callers: SIGNED_IN, relations: ['may read'], why: 'blocks the caller may not read are not editable' },
  sandboxRemine: { callers: SIGNED_IN, why: "the caller's own copy" },
  sandboxRemineFrom: { callers: SIGNED_IN, why: "the caller's own copy" },
  sandboxPeers: { callers: SIGNED_IN, why: "the caller's own copies" },
  mineSandbox: { callers: SIGNED_IN, why: 'proof-of-work practice, never on the records chain' },
  cancelJob: { callers: ANYONE, relations: ['own job'], why: 'a job must be stoppable after its user signed out' },
};

export function callerOf(user: User | null): Caller {
  return user?.role ?? 'nobody';
}

export function mayCall(method: keyof LedgerService, caller: Caller): boolean {
  return POLICY[method].callers.includes(caller);
}

// The role gate every call passes first: a role the table does not list gets the catalogue's access denied.
export function permit(method: keyof LedgerService, user: User | null): void {
  if (mayCall(method, callerOf(user))) return;
  const { denied } = POLICY[method];
  throw user && denied ? ledgerError('AccessDeniedError', denied) : accessDenied();
}

// Every method of `service`, behind the role gate of the table.
export function guarded(service: LedgerService, actor: () => User | null): LedgerService {
  const methods = Object.keys(POLICY) as (keyof LedgerService)[];
  const entries = methods.map((method) => {
    const call = service[method] as (...args: unknown[]) => Promise<unknown>;
    const gate = async (...args: unknown[]) => {
      permit(method, actor());
      return call(...args);
    };
    return [method, gate];
  });
  return Object.fromEntries(entries) as LedgerService;
}
