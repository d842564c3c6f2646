// Break-the-glass: the doctor's side (overview, search, grant, end, view) and the patient's access history.
import type { EmergencyRequest, LedgerService } from '../api';
import {
  accessDenied,
  assertGrantUsable,
  accessScope,
  findActiveGrant,
  isGrantActive,
  readText,
  requireRole,
  sentRecords,
  validateEmergencyRequest,
} from '../core/access';
import { DOCTOR_KEPT_RECORDS } from '../core/constants';
import { PATIENTS } from '../core/directory';
import { acknowledgementRecord, type AccessRead, emergencyRecord, grantExpiresAt, iso } from '../core/ledger-records';
import { checkText, foldForSearch } from '../core/text-input';
import type { RecordEntry } from '../core/ledger-state';
import { GRANT_DETAILS } from '../core/records/emergency';
import { splitSealed } from '../core/records/shape';
import type { EmergencyDetails, EmergencyGrant, User } from '../core/types';
import { fail, sleep, type LedgerDeps } from './deps';
import type { Sealing } from './sealing';
import type { LedgerStore } from './store';
import {
  type ArrivalOf,
  accessHistoryOf,
  grantsOf,
  newestRecords,
  openedEntries,
  patientById,
  readJustLogged,
  recordView,
} from './views';

// Asks the sync server's care network for the summary keys of the patient's records that a read under a grant sent
// but this device cannot open (the patient's devices may be offline), against the read's block (workers/sync/).
export type ReleaseSummaries = (grantId: string, epochIds: string[], readBlock: string) => Promise<void>;

export function createEmergency(
  deps: LedgerDeps,
  store: LedgerStore,
  enter: () => Promise<User>,
  sealing: Sealing,
  arrivalOf?: ArrivalOf,
  releaseSummaries?: ReleaseSummaries,
) {
  // Break-the-glass reads are recorded before the data is handed out: no record, no read.
  async function logRead(signedIn: User, grantId: string, read: AccessRead): Promise<void> {
    await store.write('The emergency read could not be recorded', ({ verified: { state } }, at) => {
      const grant = assertGrantUsable(signedIn, state.grants.get(grantId)?.grant, at);
      if (readJustLogged(state.grants.get(grantId)?.reads.at(-1), read, deps.now())) return { result: () => undefined };
      return { records: [emergencyRecord(deps.randomId(), grant, 'read', iso(at), read)], result: () => undefined };
    });
  }

  // The summary epochs of `entries` whose key this device does not hold.
  function epochsNotHeld(entries: readonly RecordEntry[]): string[] {
    const held = store.current().summaryKeys;
    const epochs = entries.flatMap(({ record }) => ('files' in record && record.sealed ? [record.sealed.key] : []));
    return [...new Set(epochs)].filter((epoch) => !held.has(epoch));
  }

  const api: Pick<
    LedgerService,
    | 'doctorOverview'
    | 'searchPatients'
    | 'requestEmergencyAccess'
    | 'endEmergencyAccess'
    | 'endEmergencyAccessAsPatient'
    | 'activeGrants'
    | 'emergencyView'
    | 'accessHistory'
    | 'acknowledgeEmergencyAccesses'
  > = {
    async doctorOverview() {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      const state = await sealing.readable(signedIn);
      const patients = signedIn.patients.map(patientById);
      const entries = patients.flatMap((p) => newestRecords(state, p.id)).sort((a, b) => b.index - a.index);
      const today = new Date(deps.now()).toDateString();
      return {
        patients: structuredClone(patients),
        recentActivity: entries.slice(0, DOCTOR_KEPT_RECORDS).map((entry) => recordView(state, entry, true, arrivalOf)),
        recordsToday: entries.filter(
          ({ record }) =>
            (record.type === 'prescription' || record.type === 'test_report') &&
            new Date(record.timestamp).toDateString() === today,
        ).length,
      };
    },

    async searchPatients(query) {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      const checked = checkText('search', typeof query === 'string' ? query : '');
      if (checked.problem) fail('ValidationError', checked.problem);
      const wanted = foldForSearch(checked.text);
      return structuredClone(
        PATIENTS.filter((p) => foldForSearch(p.name).includes(wanted) || foldForSearch(p.id).includes(wanted)),
      );
    },

    async requestEmergencyAccess(request: EmergencyRequest) {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      store.assertWritable();
      const problem = validateEmergencyRequest(request ?? {}, (id) => PATIENTS.find((p) => p.id === id));
      if (problem) fail('ValidationError', problem);
      await sleep(deps.grantDelayMs);
      return store.write('The emergency access was not saved', async ({ verified: { state } }, at) => {
        const existing = findActiveGrant(grantsOf(state), signedIn.id, request.patientId, at);
        if (existing) {
          // A second click on Grant: the same grant, not a second one.
          if (existing.accessLevel === request.accessLevel) return { result: () => ({ ...existing }) };
          fail('ValidationError', 'End the active emergency session for this patient before asking for another level.');
        }
        const grant: EmergencyGrant = {
          id: deps.randomId(),
          patientId: request.patientId,
          doctorId: signedIn.id,
          accessLevel: request.accessLevel,
          reason: checkText('reason', request.reason).text, // as validateEmergencyRequest accepted it
          durationMinutes: request.durationMinutes,
          expiresAt: grantExpiresAt(at, request.durationMinutes),
          createdAt: iso(at),
          isActive: true,
        };
        const record = emergencyRecord(deps.randomId(), grant, 'granted', grant.createdAt);
        const binding = { recordId: record.id, patientId: grant.patientId, type: record.type };
        // sealing takes every detail its kind does not list as clear (records/emergency.ts): today the reason
        const details = splitSealed(GRANT_DETAILS, record.emergency);
        const sealed = await sealing.sealForPair(state, binding, details.sealed, grant.doctorId, signedIn.id);
        if (sealed) {
          record.description = ''; // it repeats the reason, which is medical: it travels sealed only
          record.emergency = { ...(details.clear as unknown as EmergencyDetails), sealedReason: sealed };
        }
        return { records: [record], result: () => ({ ...grant }) };
      });
    },

    async endEmergencyAccess(grantId) {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      return store.write('Ending the emergency access was not saved', ({ verified: { state } }, at) => {
        const known = typeof grantId === 'string' ? state.grants.get(grantId) : undefined;
        if (!known) fail('NotFoundError', 'This emergency access no longer exists.'); // e.g. another tab reset the data
        if (known.grant.doctorId !== signedIn.id) throw accessDenied();
        if (known.closedBy) return { result: () => ({ ...known.grant }) }; // already ended, or expired just now
        return {
          records: [emergencyRecord(deps.randomId(), known.grant, 'ended', iso(at))],
          result: () => ({ ...(store.state().grants.get(known.grant.id)?.grant ?? known.grant) }),
        };
      });
    },

    async endEmergencyAccessAsPatient(grantId) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      return store.write('Ending the emergency access was not saved', ({ verified: { state } }, at) => {
        const known = typeof grantId === 'string' ? state.grants.get(grantId) : undefined;
        // another patient's grant reads as none at all, as a share does
        if (!known || known.grant.patientId !== signedIn.id) fail('NotFoundError', 'This emergency access no longer exists.');
        if (known.closedBy) return { result: () => ({ ...known.grant }) }; // already ended, or expired just now
        return {
          records: [emergencyRecord(deps.randomId(), known.grant, 'ended', iso(at), undefined, true)],
          result: () => ({ ...(store.state().grants.get(known.grant.id)?.grant ?? known.grant) }),
        };
      });
    },

    async activeGrants() {
      const signedIn = await enter();
      const at = store.clock();
      return grantsOf(await sealing.readable(signedIn))
        .filter((grant) => (signedIn.role === 'doctor' ? grant.doctorId : grant.patientId) === signedIn.id)
        .filter((grant) => isGrantActive(grant, at))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .map((grant) => ({ ...grant }));
    },

    async emergencyView(grantId) {
      const signedIn = await enter();
      const grant = assertGrantUsable(signedIn, store.state().grants.get(grantId)?.grant, store.clock());
      const scope = accessScope(grant.accessLevel);
      // the records are taken from the state the read is recorded on: the patient is told exactly what was sent
      const sent = await store.write('The emergency read could not be recorded', ({ verified: { state } }, at) => {
        assertGrantUsable(signedIn, state.grants.get(grant.id)?.grant, at);
        const sent = sentRecords(state, grant.patientId, grant.accessLevel);
        const read = { what: readText(grant.accessLevel, sent) };
        if (readJustLogged(state.grants.get(grant.id)?.reads.at(-1), read, deps.now())) return { result: () => sent };
        return { records: [emergencyRecord(deps.randomId(), grant, 'read', iso(at), read)], result: () => sent };
      });
      const missing = epochsNotHeld(sent);
      const readBlock = store.state().grants.get(grant.id)?.reads.at(-1)?.block;
      if (missing.length > 0 && readBlock && releaseSummaries) await releaseSummaries(grant.id, missing, readBlock);
      const readable = await sealing.readable(signedIn);
      const records = openedEntries(readable, sent).map((entry) => recordView(readable, entry, scope.documents, arrivalOf));
      return {
        grant: { ...(readable.grants.get(grant.id)?.grant ?? grant) },
        patient: structuredClone(patientById(grant.patientId)),
        records,
        documentsReadable: scope.documents,
      };
    },

    async accessHistory() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      return accessHistoryOf(await sealing.readable(signedIn), signedIn.id, store.clock());
    },

    async acknowledgeEmergencyAccesses() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      await store.write('The acknowledgement was not saved', ({ verified: { state } }, at) => {
        // a session still open stays on the alert: dismissing it must not hide access that can still read
        const fresh = (state.patientGrants.get(signedIn.id) ?? []).filter((id) => {
          const known = state.grants.get(id);
          return known && !known.acknowledged && !isGrantActive(known.grant, at);
        });
        if (fresh.length === 0) return { result: () => undefined };
        return { records: [acknowledgementRecord(deps.randomId(), signedIn.id, fresh, iso(at))], result: () => undefined };
      });
    },
  };
  return { api, logRead };
}
