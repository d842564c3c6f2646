import type { ComponentType, ReactNode } from 'react';
import { SessionProvider } from '../auth/session-provider';
import type { LedgerRemote } from '../ledger/ledger-context';
import { LedgerProvider } from '../ledger/ledger-provider';
import type { LedgerConnection } from '../ledger/ledger-worker';
import { LedgerFailure } from './ledger-failure';
import { AppRoutes } from './router';
import { useFileDropGuard } from './use-file-drop-guard';

interface AppProps {
  // BrowserRouter, or a MemoryRouter in tests; outermost, so the location outlives a restart of the ledger
  router: ComponentType<{ children: ReactNode }>;
  service?: LedgerRemote; // tests inject a proxy; the app starts the worker lazily
  connect?: (restart: boolean) => LedgerConnection; // tests inject a watched connection they can break
  prefetch?: ReactNode; // the built app fetches the screens a user may open next (src/start/prefetch-screens.tsx)
}

export function App({ router: Router, service, connect, prefetch }: AppProps) {
  useFileDropGuard();
  return (
    <Router>
      <LedgerProvider service={service} connect={connect} renderFailure={(failure) => <LedgerFailure {...failure} />}>
        <SessionProvider>
          <AppRoutes />
          {prefetch}
        </SessionProvider>
      </LedgerProvider>
    </Router>
  );
}
