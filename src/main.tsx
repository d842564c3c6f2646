import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'bootstrap/dist/css/bootstrap.min.css';
import './app/theme.css';
import { App } from './app/app';
import { createAppRouter } from './app/router';

const root = document.getElementById('root');
if (!root) throw new Error('MedLedger: #root is missing from index.html');

// Created once, outside React: StrictMode's double render must not start a second router.
const router = createAppRouter();

createRoot(root).render(
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);

// After the page has loaded, so the first paint never waits for it; only the build has a service worker.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    void import('./app/service-worker').then(({ registerServiceWorker }) => registerServiceWorker()); // nothing waits on it
  });
}
