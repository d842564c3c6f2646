import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ChangeKind } from '../../workers/api';
import { LedgerContext, type LedgerRemote } from './ledger-context';
import { kindsOf, subscribeToChanges } from './ledger-changes';
import { createVersionStore } from './ledger-versions';
import { createSharedQuery } from './shared-query';
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
  const [versions] = useState(createVersionStore); // a store, not state: a notice re-renders only the screens of its kinds
  const resolved = service ?? (connection as LedgerConnection).service;
  const chainStatus = useMemo(() => createSharedQuery(() => resolved.chainStatus()), [resolved]);

  useEffect(() => connection?.onFailure(setFailure), [connection]);
  // The first change of a burst refreshes the screens at once, the rest of it once per CHANGE_THROTTLE_MS,
  // with the kinds of every change in between.
  useEffect(() => {
    let last = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending = new Set<ChangeKind>();
    const bump = () => {
      timer = undefined;
      last = performance.now();
      const kinds = pending;
      pending = new Set();
      if (kinds.has('chain') || kinds.has('signatures') || kinds.has('reset')) chainStatus.invalidate();
      versions.bump(kinds);
    };
    const unsubscribe = subscribeToChanges(resolved, (change) => {
      for (const kind of kindsOf(change)) pending.add(kind);
      if (timer !== undefined) return;
      const wait = last + CHANGE_THROTTLE_MS - performance.now();
      if (wait <= 0) bump();
      else timer = setTimeout(bump, wait);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [resolved, chainStatus, versions]);

  const restart = useCallback(() => {
    setFailure(null);
    setConnection(connect(true));
  }, [connect]);

  const value = useMemo(() => ({ service: resolved, versions, chainStatus }), [resolved, versions, chainStatus]);
  if (failure && renderFailure) return renderFailure({ error: failure, restart });
  return <LedgerContext.Provider value={value}>{children}</LedgerContext.Provider>;
}
