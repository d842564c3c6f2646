import { startTransition, useCallback, useEffect, useState } from 'react';
import type { ChangeKind } from '../../workers/api';
import { asError } from './error-message';
import type { LedgerRemote } from './ledger-context';
import { ALL_CHANGE_KINDS, versionOf } from './ledger-versions';
import { useChangeKinds, useLedgerContext } from './use-ledger';

export interface LedgerQuery<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean; // true only until the first answer; refreshes keep the previous data on screen
  reload: () => void;
}

// A query whose last answer is kept (src/ledger/kept-answers.ts) under `key`, which names its arguments too.
export interface NamedQuery<T> {
  key: string;
  kinds: readonly ChangeKind[];
  load: (service: LedgerRemote) => Promise<T>;
}

interface QueryState<T> {
  data?: T;
  error?: Error;
  settled: boolean;
  key?: string; // the kept query `data` answers, and the ledger version it was asked at
  version?: number;
}

// Runs `load` (keep it stable with useCallback) on mount, on reload() and after every ledger change of one of
// `kinds` (all of them when left out); a reset always refetches. With a `keep` key, the answer is kept: a screen
// mounted again while none of `kinds` changed shows it at once, and asks again behind it (an answer may depend on
// the time, an access that ended), rendering again only if the new answer differs.
export function useLedgerQuery<T>(
  load: (service: LedgerRemote) => Promise<T>,
  kinds: readonly ChangeKind[] = ALL_CHANGE_KINDS,
  keep?: string,
): LedgerQuery<T> {
  const { service, versions, answers } = useLedgerContext();
  const stableKinds = useChangeKinds(kinds);
  const [reloads, setReloads] = useState(0);
  const [state, setState] = useState<QueryState<T>>(() => {
    const version = versionOf(versions.versions(), stableKinds);
    const kept = keep === undefined ? undefined : answers.settled<T>(keep, version);
    return kept ? { data: kept.data, settled: true, key: keep, version } : { settled: false };
  });
  const keptVersion = keep !== undefined && state.key === keep ? state.version : undefined;

  useEffect(() => {
    let latest = 0; // only the newest request's answer is shown; 0 after unmount
    const fetch = (fresh: boolean) => {
      const request = ++latest;
      const version = versionOf(versions.versions(), stableKinds);
      const asked = keep === undefined ? load(service) : answers.answer(keep, version, () => load(service), fresh);
      // In a transition: a screen's data arrives all at once, and React renders it in slices that leave the
      // main thread free for input instead of in one long task.
      asked.then(
        (data) =>
          request === latest &&
          startTransition(() =>
            setState((previous) =>
              previous.key === keep && previous.version === version && !previous.error && sameAnswer(previous.data, data)
                ? previous
                : { data, settled: true, key: keep, version },
            ),
          ),
        (error: unknown) =>
          request === latest &&
          startTransition(() => setState((previous) => ({ ...previous, error: asError(error), settled: true }))),
      );
    };
    // a kept answer shown at the first render (also if one of `kinds` moved since) is asked for again, fresh
    fetch(reloads > 0 || keptVersion !== undefined);
    // a change refetches without rendering: the screen renders once, when the new data arrives
    const unsubscribe = versions.subscribe(stableKinds, () => fetch(false));
    return () => {
      latest = 0;
      unsubscribe();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keptVersion is read at mount: later answers set it
  }, [load, service, versions, answers, stableKinds, keep, reloads]);

  const reload = useCallback(() => setReloads((count) => count + 1), []);
  return { data: state.data, error: state.error, loading: !state.settled, reload };
}

// Worker answers are plain data (structured clones): the same JSON is the same answer.
function sameAnswer(shown: unknown, data: unknown): boolean {
  return shown !== undefined && JSON.stringify(shown) === JSON.stringify(data);
}

// useLedgerQuery of a named query, its answer kept.
export function useNamedQuery<T>(query: NamedQuery<T>): LedgerQuery<T> {
  return useLedgerQuery(query.load, query.kinds, query.key);
}
