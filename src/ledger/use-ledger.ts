import { useContext } from 'react';
import { LedgerContext, type LedgerContextValue, type LedgerRemote } from './ledger-context';

function useLedgerContext(): LedgerContextValue {
  const value = useContext(LedgerContext);
  if (!value) throw new Error('useLedger must be used inside <LedgerProvider>');
  return value;
}

export function useLedger(): LedgerRemote {
  return useLedgerContext().service;
}

// Changes whenever the ledger reports a change (this tab or another).
export function useLedgerVersion(): number {
  return useLedgerContext().version;
}
