// A classic script in index.html's head, run before the first paint (the CSP allows no inline script). The build
// pre-renders the login into #root (vite.config.ts); it is the first screen only at / for a visitor without a stored
// session, so elsewhere it is hidden until the app renders its own (src/start/mount-app.tsx, src/start/prerender.css).
(() => {
  let stored = null;
  try {
    stored = window.localStorage.getItem(document.currentScript?.dataset.sessionKey ?? '');
  } catch {
    // storage blocked: the app treats that as signed out too
  }
  if (window.location.pathname !== '/' || stored !== null) document.documentElement.classList.add('prerender-hidden');
})();
