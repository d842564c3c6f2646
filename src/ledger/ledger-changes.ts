import { proxy } from 'comlink';
import { errorName } from './error-message';
import type { LedgerRemote } from './ledger-context';
import { LEDGER_UNAVAILABLE } from './ledger-watchdog';

// The API has no unsubscribe: register one worker listener per service and fan out locally.
const subscribers = new WeakMap<LedgerRemote, Set<() => void>>();

export function subscribeToChanges(service: LedgerRemote, listener: () => void): () => void {
  let listeners = subscribers.get(service);
  if (!listeners) {
    const created = new Set<() => void>();
    listeners = created;
    subscribers.set(service, created);
    service
      .onChange(proxy(() => created.forEach((notify) => notify())))
      .catch((error: unknown) => {
        // a dead worker has its own screen; anything else is worth a log
        if (errorName(error) !== LEDGER_UNAVAILABLE) console.error('MedLedger: could not subscribe to ledger changes', error);
      });
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
