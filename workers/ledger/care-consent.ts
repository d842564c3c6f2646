// The patient's consent that the sync server's care network may open their files in an emergency
// (docs/decisions/document-keys-travel-wrapped.md): a block of the patient's, read and written for the signed-in
// patient only, so every device and the server decide on the same choice.
import type { LedgerService } from '../api';
import { requireRole } from '../core/access';
import { careConsentRecord, iso } from '../core/ledger-records';
import type { User } from '../core/types';
import { fail, type LedgerDeps } from './deps';
import type { LedgerStore } from './store';

export function createCareConsent(
  deps: LedgerDeps,
  store: LedgerStore,
  enter: () => Promise<User>,
  changed: () => void, // the wraps to send change: sync sends them at once
) {
  const api: Pick<LedgerService, 'careNetworkConsent' | 'setCareNetworkConsent'> = {
    async careNetworkConsent() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      const choice = store.state().careConsent.get(signedIn.id);
      return choice
        ? { on: choice.on, recorded: choice.bySetup ? 'setup' : 'patient', at: choice.at }
        : { on: false, recorded: null };
    },

    async setCareNetworkConsent(on) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      if (typeof on !== 'boolean') fail('ValidationError', 'Choose on or off.');
      await store.write('The consent was not saved', ({ verified: { state } }, at) =>
        state.careConsent.get(signedIn.id)?.on === on // already the recorded choice: nothing to sign
          ? { result: () => undefined }
          : { records: [careConsentRecord(deps.randomId(), signedIn.id, on, iso(at))], result: () => undefined },
      );
      changed();
      return on;
    },
  };
  return api;
}
