// A classic script in index.html's head (the CSP allows no inline script). The build pre-renders the login
// screen into #root (vite.config.ts): it is the right screen only at / for a visitor without a stored session
// ('currentUser', src/auth/session-storage.ts), so elsewhere it stays hidden until the app has rendered. The
// app's JavaScript is requested after that first paint (the build moves its entry into data-entry), so a slow
// network shows the screen first.
(() => {
  let stored = null;
  try {
    stored = window.localStorage.getItem('currentUser');
  } catch {
    // storage blocked: the app treats that as signed out too
  }
  if (window.location.pathname !== '/' || stored !== null) document.documentElement.classList.add('prerender-hidden');

  const self = document.currentScript;
  const entry = self?.getAttribute('data-entry');
  if (!entry) return; // npm run dev: index.html loads the app itself
  const preloads = (self.getAttribute('data-preload') ?? '').split(' ').filter(Boolean);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // one insertion for all of them: each element inserted on its own costs a slow phone a moment of the main thread
    const elements = document.createDocumentFragment();
    for (const href of preloads) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      elements.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.src = entry;
    elements.append(script);
    document.head.append(elements);
  };
  // Once the screen is painted (first-contentful-paint). Nothing is painted when the pre-rendered screen is
  // hidden or the tab is in the background: then at once. The timer is a last resort, should no paint come.
  const hidden = document.documentElement.classList.contains('prerender-hidden') || document.visibilityState === 'hidden';
  if (hidden || typeof PerformanceObserver !== 'function') {
    start();
    return;
  }
  new PerformanceObserver((entries, observer) => {
    if (!entries.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  setTimeout(start, 3000);
})();
