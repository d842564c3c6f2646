import { useLayoutEffect } from 'react';

// Screens still waiting for something (a spinner is on screen). Work that can wait (screens fetched ahead, the
// service worker) starts once there are none, so it neither delays nor shares the network with the first screen.
const pending = new Set<symbol>();
let waiting: (() => void)[] = [];

// Every commit that removes a spinner may add another: checked once the commit is done.
function check(): void {
  queueMicrotask(() => {
    if (pending.size > 0 || waiting.length === 0) return;
    const ready = waiting;
    waiting = [];
    ready.forEach((run) => run());
  });
}

export function usePendingScreen(): void {
  useLayoutEffect(() => {
    const token = Symbol('pending screen');
    pending.add(token);
    return () => {
      pending.delete(token);
      check();
    };
  }, []);
}

// Runs `run` once, after the first commit that leaves no screen waiting (this one, if none waits now).
export function whenNoScreenPending(run: () => void): void {
  waiting.push(run);
  check();
}
