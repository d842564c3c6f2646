import { startTransition, useLayoutEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { options } from 'preact'; // React's names are Preact's in this app (preact-alias.ts): its render scheduling
import { SCREEN_SHOWN_EVENT, SHELL_SHOWN_CLASS, whenNoScreenPending, whenScreenShown } from '../components/pending-screen';

// Set by public/start-app.js where the pre-rendered login screen is not the screen the app will show.
const PRERENDER_HIDDEN = 'prerender-hidden';
const SHELL_ID = 'prerendered-shell';
const FIRST_SCREEN_MARK = 'medledger:first-screen';

// Runs once React's first commit is in the DOM, before the browser paints it.
function OnFirstCommit({ run, children }: { run: () => void; children: ReactNode }) {
  useLayoutEffect(run, [run]);
  return children;
}

// #root is React's own from now on: visible. The pre-rendered login's form goes live with the login screen's own first
// commit (src/features/login/login-page.tsx), which may come a task later: its code loads on its own.
function takeOver(root: HTMLElement): void {
  document.documentElement.classList.remove(PRERENDER_HIDDEN);
  // The frame stays until the app's screen is ready (no spinner left), then the app's screen takes its place in
  // one frame: new nodes where the frame's were, so nothing on screen shifts. The mark times the first screen
  // with its data (npm run bench -- --lighthouse).
  whenNoScreenPending(() => {
    if (!document.getElementById(SHELL_ID)) {
      performance.mark(FIRST_SCREEN_MARK);
      return;
    }
    afterNextFrame(() => {
      performance.mark(FIRST_SCREEN_MARK);
      // hidden at once, removed when idle: removing #root's sibling restyled every element of the screen (222 on
      // the patient's dashboard, 10-20 ms at 4x CPU), hiding it restyles four
      const shell = document.getElementById(SHELL_ID);
      if (shell) {
        shell.hidden = true;
        if (typeof requestIdleCallback === 'function') requestIdleCallback(() => shell.remove());
        else setTimeout(() => shell.remove(), 200);
      }
      document.documentElement.classList.remove(SHELL_SHOWN_CLASS);
      root.removeAttribute('aria-hidden');
      document.dispatchEvent(new Event(SCREEN_SHOWN_EVENT));
    });
  });
}

// The screen's last commit is styled and laid out (out of sight, src/app/prerender.css) in a frame of its own,
// so the task that shows it costs a paint, not the style and layout of the whole screen, on a slow phone.
// A hidden tab renders no frame: there it runs at once.
function afterNextFrame(run: () => void): void {
  if (document.visibilityState === 'hidden') run();
  else requestAnimationFrame(() => setTimeout(run, 0));
}

// Until the first screen shows, a render that a change of state asks for (a screen's code has loaded, the worker
// has answered) runs in a task of its own, not in the microtasks of the task that brought the change: on a slow
// phone the module's evaluation or the message's handling and that render were one long task together (Lighthouse's
// total blocking time). None of it is seen: the app renders beneath the frame, or hydrates the login in place.
function renderInTasksUntilShown(): void {
  const previous = options.debounceRendering;
  const channel = new MessageChannel(); // a task at once, where nested timers wait 4 ms
  const queued: (() => void)[] = [];
  let shown = false;
  const closeWhenDone = () => {
    if (shown && queued.length === 0) channel.port1.close();
  };
  channel.port1.onmessage = () => {
    queued.shift()?.();
    closeWhenDone();
  };
  options.debounceRendering = (render) => {
    queued.push(render);
    channel.port2.postMessage(null);
  };
  whenScreenShown(() => {
    options.debounceRendering = previous; // those queued still run, each in its task
    shown = true;
    closeWhenDone();
  });
}

// Whether the app takes over the build's pre-rendered login screen in #root (hydrates it) instead of rendering afresh:
// at /, signed out, with no word for the login screen (public/start-app.js hides it everywhere else).
export function hydratesPrerendered(root: HTMLElement): boolean {
  return root.firstElementChild !== null && !document.documentElement.classList.contains(PRERENDER_HIDDEN);
}

// Renders the app into #root. Where the build's pre-rendered login screen is the screen the app shows (at /,
// signed out), React hydrates it: the same nodes stay, nothing flickers. Elsewhere React renders afresh in its
// place; so it does, after a warning, if the screen came out different from the pre-rendered one. This first render
// is one task (Preact renders a transition at once); the renders after it are tasks of their own until the screen shows.
export function mountApp(root: HTMLElement, app: ReactNode): void {
  renderInTasksUntilShown();
  const run = () => takeOver(root);
  const tree = <OnFirstCommit run={run}>{app}</OnFirstCommit>;
  if (hydratesPrerendered(root)) {
    startTransition(() => {
      hydrateRoot(root, tree, {
        onRecoverableError: (error) => console.warn('MedLedger: the pre-rendered screen was rendered again', error),
      });
    });
    return;
  }
  startTransition(() => createRoot(root).render(tree));
}
