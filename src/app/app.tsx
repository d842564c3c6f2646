import { RouterProvider } from 'react-router-dom';
import { SessionProvider } from '../auth/session-provider';
import type { LedgerRemote } from '../ledger/ledger-context';
import { LedgerProvider } from '../ledger/ledger-provider';
import type { createAppRouter } from './router';

interface AppProps {
  router: ReturnType<typeof createAppRouter>; // the browser router, or a memory router in tests
  service?: LedgerRemote; // tests inject a proxy; the app starts the worker lazily
}

export function App({ router, service }: AppProps) {
  return (
    <LedgerProvider service={service}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </LedgerProvider>
  );
}
