import { useContext } from 'react';
import type { ChangeKind } from '../../workers/api';
import { ALL_CHANGE_KINDS, versionOf } from './ledger-changes';
import { LedgerContext, type LedgerContextValue, type LedgerRemote } from './ledger-context';

export function useLedgerContext(): LedgerContextValue {
  const value = useContext(LedgerContext);
  if (!value) throw new Error('useLedger must be used inside <LedgerProvider>');
  return value;
}

export function useLedger(): LedgerRemote {
  return useLedgerContext().service;
}

// Changes whenever the ledger reports a change of one of `kinds` (this tab or another), or a reset.
export function useLedgerVersion(kinds: readonly ChangeKind[] = ALL_CHANGE_KINDS): number {
  return versionOf(useLedgerContext().versions, kinds);
}
