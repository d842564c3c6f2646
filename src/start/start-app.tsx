import { StrictMode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { App } from '../app/app';
import { APP_ROUTES } from '../app/routes';
import { screenLoaded } from '../app/screen-loads';
import { whenNoScreenPending } from '../components/pending-screen';
import { mountApp } from './mount-app';
import { LoginPage } from '../features/login/login-page';
import { PrefetchScreens } from './prefetch-screens';

// The login comes with the app, not in a request of its own: it is a visitor's first screen, hydrated at once.
const login = APP_ROUTES.find((route) => route.access === 'guest')?.lazy;
if (login) screenLoaded(login, LoginPage);

// The app, rendered into #root once src/start/main.tsx has started the worker and loaded the first screen.
export function startApp(root: HTMLElement): void {
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
