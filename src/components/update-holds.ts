import { useEffect } from 'react';

// What a reload into a new version must not cut short (an open emergency session, a running upload):
// the update prompt's Reload waits while any is held.
const holds = new Map<symbol, string>();
const listeners = new Set<() => void>();
let snapshot: readonly string[] = [];

function changed(): void {
  snapshot = [...new Set(holds.values())];
  for (const listener of listeners) listener();
}

export function subscribeUpdateHolds(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function updateHolds(): readonly string[] {
  return snapshot;
}

// Holds updates while `active`; `why` is the sentence the prompt shows ("Wait for the upload to finish.").
export function useHoldUpdates(active: boolean, why: string): void {
  useEffect(() => {
    if (!active) return;
    const hold = Symbol(why);
    holds.set(hold, why);
    changed();
    return () => {
      holds.delete(hold);
      changed();
    };
  }, [active, why]);
}
