import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { LedgerContext, type LedgerRemote } from './ledger-context';
import { subscribeToChanges } from './ledger-changes';
import { openWorkerLedger } from './ledger-worker';

interface LedgerProviderProps {
  service?: LedgerRemote; // tests pass a proxy over a MessageChannel; the app leaves it out
  children: ReactNode;
}

export function LedgerProvider({ service, children }: LedgerProviderProps) {
  const [resolved] = useState(() => service ?? openWorkerLedger());
  const [version, setVersion] = useState(0);

  useEffect(() => subscribeToChanges(resolved, () => setVersion((current) => current + 1)), [resolved]);

  const value = useMemo(() => ({ service: resolved, version }), [resolved, version]);
  return <LedgerContext.Provider value={value}>{children}</LedgerContext.Provider>;
}
