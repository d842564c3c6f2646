// A classic script in index.html, run before #root is parsed (the CSP allows no inline script). The build pre-renders
// the login into #root (vite.config.ts); it is the first screen only at / for a visitor without a stored session, so
// elsewhere it is hidden until the app renders its own (src/start/mount-app.tsx, src/start/prerender.css).
(() => {
  const page = document.documentElement;
  let stored = null;
  try {
    stored = window.localStorage.getItem(document.currentScript?.dataset.sessionKey ?? '');
  } catch {
    // storage blocked: the app treats that as signed out too
  }
  if (window.location.pathname !== '/' || stored !== null) {
    page.classList.add('prerender-hidden');
    return;
  }
  // The pre-rendered login takes typing before the app runs. A Sign In pressed then (the browser has checked the
  // fields) is held instead of sent, and says so; the app signs in with its fields (src/auth/held-sign-in.ts).
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (page.classList.contains('app-running') || !(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    if (page.classList.contains('sign-in-held')) return;
    page.classList.add('sign-in-held');
    form.setAttribute('aria-busy', 'true');
    const button = form.querySelector('button[type="submit"]');
    if (button instanceof HTMLElement && button.dataset.busyLabel) button.textContent = button.dataset.busyLabel;
    form.querySelector('fieldset')?.setAttribute('disabled', '');
  });
})();
