import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from '../app/app';
import type { LedgerRemote } from '../ledger/ledger-context';
import { loginComesWithTheApp } from './login-screen';

const notAtBuildTime = new Proxy({} as LedgerRemote, {
  get: () => () => Promise.reject(new Error('MedLedger: the pre-rendered login screen calls no ledger')),
});

// Run by the build (vite.config.ts, prerenderLogin) in Node: the app at / for a signed-out visitor, as
// src/start/start-app.tsx hydrates it, painted before any JavaScript runs.
export function renderLoginHtml(): string {
  loginComesWithTheApp();
  const html = renderToString(
    <App router={({ children }) => <StaticRouter location="/">{children}</StaticRouter>} service={notAtBuildTime} />,
  );
  if (!html.includes('<form')) throw new Error('MedLedger: the login screen rendered no form to pre-render');
  return html;
}
