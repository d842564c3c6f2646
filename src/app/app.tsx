import type { ComponentType, ReactNode } from 'react';
import { SessionProvider } from '../auth/session-provider';
import type { LedgerRemote } from '../ledger/ledger-context';
import { LedgerProvider } from '../ledger/ledger-provider';
import type { LedgerConnection } from '../ledger/ledger-worker';
import { LedgerFailure } from './ledger-failure';
import { PrefetchScreens } from './prefetch-screens';
import { AppRoutes, type FirstRenderSplit } from './router';
import { useFileDropGuard } from './use-file-drop-guard';

interface AppProps {
  // BrowserRouter, or a MemoryRouter in tests; outermost, so the location outlives a restart of the ledger
  router: ComponentType<{ children: ReactNode }>;
  service?: LedgerRemote; // tests inject a proxy; the app starts the worker lazily
  connect?: (restart: boolean) => LedgerConnection; // tests inject a watched connection they can break
  fetchAhead?: boolean; // the built app fetches the screens a user may open next (tests leave it out)
  splitFirstRender?: FirstRenderSplit | false; // the built app's first render stops above the routes for a task (router.tsx)
}

export function App({ router: Router, service, connect, fetchAhead = false, splitFirstRender = false }: AppProps) {
  useFileDropGuard();
  return (
    <Router>
      <LedgerProvider service={service} connect={connect} renderFailure={(failure) => <LedgerFailure {...failure} />}>
        <SessionProvider>
          <AppRoutes splitFirstRender={splitFirstRender} />
          {fetchAhead ? <PrefetchScreens /> : null}
        </SessionProvider>
      </LedgerProvider>
    </Router>
  );
}
