import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { SessionProvider } from '../auth/session-provider';
import type { LedgerRemote } from '../ledger/ledger-context';
import { LedgerProvider } from '../ledger/ledger-provider';
import { createAppRouter } from './router';

type AppRouter = ReturnType<typeof createAppRouter>;

interface AppProps {
  service?: LedgerRemote; // tests inject a proxy; the app starts the worker lazily
  router?: AppRouter; // tests pass a memory router
}

export function App({ service, router }: AppProps) {
  const [appRouter] = useState(() => router ?? createAppRouter());
  return (
    <LedgerProvider service={service}>
      <SessionProvider>
        <RouterProvider router={appRouter} />
      </SessionProvider>
    </LedgerProvider>
  );
}
