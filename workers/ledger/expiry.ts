// Records each grant's expiry on time (the worker sets expiryTimer); without the timer, the next call does.
import type { LedgerDeps } from './deps';
import type { LedgerStore } from './store';

const MAX_TIMER_MS = 2 ** 31 - 1;
const AFTER_EXPIRY_MS = 10; // fire just after the expiry instant, so the grant is due by then

export function createExpiry(deps: LedgerDeps, getStore: () => LedgerStore) {
  let timer: ReturnType<typeof setTimeout> | undefined;

  function anyDue(): boolean {
    const store = getStore();
    if (!store.loaded() || store.current().invalid) return false;
    const at = store.clock();
    for (const known of store.state().grants.values())
      if (!known.closedBy && at >= Date.parse(known.grant.expiresAt)) return true;
    return false;
  }

  async function recordDue(): Promise<void> {
    if (anyDue()) await getStore().write('The end of an emergency access was not saved', () => ({ result: () => undefined }));
  }

  // After every change of the projection: one timer for the earliest open grant; none while read-only.
  function reschedule(): void {
    if (!deps.expiryTimer) return;
    clearTimeout(timer);
    timer = undefined;
    const store = getStore();
    if (!store.loaded() || store.current().invalid) return;
    if (!store.current().storedKeys?.ledger.privateKey) return; // writes.ts: expiries are left to a device that holds the key
    let next = Infinity;
    for (const known of store.state().grants.values())
      if (!known.closedBy) next = Math.min(next, Date.parse(known.grant.expiresAt));
    if (next === Infinity) return;
    const delay = Math.min(Math.max(0, next - deps.now()) + AFTER_EXPIRY_MS, MAX_TIMER_MS);
    timer = setTimeout(() => {
      timer = undefined;
      recordDue()
        .then(() => timer ?? reschedule()) // nothing was due yet (a long wait is split): look again
        .catch(() => undefined);
    }, delay);
  }

  return { recordDue, reschedule };
}
