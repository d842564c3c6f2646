import { RouterProvider } from 'react-router-dom';
import { SessionProvider } from '../auth/session-provider';
import type { LedgerRemote } from '../ledger/ledger-context';
import { LedgerProvider } from '../ledger/ledger-provider';
import type { LedgerConnection } from '../ledger/ledger-worker';
import { LedgerFailure } from './ledger-failure';
import { PrefetchScreens } from './prefetch-screens';
import type { createAppRouter } from './router';
import { useFileDropGuard } from './use-file-drop-guard';

interface AppProps {
  router: ReturnType<typeof createAppRouter>; // the browser router, or a memory router in tests
  service?: LedgerRemote; // tests inject a proxy; the app starts the worker lazily
  connect?: (restart: boolean) => LedgerConnection; // tests inject a watched connection they can break
  fetchAhead?: boolean; // the built app fetches the screens a user may open next (tests leave it out)
}

export function App({ router, service, connect, fetchAhead = false }: AppProps) {
  useFileDropGuard();
  return (
    <LedgerProvider service={service} connect={connect} renderFailure={(failure) => <LedgerFailure {...failure} />}>
      <SessionProvider>
        <RouterProvider router={router} />
        {fetchAhead ? <PrefetchScreens /> : null}
      </SessionProvider>
    </LedgerProvider>
  );
}
