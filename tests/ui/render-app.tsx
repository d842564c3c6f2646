import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect, type ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate, type Location } from 'react-router-dom';
import { afterEach } from 'vitest';
import type { Remote } from 'comlink';
import type { LedgerService } from '../../workers/api';
import type { LedgerDeps } from '../../workers/ledger/deps';
import { App } from '../../src/app/app';
import { signInById } from '../support/ledger-fixtures';
import { connectLedger, type ConnectedLedger } from '../support/ledger-over-channel';

const open: ConnectedLedger[] = [];
afterEach(() => {
  while (open.length > 0) open.pop()?.close();
});

// A ledger service over a real MessageChannel, closed after the test.
export function openLedger(deps?: Partial<LedgerDeps>): ConnectedLedger {
  const ledger = connectLedger(deps);
  open.push(ledger);
  return ledger;
}

interface RenderOptions {
  ledger?: ConnectedLedger;
  proxy?: Remote<LedgerService>; // a wrapped proxy, to make one call fail or stall
  signedInAs?: string; // user id written to currentUser before the app starts
  stored?: string; // raw currentUser value
  advanceTimers?: (ms: number) => void; // for user-event under fake timers
}

export function renderApp(path: string, options: RenderOptions = {}) {
  const ledger = options.ledger ?? openLedger();
  if (options.signedInAs) localStorage.setItem('currentUser', JSON.stringify({ id: options.signedInAs }));
  if (options.stored !== undefined) localStorage.setItem('currentUser', options.stored);
  const { router, location } = memoryRouterAt(path);
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  const view = render(<App service={withSession(options.proxy ?? ledger.proxy, options.signedInAs)} router={router} />);
  return { ...view, location, ledger, user };
}

// A MemoryRouter starting at `path`, a read of the location it shows now (as of its last commit), and a move
// to another path from outside the app's screens (as the browser's address bar would).
export function memoryRouterAt(path: string) {
  let current: Location | null = null;
  let move: ((to: string) => void) | null = null;
  function LocationProbe() {
    const location = useLocation();
    const navigate = useNavigate();
    useLayoutEffect(() => {
      current = location;
      move = (to) => void navigate(to);
    }, [location, navigate]);
    return null;
  }
  function Router({ children }: { children: ReactNode }) {
    return (
      <MemoryRouter initialEntries={[path]}>
        {children}
        <LocationProbe />
      </MemoryRouter>
    );
  }
  const location = (): Location => {
    if (!current) throw new Error('the app has not rendered its router yet');
    return current;
  };
  const go = (to: string) => {
    if (!move) throw new Error('the app has not rendered its router yet');
    move(to);
  };
  return { router: Router, location, go };
}

// `signedInAs` stands for a sign-in before this render: when the worker holds no session of that user yet,
// resuming it signs in with the demo password, as the user did before the reload.
function withSession(proxy: Remote<LedgerService>, signedInAs?: string): Remote<LedgerService> {
  if (!signedInAs) return proxy;
  return withOverrides(proxy, {
    resumeSession: async (id: string) => (await proxy.resumeSession(id)) ?? (id === signedInAs ? signInById(proxy, id) : null),
  });
}

// The proxy with some methods replaced; every other call still crosses the channel.
export function withOverrides(
  proxy: Remote<LedgerService>,
  overrides: Partial<Record<keyof LedgerService, (...args: never[]) => unknown>>,
): Remote<LedgerService> {
  return new Proxy(proxy, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key in overrides) return overrides[key as keyof LedgerService];
      return Reflect.get(target, key, receiver);
    },
  });
}

export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
