import { useCallback } from 'react';
import type { SyncStatus } from '../../workers/api';
import type { LedgerRemote } from './ledger-context';
import { useLedgerQuery, type LedgerQuery } from './use-ledger-query';

const SYNC_KINDS = ['sync', 'chain'] as const; // the state moves on its own notices; new blocks change the counts

// This device's link to a sync server, refetched when it changes.
export function useSyncStatus(): LedgerQuery<SyncStatus> {
  const load = useCallback((service: LedgerRemote) => service.syncStatus(), []);
  return useLedgerQuery(load, SYNC_KINDS, 'sync-status');
}
