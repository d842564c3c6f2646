// Change notices: this tab's screens (onChange listeners) and the other tabs' workers (BroadcastChannel).
import { proxy } from 'comlink';
import type { ChangeListener, LedgerChange, LedgerService } from '../api';
import type { LedgerDeps } from './deps';

export function createChanges(deps: LedgerDeps) {
  const listeners = new Set<ChangeListener>();
  const source = deps.randomId();

  function notifyLocal(change: LedgerChange): void {
    for (const listener of listeners) {
      try {
        Promise.resolve(listener(change) as unknown).catch(() => undefined); // a closed tab's proxy may reject
      } catch {
        // a listener's failure is not the ledger's
      }
    }
  }

  // This tab changed the stored ledger: its screens and the other tabs hear of it.
  function announce(change: LedgerChange): void {
    notifyLocal(change);
    deps.notifyOthers?.({ type: 'changed', source, ...change });
  }

  // Another tab changed it: `reload` loads what it wrote (false when already seen), then the screens hear of it.
  function followOthers(reload: () => Promise<boolean>): void {
    deps.listenToOthers?.((message) => {
      if (message?.type !== 'changed' || message.source === source) return;
      reload()
        .then((reloaded) => reloaded && notifyLocal({ revision: message.revision, kinds: message.kinds }))
        .catch(() => undefined);
    });
  }

  const api: Pick<LedgerService, 'onChange'> = {
    async onChange(listener) {
      listeners.add(listener); // carries no data, so no sign-in needed
      return proxy(() => {
        listeners.delete(listener);
      });
    },
  };
  return { api, announce, notifyLocal, followOthers };
}
