// Patient sharing: a patient shares their records with a listed doctor for a while, and revokes it; the doctor
// reads under the share as under an emergency grant of the same level, every read logged on the chain.
import type { LedgerService, ShareEntry, ShareRequest } from '../api';
import {
  accessDenied,
  accessScope,
  isShareActive,
  readText,
  requireRole,
  sentRecords,
  validateShareRequest,
} from '../core/access';
import { DOCTORS, findUser } from '../core/directory';
import { checkText } from '../core/text-input';
import { type AccessRead, iso, shareExpiresAt, shareRecord } from '../core/ledger-records';
import type { LedgerState } from '../core/projection';
import { splitSealed } from '../core/records/shape';
import { SHARE_DETAILS } from '../core/records/share';
import type { Share, ShareDetails, User } from '../core/types';
import { fail, type LedgerDeps } from './deps';
import type { Sealing } from './sealing';
import type { LedgerStore } from './store';
import { type ArrivalOf, openedEntries, patientById, readEntry, readJustLogged, recordView } from './views';

function sharesOf(state: LedgerState, ids: readonly string[] | undefined): Share[] {
  return (ids ?? []).flatMap((id) => state.shares.get(id)?.share ?? []).reverse(); // newest first
}

// The doctor's own share, in force at `at`: anything else reads as no access at all.
function usableShare(signedIn: User, state: LedgerState, shareId: unknown, at: number): Share {
  const share = typeof shareId === 'string' ? state.shares.get(shareId)?.share : undefined;
  if (!share || signedIn.role !== 'doctor' || share.doctorId !== signedIn.id || !isShareActive(share, at)) throw accessDenied();
  return share;
}

export function createSharing(
  deps: LedgerDeps,
  store: LedgerStore,
  enter: () => Promise<User>,
  sealing: Sealing,
  arrivalOf?: ArrivalOf,
) {
  // Reads under a share are on the chain before the data leaves the worker; the same read once a minute.
  async function logShareRead(signedIn: User, shareId: string, read: AccessRead): Promise<void> {
    await store.write('The shared read could not be recorded', ({ verified: { state } }, at) => {
      const share = usableShare(signedIn, state, shareId, at);
      if (readJustLogged(state.shares.get(shareId)?.reads.at(-1), read, deps.now())) return { result: () => undefined };
      return { records: [shareRecord(deps.randomId(), share, 'read', iso(at), read)], result: () => undefined };
    });
  }

  const api: Pick<LedgerService, 'shareRecords' | 'revokeShare' | 'myShares' | 'sharedWithMe' | 'sharedView'> = {
    async shareRecords(request: ShareRequest) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      store.assertWritable();
      const problem = validateShareRequest(request ?? {}, (id) => DOCTORS.some((doctor) => doctor.id === id));
      if (problem) fail('ValidationError', problem);
      return store.write('The share was not saved', async ({ verified: { state } }, at) => {
        const share: Share = {
          id: deps.randomId(),
          patientId: signedIn.id,
          doctorId: request.doctorId,
          accessLevel: request.accessLevel,
          durationDays: request.durationDays,
          note: checkText('note', request.note ?? '').text, // NFC, trimmed: as the chain's rule wants it
          createdAt: iso(at),
          expiresAt: shareExpiresAt(at, request.durationDays),
        };
        const record = shareRecord(deps.randomId(), share, 'shared', share.createdAt);
        const binding = { recordId: record.id, patientId: share.patientId, type: record.type };
        // sealing takes every detail its kind does not list as clear (records/share.ts): today the note
        const details = splitSealed(SHARE_DETAILS, record.share);
        const sealed = await sealing.sealForPair(state, binding, details.sealed, share.doctorId, signedIn.id);
        if (sealed) {
          record.description = ''; // it repeats the note, which may say why: it travels sealed only
          record.share = { ...(details.clear as unknown as ShareDetails), sealedNote: sealed };
        }
        return { records: [record], result: () => ({ ...share }) };
      });
    },

    async revokeShare(shareId) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      return store.write('Revoking the share was not saved', ({ verified: { state } }, at) => {
        const known = typeof shareId === 'string' ? state.shares.get(shareId) : undefined;
        if (!known || known.share.patientId !== signedIn.id) fail('NotFoundError', 'This share no longer exists.');
        if (known.share.revokedAt !== undefined) return { result: () => ({ ...known.share }) }; // a second click
        return {
          records: [shareRecord(deps.randomId(), known.share, 'revoked', iso(at))],
          result: () => ({ ...(store.state().shares.get(known.share.id)?.share ?? known.share) }),
        };
      });
    },

    async myShares() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      const state = await sealing.readable(signedIn);
      const at = store.clock();
      return sharesOf(state, state.patientShares.get(signedIn.id)).map((share): ShareEntry => ({
        share: { ...share },
        doctorName: findUser(share.doctorId)?.name ?? share.doctorId,
        status: share.revokedAt !== undefined ? 'revoked' : isShareActive(share, at) ? 'active' : 'expired',
        reads: (state.shares.get(share.id)?.reads ?? []).map((read) => readEntry(state, read)),
      }));
    },

    async sharedWithMe() {
      const signedIn = await enter();
      requireRole(signedIn, 'doctor');
      const state = await sealing.readable(signedIn);
      const at = store.clock();
      return sharesOf(state, state.doctorShares.get(signedIn.id))
        .filter((share) => isShareActive(share, at))
        .map((share) => ({
          share: { ...share },
          patient: structuredClone(patientById(share.patientId)),
          opened: (state.shares.get(share.id)?.reads.length ?? 0) > 0,
        }));
    },

    async sharedView(shareId) {
      const signedIn = await enter();
      const share = usableShare(signedIn, store.state(), shareId, store.clock());
      const scope = accessScope(share.accessLevel);
      // the records are taken from the state the read is recorded on: the patient is told exactly what was sent
      const sent = await store.write('The shared read could not be recorded', ({ verified: { state } }, at) => {
        usableShare(signedIn, state, share.id, at);
        const sent = sentRecords(state, share.patientId, share.accessLevel);
        const read = { what: readText(share.accessLevel, sent) };
        if (readJustLogged(state.shares.get(share.id)?.reads.at(-1), read, deps.now())) return { result: () => sent };
        return { records: [shareRecord(deps.randomId(), share, 'read', iso(at), read)], result: () => sent };
      });
      const readable = await sealing.readable(signedIn);
      const records = openedEntries(readable, sent).map((entry) => recordView(readable, entry, scope.documents, arrivalOf));
      return {
        share: { ...(readable.shares.get(share.id)?.share ?? share) },
        patient: structuredClone(patientById(share.patientId)),
        records,
        documentsReadable: scope.documents,
      };
    },
  };
  return { api, logShareRead };
}
