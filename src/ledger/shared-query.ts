import { asError } from './error-message';

export interface QuerySnapshot<T> {
  data?: T;
  error?: Error;
  settled: boolean; // an answer (data or error) has arrived
}

// One fetch shared by every screen that shows the same data: a change refetches it once, not once per screen.
export interface SharedQuery<T> {
  subscribe: (listener: () => void) => () => void;
  snapshot: () => QuerySnapshot<T>;
  invalidate: () => void; // refetch now if anyone is watching, else when someone next does
  prefetch: () => void; // fetch now unless an answer is known or on its way (for a screen about to show it)
}

export function createSharedQuery<T>(load: () => Promise<T>): SharedQuery<T> {
  const listeners = new Set<() => void>();
  let state: QuerySnapshot<T> = { settled: false };
  let stale = true;
  let latest = 0;

  const publish = (next: QuerySnapshot<T>) => {
    state = next;
    listeners.forEach((notify) => notify());
  };

  const fetch = () => {
    stale = false;
    const request = ++latest;
    new Promise<T>((resolve) => resolve(load())).then(
      (data) => {
        if (request === latest) publish({ data, settled: true });
      },
      (error: unknown) => {
        if (request !== latest) return;
        stale = true; // the next screen to show it tries again
        publish({ data: state.data, error: asError(error), settled: true });
      },
    );
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (stale) fetch();
      return () => {
        listeners.delete(listener);
      };
    },
    snapshot: () => state,
    invalidate() {
      stale = true;
      if (listeners.size > 0) fetch();
    },
    prefetch() {
      if (stale) fetch();
    },
  };
}
