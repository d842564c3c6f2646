import { endpointSymbol } from 'vite-plugin-comlink/symbol';
import { ledgerChanges, type LedgerChanges } from './ledger-changes';
import type { LedgerRemote } from './ledger-context';
import { livenessProbe, watchLedger, type WatchedLedger } from './ledger-watchdog';

// One worker and the watchdog over it; close() ends the worker for good.
export interface LedgerConnection extends WatchedLedger {
  close: () => void;
  changes?: LedgerChanges; // followed from the worker's start, so an answer asked for before React ran is kept in step
}

let current: LedgerConnection | undefined;

function startWorker(): LedgerConnection {
  // literal form required: vite-plugin-comlink rewrites only this expression
  const worker = new ComlinkWorker<typeof import('../../workers/ledger.worker')>(
    new URL('../../workers/ledger.worker', import.meta.url),
    { type: 'module' },
  );
  const endpoint = worker[endpointSymbol];
  const remote = worker.ledger as unknown as LedgerRemote;
  const watched = watchLedger(remote, { probe: () => livenessProbe(remote) });
  // An uncaught error in the worker (at start or later): its state can no longer be trusted.
  endpoint.addEventListener('error', (event) => {
    const detail = event instanceof ErrorEvent && event.message ? `: ${event.message}` : '';
    watched.fail(`The records service failed${detail}.`);
  });
  watched.onFailure(() => endpoint.terminate());
  const changes = ledgerChanges(watched.service);
  const stopFollowing = changes.follow();
  return {
    ...watched,
    changes,
    close: () => {
      stopFollowing();
      endpoint.terminate();
    },
  };
}

// The one place the worker starts, on first use (never at import), so tests inject their own proxy.
export function openWorkerLedger(): LedgerConnection {
  current ??= startWorker();
  return current;
}

// After a failure: end the old worker and start a fresh one, which loads the stored ledger again.
export function restartWorkerLedger(): LedgerConnection {
  current?.close();
  current = startWorker();
  return current;
}
