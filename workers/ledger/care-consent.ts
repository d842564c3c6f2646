// The patient's consent that the sync server's care network may open their files in an emergency
// (docs/decisions/document-keys-travel-wrapped.md): read and set for the signed-in patient only.
import type { LedgerService } from '../api';
import { requireRole } from '../core/access';
import type { User } from '../core/types';
import { fail } from './deps';

// What this needs of key sharing (workers/ledger/key-sharing.ts), handed over by workers/service.ts.
export interface ConsentStore {
  careConsent(patientId: string): Promise<boolean>;
  setCareConsent(patientId: string, on: boolean): Promise<void>;
}

export function createCareConsent(
  keySharing: ConsentStore,
  enter: () => Promise<User>,
  changed: () => void, // the wraps to send change: sync sends them at once
) {
  const api: Pick<LedgerService, 'careNetworkConsent' | 'setCareNetworkConsent'> = {
    async careNetworkConsent() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      return keySharing.careConsent(signedIn.id);
    },

    async setCareNetworkConsent(on) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      if (typeof on !== 'boolean') fail('ValidationError', 'Choose on or off.');
      await keySharing.setCareConsent(signedIn.id, on);
      changed();
      return on;
    },
  };
  return api;
}
