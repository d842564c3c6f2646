import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LedgerContext, type LedgerRemote } from './ledger-context';
import { ledgerChanges } from './ledger-changes';
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

const connectWorker = (restart: boolean) => (restart ? restartWorkerLedger() : openWorkerLedger());

export function LedgerProvider({ service, connect = connectWorker, renderFailure, children }: LedgerProviderProps) {
  const [connection, setConnection] = useState<LedgerConnection | null>(() => (service ? null : connect(false)));
  const [failure, setFailure] = useState<Error | null>(null);
  const resolved = service ?? (connection as LedgerConnection).service;
  // The app's worker follows its changes from its start (src/ledger/ledger-worker.ts); an injected service from here.
  const own = useMemo(() => (connection?.changes ? null : ledgerChanges(resolved)), [connection, resolved]);
  const changes = connection?.changes ?? own!;

  useEffect(() => connection?.onFailure(setFailure), [connection]);
  useEffect(() => own?.follow(), [own]);

  const restart = useCallback(() => {
    setFailure(null);
    setConnection(connect(true));
  }, [connect]);

  const value = useMemo(
    () => ({ service: resolved, versions: changes.versions, chainStatus: changes.chainStatus, answers: changes.answers }),
    [resolved, changes],
  );
  if (failure && renderFailure) return renderFailure({ error: failure, restart });
  return <LedgerContext.Provider value={value}>{children}</LedgerContext.Provider>;
}
