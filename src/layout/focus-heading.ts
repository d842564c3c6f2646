import { SCREEN_SHOWN_EVENT, SHELL_SHOWN_CLASS } from '../components/pending-screen';

// Puts focus on the screen's heading (h1) as soon as it is shown, unless the user or the screen has moved focus
// elsewhere meanwhile. Returns a cleanup that stops waiting. A screen may show a spinner before its heading.
export function focusHeadingWhenShown(main: HTMLElement): () => void {
  const untouched = () => document.activeElement === document.body || document.activeElement === main;
  const tryFocus = (): boolean => {
    if (!untouched()) return true; // someone else chose where focus goes: stop waiting
    // beneath the pre-rendered frame the screen is out of sight: wait for SCREEN_SHOWN_EVENT (a focus call there
    // would also style the whole screen at once, on every change of it)
    if (document.documentElement.classList.contains(SHELL_SHOWN_CLASS)) return false;
    const heading = main.querySelector<HTMLHeadingElement>('h1');
    if (!heading) return false;
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
    return document.activeElement === heading; // not while the app renders out of sight
  };
  if (tryFocus()) return () => undefined;
  const retry = () => {
    if (!tryFocus()) return;
    observer.disconnect();
    document.removeEventListener(SCREEN_SHOWN_EVENT, retry);
  };
  const observer = new MutationObserver(retry);
  observer.observe(main, { childList: true, subtree: true });
  document.addEventListener(SCREEN_SHOWN_EVENT, retry);
  return () => {
    observer.disconnect();
    document.removeEventListener(SCREEN_SHOWN_EVENT, retry);
  };
}
