import type { EmergencyGrant } from '../../workers/core/types';
import type { LedgerRemote } from './ledger-context';
import { useLedgerQuery, type LedgerQuery } from './use-ledger-query';

const loadActiveGrants = (service: LedgerRemote) => service.activeGrants(); // module level: stable for useLedgerQuery

// The signed-in user's emergency grants that are open now, newest first; refetched when a grant changes.
export function useActiveGrants(): LedgerQuery<EmergencyGrant[]> {
  return useLedgerQuery(loadActiveGrants, ['grants'], 'active-grants');
}
