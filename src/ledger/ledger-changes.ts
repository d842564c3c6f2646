import { proxy, releaseProxy, type Remote } from 'comlink';
import type { ChangeKind, LedgerChange, Unsubscribe } from '../../workers/api';
import { errorName } from './error-message';
import type { LedgerRemote } from './ledger-context';
import { LEDGER_UNAVAILABLE } from './ledger-watchdog';

// A change that names no kind is not understood: refetch everything rather than show stale data.
export function kindsOf(change: LedgerChange | undefined): readonly ChangeKind[] {
  return Array.isArray(change?.kinds) && change.kinds.length > 0 ? change.kinds : ['reset'];
}

type ChangeHandler = (change: LedgerChange) => void;

interface Subscription {
  listeners: Set<ChangeHandler>;
  unsubscribe: Promise<Remote<Unsubscribe> | undefined>; // undefined when subscribing failed
}

// One worker listener per service, fanned out locally; the last local listener to leave ends it in the worker.
const subscriptions = new WeakMap<LedgerRemote, Subscription>();

export function subscribeToChanges(service: LedgerRemote, listener: ChangeHandler): () => void {
  let subscription = subscriptions.get(service);
  if (!subscription) {
    const listeners = new Set<ChangeHandler>();
    const unsubscribe = service
      .onChange(proxy((change: LedgerChange) => listeners.forEach((notify) => notify(change))))
      .catch((error: unknown) => {
        report('could not subscribe to ledger changes', error);
        return undefined;
      });
    subscription = { listeners, unsubscribe };
    subscriptions.set(service, subscription);
  }
  const current = subscription;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size > 0 || subscriptions.get(service) !== current) return;
    subscriptions.delete(service);
    void current.unsubscribe.then(end);
  };
}

async function end(unsubscribe: Remote<Unsubscribe> | undefined): Promise<void> {
  if (!unsubscribe) return;
  try {
    await unsubscribe();
  } catch (error) {
    report('could not unsubscribe from ledger changes', error);
  }
  try {
    unsubscribe[releaseProxy](); // closes this side's port of the remote function
  } catch {
    // already released: nothing left to close
  }
}

function report(what: string, error: unknown): void {
  // a dead worker has its own screen; anything else is worth a log
  if (errorName(error) !== LEDGER_UNAVAILABLE) console.error(`MedLedger: ${what}`, error);
}
