import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from '../app/app';
import { APP_ROUTES } from '../app/routes';
import { screenLoaded } from '../app/screen-loads';
import { LoginPage } from '../features/login/login-page';
import type { LedgerRemote } from '../ledger/ledger-context';

const notAtBuildTime = new Proxy({} as LedgerRemote, {
  get: () => () => Promise.reject(new Error('MedLedger: the pre-rendered login screen calls no ledger')),
});

// Run by the build (vite.config.ts, prerenderLogin) in Node: the app at / for a signed-out visitor, as
// src/start/main.tsx hydrates it (the login screen's code loaded first), painted before any JavaScript runs.
export function renderLoginHtml(): string {
  const login = APP_ROUTES.find((route) => route.access === 'guest')?.lazy;
  if (!login) throw new Error('MedLedger: no route for the login screen');
  screenLoaded(login, LoginPage);
  const html = renderToString(
    <App router={({ children }) => <StaticRouter location="/">{children}</StaticRouter>} service={notAtBuildTime} />,
  );
  if (!html.includes('<form')) throw new Error('MedLedger: the login screen rendered no form to pre-render');
  return html;
}
