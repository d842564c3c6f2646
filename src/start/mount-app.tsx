import { useLayoutEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { APP_RUNNING, SIGN_IN_HELD, holdSignIn, signInFieldsOf } from '../auth/held-sign-in';
import { whenNoScreenPending } from '../components/pending-screen';

// Set by public/start-app.js where the pre-rendered login is not the screen the app shows first: hidden until then.
const PRERENDER_HIDDEN = 'prerender-hidden';
// Marks the first screen with no spinner left (npm run bench -- --lighthouse and --act read it).
const FIRST_SCREEN_MARK = 'medledger:first-screen';

function OnFirstCommit({ children }: { children: ReactNode }) {
  useLayoutEffect(() => whenNoScreenPending(() => performance.mark(FIRST_SCREEN_MARK)), []);
  return children;
}

// Renders the app into #root. Where the pre-rendered login is the first screen (at /, signed out), React hydrates it:
// the same nodes stay and go live, with what was typed in them. Where a Sign In was held before the app ran
// (src/auth/held-sign-in.ts), the login renders afresh with the held fields and signs in. Elsewhere the app renders
// afresh in its place.
export function mountApp(root: HTMLElement, app: ReactNode): void {
  const tree = <OnFirstCommit>{app}</OnFirstCommit>;
  const page = document.documentElement.classList;
  page.add(APP_RUNNING); // public/start-app.js holds no submit from now on
  const heldForm = page.contains(SIGN_IN_HELD) ? root.querySelector('form') : null;
  if (heldForm) holdSignIn(signInFieldsOf(heldForm));
  page.remove(SIGN_IN_HELD);
  if (root.firstElementChild !== null && !heldForm && !page.contains(PRERENDER_HIDDEN)) {
    hydrateRoot(root, tree, {
      onRecoverableError: (error) => console.warn('MedLedger: the pre-rendered screen was rendered again', error),
    });
    return;
  }
  root.replaceChildren();
  page.remove(PRERENDER_HIDDEN);
  createRoot(root).render(tree);
}
