import { StrictMode } from 'react';
import 'bootstrap/dist/css/bootstrap.min.css';
import './app/theme.css';
import './app/prerender.css';
import { App } from './app/app';
import { mountApp } from './app/mount-app';
import { createAppRouter } from './app/router';

const root = document.getElementById('root');
if (!root) throw new Error('MedLedger: #root is missing from index.html');

// Created once, outside React: StrictMode's double render must not start a second router.
const router = createAppRouter();

mountApp(
  root,
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);

// After the page has loaded, so the first paint never waits for it; only the build has a service worker.
// public/start-app.js loads this module after the first paint, often after the load event.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => void import('./app/service-worker').then(({ registerServiceWorker }) => registerServiceWorker()); // nothing waits on it
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
