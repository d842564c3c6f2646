// Counts main-thread long tasks (over 50 ms) with PerformanceObserver, where the browser supports it (Chromium).
export interface LongTaskWindow {
  count: number;
  totalMs: number;
  longestMs: number;
}

export function longTasksSupported(): boolean {
  return typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('longtask') === true;
}

// Returns a function that stops observing and reports the long tasks seen since the call; null when unsupported.
export function observeLongTasks(): (() => LongTaskWindow) | null {
  if (!longTasksSupported()) return null;
  const seen: LongTaskWindow = { count: 0, totalMs: 0, longestMs: 0 };
  const add = (entries: PerformanceEntryList) => {
    for (const entry of entries) {
      seen.count += 1;
      seen.totalMs += entry.duration;
      seen.longestMs = Math.max(seen.longestMs, entry.duration);
    }
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ type: 'longtask' });
  return () => {
    // entries of a task that just ended may still be queued: take them before disconnecting
    add(observer.takeRecords());
    observer.disconnect();
    return seen;
  };
}
