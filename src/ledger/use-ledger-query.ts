import { useCallback, useEffect, useState } from 'react';
import type { LedgerRemote } from './ledger-context';
import { useLedger, useLedgerVersion } from './use-ledger';

export interface LedgerQuery<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean; // true only until the first answer; refreshes keep the previous data on screen
  reload: () => void;
}

// Runs `load` (keep it stable with useCallback) on mount, on reload() and after every ledger change.
export function useLedgerQuery<T>(load: (service: LedgerRemote) => Promise<T>): LedgerQuery<T> {
  const service = useLedger();
  const version = useLedgerVersion();
  const [reloads, setReloads] = useState(0);
  const [state, setState] = useState<{ data?: T; error?: Error; settled: boolean }>({ settled: false });

  useEffect(() => {
    let current = true;
    load(service).then(
      (data) => current && setState({ data, settled: true }),
      (error: unknown) =>
        current && setState((previous) => ({ data: previous.data, error: asError(error), settled: true })),
    );
    return () => {
      current = false;
    };
  }, [load, service, version, reloads]);

  const reload = useCallback(() => setReloads((count) => count + 1), []);
  return { data: state.data, error: state.error, loading: !state.settled, reload };
}

function asError(error: unknown): Error {
  return error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)
    ? (error as Error)
    : new Error(String(error));
}
