import { useEffect } from 'react';

const LONGEST_TIMER_MS = 2 ** 31 - 1; // setTimeout fires at once past this (about 24.8 days)
const AFTER_EXPIRY_MS = 1000; // the worker reads its own clock: ask it a moment after the expiry

// No change notice marks a share's expiry (it is a time, not a block): reload once the soonest one has passed.
export function useReloadAtExpiry(expiries: readonly (string | null)[], reload: () => void): void {
  const next = Math.min(...expiries.map((at) => (at === null ? Infinity : Date.parse(at))));
  useEffect(() => {
    const wait = next - Date.now();
    if (!Number.isFinite(wait) || wait <= 0 || wait > LONGEST_TIMER_MS) return;
    const timer = setTimeout(reload, wait + AFTER_EXPIRY_MS);
    return () => clearTimeout(timer);
  }, [next, reload]);
}
