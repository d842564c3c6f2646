import { useLayoutEffect } from 'react';

// Sent on document when the app's screen replaces a returning user's pre-rendered dashboard frame
// (src/app/mount-app.tsx): until then the app renders out of sight, where nothing can take focus.
export const SCREEN_SHOWN_EVENT = 'medledger:screen-shown';

// Set by public/start-app.js on <html> while that frame is on screen and the app renders beneath it, unseen.
export const SHELL_SHOWN_CLASS = 'shell-shown';

// Screens still waiting for something (a spinner is on screen): a returning user's pre-rendered dashboard frame
// stays in their place until there are none (src/app/mount-app.tsx).
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

// Runs `run` once, when the first screen with nothing pending is on screen: beneath a returning user's frame, once
// it has taken the frame's place (SCREEN_SHOWN_EVENT). Work that can wait (screens fetched ahead, the service
// worker) then neither delays nor adds to the bytes of that first screen (npm run bench -- --lighthouse).
export function whenScreenShown(run: () => void): void {
  whenNoScreenPending(() => {
    if (document.documentElement.classList.contains(SHELL_SHOWN_CLASS)) {
      document.addEventListener(SCREEN_SHOWN_EVENT, () => run(), { once: true });
    } else run();
  });
}
