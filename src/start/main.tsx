import '../app/bootstrap.scss';
import '../app/theme.css';
import './prerender.css';
import { APP_LAYOUT, APP_ROUTES } from '../app/routes';
import { loadScreen } from '../app/screen-loads';
import { readStoredUserId } from '../auth/session-storage';
import { dashboardPath } from '../auth/dashboard-path';
import { USERS } from '../../workers/core/directory';
import { openWorkerLedger } from '../ledger/ledger-worker';
import { askFirstData } from './first-data';

// The entry runs as soon as its code is here (an async module script, vite.config.ts), before the page's stylesheet
// and the rest of the HTML: it starts the work that takes longest, then waits for #root to render into.
performance.mark('medledger:entry');

// The worker starts before the app's code has arrived: a returning user's dashboard waits for the stored ledger,
// which it loads and verifies meanwhile, and a visitor's sign-in for the ledger it opens (or makes, on a first visit)
// while they type.
const connection = openWorkerLedger();
const userId = readStoredUserId();

// The first screen's code loads beside the app's, so the first render shows it at once: for a returning user the
// layout and the screen asked for (or their dashboard); a visitor's login comes with the app (./start-app.tsx). The
// stored id only picks what to fetch: the session is resumed through the worker (src/auth/session-provider.tsx).
const role = USERS.find((user) => user.id === userId)?.role;
const routeAt = (path: string) => APP_ROUTES.find((route) => route.path === path);
const asked = routeAt(window.location.pathname);
const firstRoute = role ? (asked && asked.access !== 'guest' ? asked : routeAt(dashboardPath(role))) : undefined;
// The session is resumed now, and the screen's data asked for after it (the worker answers only a signed-in user).
if (userId) askFirstData(connection, userId, firstRoute?.access === role ? (firstRoute?.firstData ?? []) : []);
const firstScreens = role ? [APP_LAYOUT, firstRoute?.lazy] : [];
const [{ startApp }] = await Promise.all([
  import('./start-app'),
  ...firstScreens.map((load) => (load ? loadScreen(load) : undefined)),
]);
if (document.readyState === 'loading') {
  await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
}
const root = document.getElementById('root');
if (!root) throw new Error('MedLedger: #root is missing from index.html');
startApp(root);
