import { proxy, releaseProxy, type Remote } from 'comlink';
import type { ChainStatus, ChangeKind, LedgerChange, Unsubscribe } from '../../workers/api';
import { errorName } from './error-message';
import { createKeptAnswers, type KeptAnswers } from './kept-answers';
import type { LedgerRemote } from './ledger-context';
import { createVersionStore, type LedgerVersionStore } from './ledger-versions';
import { LEDGER_UNAVAILABLE } from './ledger-watchdog';
import { createSharedQuery, type SharedQuery } from './shared-query';

// What the screens know of one worker's ledger, kept in step with its change notices from follow() on.
export interface LedgerChanges {
  versions: LedgerVersionStore; // per change kind, bumped when the worker reports a change of that kind
  chainStatus: SharedQuery<ChainStatus>; // one fetch for every screen that shows the chain's status
  answers: KeptAnswers; // named queries' last answers, by version
  follow: () => () => void; // listens to the worker's notices until the function it returns is called
}

// A stream of changes (a bulk import, another tab uploading) refetches the screens' data at most this often.
const CHANGE_THROTTLE_MS = 250;

export function ledgerChanges(service: LedgerRemote): LedgerChanges {
  const versions = createVersionStore();
  const chainStatus = createSharedQuery(() => service.chainStatus());
  const answers = createKeptAnswers();
  // The first change of a burst refreshes the screens at once, the rest of it once per CHANGE_THROTTLE_MS, with the
  // kinds of every change in between.
  const follow = () => {
    let last = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending = new Set<ChangeKind>();
    const bump = () => {
      timer = undefined;
      last = performance.now();
      const kinds = pending;
      pending = new Set();
      if (kinds.has('chain') || kinds.has('signatures') || kinds.has('reset')) chainStatus.invalidate();
      if (kinds.has('reset') || kinds.has('signed-out')) answers.clear(); // nothing kept outlives what it was read from
      versions.bump(kinds);
    };
    const unsubscribe = subscribeToChanges(service, (change) => {
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
  };
  return { versions, chainStatus, answers, follow };
}

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
