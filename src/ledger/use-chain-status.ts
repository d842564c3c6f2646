import { startTransition, useEffect, useState } from 'react';
import type { ChainStatus } from '../../workers/api';
import { useLedgerContext } from './use-ledger';
import type { LedgerQuery } from './use-ledger-query';

// The chain's status, shared by every screen that shows it and refetched once per change of the chain. Not
// useSyncExternalStore: its updates always render at once, in one task; an answer renders here in a transition,
// in slices (a dashboard waits for it to render whole).
export function useChainStatus(): LedgerQuery<ChainStatus> {
  const { chainStatus } = useLedgerContext();
  const [seen, setSeen] = useState(() => ({ query: chainStatus, state: chainStatus.snapshot() }));
  useEffect(() => {
    const update = () => {
      const state = chainStatus.snapshot();
      startTransition(() =>
        setSeen((seen) => (seen.query === chainStatus && seen.state === state ? seen : { query: chainStatus, state })),
      );
    };
    const unsubscribe = chainStatus.subscribe(update);
    update(); // an answer that came between the render and this subscription
    return unsubscribe;
  }, [chainStatus]);
  const state = seen.query === chainStatus ? seen.state : chainStatus.snapshot(); // a restarted worker's query
  return { data: state.data, error: state.error, loading: !state.settled, reload: chainStatus.invalidate };
}
