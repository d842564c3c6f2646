// Puts focus on the screen's heading (h1) as soon as it is shown, unless the user or the screen has moved focus
// elsewhere meanwhile. Returns a cleanup that stops waiting. A screen may show a spinner before its heading.
export function focusHeadingWhenShown(main: HTMLElement): () => void {
  const untouched = () => document.activeElement === document.body || document.activeElement === main;
  const tryFocus = (): boolean => {
    if (!untouched()) return true; // someone else chose where focus goes: stop waiting
    const heading = main.querySelector<HTMLHeadingElement>('h1');
    if (!heading) return false;
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
    return document.activeElement === heading;
  };
  if (tryFocus()) return () => undefined;
  const retry = () => {
    if (!tryFocus()) return;
    observer.disconnect();
  };
  const observer = new MutationObserver(retry);
  observer.observe(main, { childList: true, subtree: true });
  return () => observer.disconnect();
}
