import { renderToStaticMarkup } from 'react-dom/server';
import { SessionContext, type SessionValue } from '../auth/session-context';
import { LoginPage } from '../features/login/login-page';

const notAtBuildTime = () => Promise.reject(new Error('MedLedger: the pre-rendered login screen cannot sign in'));

const SIGNED_OUT: SessionValue = { status: 'signed-out', user: null, signIn: notAtBuildTime, signOut: notAtBuildTime };

// Run by the build (vite.config.ts, prerenderLogin) in Node: the login screen as a signed-out visitor first
// sees it, painted before any JavaScript runs. Until the app replaces it, the form is inert and its fields
// read-only, so nothing typed or clicked is lost, and the accessibility tree holds only the app's own form.
export function renderLoginHtml(): string {
  const html = renderToStaticMarkup(
    <SessionContext.Provider value={SIGNED_OUT}>
      <LoginPage />
    </SessionContext.Provider>,
  );
  if (!html.includes('<form')) throw new Error('MedLedger: the login screen rendered no form to pre-render');
  return html
    .replace('<form', '<form inert="" data-prerendered=""')
    .replaceAll('<input', '<input readonly="" data-prerendered=""');
}
