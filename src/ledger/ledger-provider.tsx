import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LedgerContext, type LedgerRemote } from './ledger-context';
import { subscribeToChanges } from './ledger-changes';
import { openWorkerLedger, restartWorkerLedger, type LedgerConnection } from './ledger-worker';

export interface LedgerFailureProps {
  error: Error;
  restart: () => void; // a fresh worker; the screens mount again and load the stored ledger
}

interface LedgerProviderProps {
  service?: LedgerRemote; // tests pass a proxy over a MessageChannel; the app leaves it out
  connect?: (restart: boolean) => LedgerConnection; // the worker and its watchdog; tests pass their own
  renderFailure?: (failure: LedgerFailureProps) => ReactNode; // shown instead of the app once the worker is gone
  children: ReactNode;
}

// A stream of changes (a bulk import, another tab uploading) refetches the screens' data at most this often.
const CHANGE_THROTTLE_MS = 250;

const connectWorker = (restart: boolean) => (restart ? restartWorkerLedger() : openWorkerLedger());

export function LedgerProvider({ service, connect = connectWorker, renderFailure, children }: LedgerProviderProps) {
  const [connection, setConnection] = useState<LedgerConnection | null>(() => (service ? null : connect(false)));
  const [failure, setFailure] = useState<Error | null>(null);
  const [version, setVersion] = useState(0);
  const resolved = service ?? (connection as LedgerConnection).service;

  useEffect(() => connection?.onFailure(setFailure), [connection]);
  // The first change of a burst refreshes the screens at once, the rest of it once per CHANGE_THROTTLE_MS.
  useEffect(() => {
    let last = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bump = () => {
      timer = undefined;
      last = performance.now();
      setVersion((current) => current + 1);
    };
    const unsubscribe = subscribeToChanges(resolved, () => {
      if (timer !== undefined) return;
      const wait = last + CHANGE_THROTTLE_MS - performance.now();
      if (wait <= 0) bump();
      else timer = setTimeout(bump, wait);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [resolved]);

  const restart = useCallback(() => {
    setFailure(null);
    setConnection(connect(true));
  }, [connect]);

  const value = useMemo(() => ({ service: resolved, version }), [resolved, version]);
  if (failure && renderFailure) return renderFailure({ error: failure, restart });
  return <LedgerContext.Provider value={value}>{children}</LedgerContext.Provider>;
}
