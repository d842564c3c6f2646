import { useLayoutEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { whenNoScreenPending } from '../components/pending-screen';

// Set by public/start-app.js where the pre-rendered login is not the screen the app shows first: hidden until then.
const PRERENDER_HIDDEN = 'prerender-hidden';
// Marks the first screen with no spinner left (npm run bench -- --lighthouse and --act read it).
const FIRST_SCREEN_MARK = 'medledger:first-screen';

function OnFirstCommit({ children }: { children: ReactNode }) {
  useLayoutEffect(() => whenNoScreenPending(() => performance.mark(FIRST_SCREEN_MARK)), []);
  return children;
}

// Whether the build's pre-rendered login in #root is the screen the app shows first (at /, signed out).
export function hydratesPrerendered(root: HTMLElement): boolean {
  return root.firstElementChild !== null && !document.documentElement.classList.contains(PRERENDER_HIDDEN);
}

// Renders the app into #root. Where the pre-rendered login is the first screen, React hydrates it: the same nodes
// stay and go live (src/components/use-hydrated.ts). Elsewhere the app renders afresh in its place.
export function mountApp(root: HTMLElement, app: ReactNode): void {
  const tree = <OnFirstCommit>{app}</OnFirstCommit>;
  if (hydratesPrerendered(root)) {
    hydrateRoot(root, tree, {
      onRecoverableError: (error) => console.warn('MedLedger: the pre-rendered screen was rendered again', error),
    });
    return;
  }
  root.replaceChildren();
  document.documentElement.classList.remove(PRERENDER_HIDDEN);
  createRoot(root).render(tree);
}
