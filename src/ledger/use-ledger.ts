import { useCallback, useContext, useMemo, useSyncExternalStore } from 'react';
import type { ChangeKind } from '../../workers/api';
import { LedgerContext, type LedgerContextValue, type LedgerRemote } from './ledger-context';
import { ALL_CHANGE_KINDS, versionOf } from './ledger-versions';

export function useLedgerContext(): LedgerContextValue {
  const value = useContext(LedgerContext);
  if (!value) throw new Error('useLedger must be used inside <LedgerProvider>');
  return value;
}

// The same object for the life of the worker: a component that only calls the service never re-renders on a change.
export function useLedger(): LedgerRemote {
  return useLedgerContext().service;
}

// The same kinds from one render to the next: callers pass a fresh array literal on every render.
export function useChangeKinds(kinds: readonly ChangeKind[]): readonly ChangeKind[] {
  const key = kinds.join();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key is the array's contents
  return useMemo(() => kinds, [key]);
}

// Changes whenever the ledger reports a change of one of `kinds` (this tab or another), or a reset; a change of
// any other kind does not render the caller.
export function useLedgerVersion(kinds: readonly ChangeKind[] = ALL_CHANGE_KINDS): number {
  const { versions } = useLedgerContext();
  const stable = useChangeKinds(kinds);
  const subscribe = useCallback((listener: () => void) => versions.subscribe(stable, listener), [versions, stable]);
  const read = () => versionOf(versions.versions(), stable);
  return useSyncExternalStore(subscribe, read, read);
}
