import { useSyncExternalStore } from 'react';
import type { ChainStatus } from '../../workers/api';
import { useLedgerContext } from './use-ledger';
import type { LedgerQuery } from './use-ledger-query';

// The chain's status, shared by every screen that shows it and refetched once per change of the chain.
export function useChainStatus(): LedgerQuery<ChainStatus> {
  const { chainStatus } = useLedgerContext();
  const state = useSyncExternalStore(chainStatus.subscribe, chainStatus.snapshot);
  return { data: state.data, error: state.error, loading: !state.settled, reload: chainStatus.invalidate };
}
