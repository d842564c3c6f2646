import { StrictMode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { whenScreenShown } from '../components/pending-screen';
import { App } from './app';
import { hydratesPrerendered, mountApp } from './mount-app';

// The last stage of src/main.tsx: the router and the app, rendered into #root.
export function startApp(root: HTMLElement): void {
  mountApp(
    root,
    <StrictMode>
      <App router={BrowserRouter} fetchAhead splitFirstRender={hydratesPrerendered(root) ? 'hydrate' : 'fresh'} />
    </StrictMode>,
  );

  // Once the first screen is shown and the browser is idle, so neither its paint nor its bytes wait for it; only
  // the build has a service worker.
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    const register = () => void import('./service-worker').then(({ registerServiceWorker }) => registerServiceWorker()); // nothing waits on it
    const idle = (run: () => void) =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 5000 }) : setTimeout(run, 1000);
    whenScreenShown(() => idle(register));
  }
}
