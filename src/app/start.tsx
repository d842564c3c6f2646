import { StrictMode } from 'react';
import { App } from './app';
import { mountApp } from './mount-app';
import { createAppRouter } from './router';

// The last stage of src/main.tsx: the router and the app, rendered into #root.
export function startApp(root: HTMLElement): void {
  // Created once, outside React: StrictMode's double render must not start a second router.
  const router = createAppRouter();

  mountApp(
    root,
    <StrictMode>
      <App router={router} fetchAhead />
    </StrictMode>,
  );

  // After the page has loaded, so the first paint never waits for it; only the build has a service worker.
  // public/start-app.js loads the app after the first paint, often after the load event.
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    const register = () => void import('./service-worker').then(({ registerServiceWorker }) => registerServiceWorker()); // nothing waits on it
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  }
}
