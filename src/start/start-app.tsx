import { StrictMode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { App } from '../app/app';
import { whenNoScreenPending } from '../components/pending-screen';
import { loginComesWithTheApp } from './login-screen';
import { mountApp } from './mount-app';
import { PrefetchScreens } from './prefetch-screens';

// The app, rendered into #root once src/start/main.tsx has started the worker and loaded the first screen.
export function startApp(root: HTMLElement): void {
  loginComesWithTheApp();
  mountApp(
    root,
    <StrictMode>
      <App router={BrowserRouter} prefetch={<PrefetchScreens />} />
    </StrictMode>,
  );

  // Once the first screen is shown with its data and the browser is idle, so neither its paint nor its bytes wait
  // for it; only the build has a service worker.
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    const register = () => void import('./service-worker').then(({ registerServiceWorker }) => registerServiceWorker()); // nothing waits on it
    const idle = (run: () => void) =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 5000 }) : setTimeout(run, 1000);
    whenNoScreenPending(() => idle(register));
  }
}
