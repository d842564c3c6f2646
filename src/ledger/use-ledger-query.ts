import { startTransition, useCallback, useEffect, useState } from 'react';
import type { ChangeKind } from '../../workers/api';
import { asError } from './error-message';
import type { LedgerRemote } from './ledger-context';
import { ALL_CHANGE_KINDS } from './ledger-versions';
import { useChangeKinds, useLedgerContext } from './use-ledger';

export interface LedgerQuery<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean; // true only until the first answer; refreshes keep the previous data on screen
  reload: () => void;
}

// Runs `load` (keep it stable with useCallback) on mount, on reload() and after every ledger change of one of
// `kinds` (all of them when left out); a reset always refetches.
export function useLedgerQuery<T>(
  load: (service: LedgerRemote) => Promise<T>,
  kinds: readonly ChangeKind[] = ALL_CHANGE_KINDS,
): LedgerQuery<T> {
  const { service, versions } = useLedgerContext();
  const stableKinds = useChangeKinds(kinds);
  const [reloads, setReloads] = useState(0);
  const [state, setState] = useState<{ data?: T; error?: Error; settled: boolean }>({ settled: false });

  useEffect(() => {
    let latest = 0; // only the newest request's answer is shown; 0 after unmount
    const fetch = () => {
      const request = ++latest;
      // In a transition: a screen's data arrives all at once, and React renders it in slices that leave the
      // main thread free for input instead of in one long task.
      load(service).then(
        (data) => request === latest && startTransition(() => setState({ data, settled: true })),
        (error: unknown) =>
          request === latest &&
          startTransition(() => setState((previous) => ({ data: previous.data, error: asError(error), settled: true }))),
      );
    };
    fetch();
    // a change refetches without rendering: the screen renders once, when the new data arrives
    const unsubscribe = versions.subscribe(stableKinds, fetch);
    return () => {
      latest = 0;
      unsubscribe();
    };
  }, [load, service, versions, stableKinds, reloads]);

  const reload = useCallback(() => setReloads((count) => count + 1), []);
  return { data: state.data, error: state.error, loading: !state.settled, reload };
}
