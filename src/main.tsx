import 'bootstrap/dist/css/bootstrap.min.css';
import './app/theme.css';
import './app/prerender.css';
import { openWorkerLedger } from './ledger/ledger-worker';

const root = document.getElementById('root');
if (!root) throw new Error('MedLedger: #root is missing from index.html');

// Evaluating all of the app's modules at once is one long task on a slow phone, while the pre-rendered login
// screen is already on it and waiting for input. So the modules run in stages, each in a task of its own: the
// ledger's worker (for a returning user), React, then what the screens share, then the router, then the app. The build lists every stage in
// public/start-app.js's data-preload, so all of them are fetched at once and only their evaluation waits
// (vite.config.ts, startAfterFirstPaint).
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// A returning user's dashboard waits for the stored ledger: the worker starts first, and loads and verifies it off
// this thread while the stages below run. A visitor's login screen waits for none of it: the worker starts with the
// app, and its code does not share the network with the screen's. ('currentUser': src/auth/session-storage.ts,
// not imported: its chunk would run before this one.)
let storedSession = false;
try {
  storedSession = localStorage.getItem('currentUser') !== null;
} catch {
  // storage blocked: signed out
}
if (storedSession) {
  openWorkerLedger();
  await nextTask();
}
await import('react-dom/client');
await nextTask();
await import('./components/page-spinner'); // the chunk the first screens share (vite.config.ts), with the router it needs
await nextTask();
await import('./app/router'); // its named imports only: a namespace import of react-router-dom would keep all of it
await nextTask();
const { startApp } = await import('./app/start');
await nextTask();
startApp(root);
