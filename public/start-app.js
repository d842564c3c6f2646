// A classic script in index.html's head (the CSP allows no inline script). The build pre-renders the login
// screen into #root (vite.config.ts): it is the right screen only at / for a visitor without a stored session
// ('currentUser', src/auth/session-storage.ts) nor a sign-in notice, so elsewhere it stays hidden until the app has rendered. For a
// returning user at / or their dashboard, the build's frame of that dashboard (a <template> per user in the
// directory, src/app/prerender-shell.tsx) shows instead until the app's screen is ready (src/app/mount-app.tsx).
// The app's JavaScript and the web app manifest are requested after that first paint (the build moves them into
// data attributes), so a slow network shows the screen first.
(() => {
  const html = document.documentElement;
  let stored = null;
  try {
    stored = window.localStorage.getItem('currentUser');
  } catch {
    // storage blocked: the app treats that as signed out too
  }
  // A word left for the login screen (src/components/sign-in-notice.ts) adds an alert the pre-rendered screen lacks:
  // hidden too, so React renders the screen afresh instead of hydrating one that differs (React error #418).
  let notice = null;
  try {
    notice = window.sessionStorage.getItem('medledger-sign-in-notice');
  } catch {
    // storage blocked: the login screen has no notice to show either
  }
  const path = window.location.pathname;
  if (path !== '/' || stored !== null || notice !== null) html.classList.add('prerender-hidden');

  // Only the stored id picks a frame, and every frame is built from the user directory alone: the stored entry's
  // other fields are never shown (the app trusts none of it either, docs/decisions/session-lookup.md).
  let shellId = null;
  if (stored !== null && (path === '/' || /^\/(patient|doctor)\/dashboard$/.test(path))) {
    try {
      const id = JSON.parse(stored)?.id;
      if (typeof id === 'string') shellId = id;
    } catch {
      // not JSON: the app signs out
    }
  }
  // Until the frame shows, the hidden login is not laid out either: the frame replaces it, and its style and layout
  // were a task of their own before the frame's (22 ms in a Lighthouse trace, unthrottled).
  if (shellId !== null) html.classList.add('shell-pending');
  let shellRole = null; // 'patient' or 'doctor', once that dashboard's frame shows
  const showShell = () => {
    const template = document.getElementById(`shell-${shellId}`);
    const root = document.getElementById('root');
    if (!(template instanceof HTMLTemplateElement) || !root || (path !== '/' && template.dataset.path !== path)) return false;
    const shell = document.createElement('div');
    shell.id = 'prerendered-shell';
    shell.inert = true; // nothing in it works before the app runs; the app's own screen replaces it
    shell.append(template.content.cloneNode(true));
    root.replaceChildren(); // the pre-rendered login is not this user's screen: React renders #root afresh
    // The app renders there unseen (src/app/prerender.css): out of the accessibility tree, and nothing in it takes
    // focus until it shows. Not inert: inert is inherited, and lifting it restyled the whole screen in one task.
    root.setAttribute('aria-hidden', 'true');
    root.addEventListener('focusin', (event) => {
      if (html.classList.contains('shell-shown') && event.target instanceof HTMLElement) event.target.blur();
    });
    root.before(shell);
    html.classList.add('shell-shown');
    shellRole = template.dataset.path.split('/')[1];
    return true;
  };

  const addManifest = (href) => {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = href;
    document.head.append(link);
  };
  const afterFirstScreen = (run) => {
    const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 1000));
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      idle(run, { timeout: 5000 });
    };
    if (typeof PerformanceObserver === 'function') {
      new PerformanceObserver((entries, observer) => {
        if (!entries.getEntriesByName('medledger:first-screen').length) return;
        observer.disconnect();
        once();
      }).observe({ type: 'mark', buffered: true });
    }
    setTimeout(once, 10000); // should the app never show a screen: the manifest still comes
  };

  const self = document.currentScript;
  const entry = self?.getAttribute('data-entry');
  if (!entry) return; // npm run dev: index.html loads the app itself (and has no frames)
  const hrefs = (name) => (self.getAttribute(name) ?? '').split(' ').filter(Boolean);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // The login screen's code is its own chunk: a returning user's dashboard does not wait for it. That dashboard's
    // code with the layout's comes after the stages', for the frame's user only: the app's first render then finds
    // it requested, where it would have inserted the links itself (a long task on a slow phone).
    const preloads = [
      ...hrefs('data-preload'),
      ...(stored === null ? hrefs('data-preload-guest') : []),
      ...(shellRole === null ? [] : hrefs(`data-preload-${shellRole}`)),
    ];
    const script = document.createElement('script');
    script.type = 'module';
    script.src = entry;
    document.head.append(script);
    // The preloads in the stages' order, a few per task and none in the entry's: each inserted element starts a
    // request, the module script a module loader too (3-7 ms, measured unthrottled), and six links with it were a
    // long task on a slow phone (Lighthouse: 53-80 ms at 4x CPU, right after the first paint).
    const rest = [...preloads];
    const insertSome = () => {
      const elements = document.createDocumentFragment();
      for (const href of rest.splice(0, 3)) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.href = href;
        elements.append(link);
      }
      document.head.append(elements);
      if (rest.length > 0) setTimeout(insertSome, 0);
    };
    setTimeout(insertSome, 0);
    // the manifest later still, when the browser is idle after the app's first screen (src/app/mount-app.tsx marks
    // it): its processing is a task of its own, and it fetches an icon, neither of which that screen needs
    const manifest = self.getAttribute('data-manifest');
    if (manifest) afterFirstScreen(() => addManifest(manifest));
  };
  // Once the screen is painted (first-contentful-paint). The timer is a last resort, should no paint come.
  const afterPaint = () => {
    if (typeof PerformanceObserver !== 'function') {
      start();
      return;
    }
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      start();
    }).observe({ type: 'paint', buffered: true });
    setTimeout(start, 3000);
  };
  // A frame is in the page once it is parsed, before its first paint. Nothing is painted when the tab is in the
  // background, or when the pre-rendered login is hidden and no frame shows instead: then the app starts at once.
  if (shellId !== null) {
    document.addEventListener(
      'DOMContentLoaded',
      () => {
        const shown = showShell();
        html.classList.remove('shell-pending'); // no frame for this user: the login is laid out, still hidden
        if (shown && document.visibilityState !== 'hidden') afterPaint();
        else start();
      },
      { once: true },
    );
  } else if (document.visibilityState === 'hidden' || html.classList.contains('prerender-hidden')) start();
  else afterPaint();
})();
