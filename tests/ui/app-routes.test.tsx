import { act, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../src/app/router';
import { APP_ROUTES, type AppRoute } from '../../src/app/routes';
import { loadScreen } from '../../src/app/screen-loads';
import { SessionProvider } from '../../src/auth/session-provider';
import { LedgerProvider } from '../../src/ledger/ledger-provider';
import { signInById } from '../support/ledger-fixtures';
import { deferred, memoryRouterAt, openLedger } from './render-app';

function BrokenScreen(): never {
  throw new Error('this screen cannot render');
}

function SlowScreen() {
  return <h1>Slow screen</h1>;
}

const slowCode = deferred<ComponentType>();

function FlakyScreen() {
  return <h1>Flaky screen</h1>;
}

// Fails to load once (offline, say), then loads.
const flakyCode = vi.fn<() => Promise<ComponentType>>(() => Promise.resolve(FlakyScreen));
flakyCode.mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'));

// The app's routes and two of a patient's screens that go wrong: one throws, one's code takes its time.
const ROUTES: readonly AppRoute[] = [
  ...APP_ROUTES,
  { path: '/patient/broken', access: 'patient', title: 'Broken', element: <BrokenScreen /> },
  { path: '/patient/slow', access: 'patient', title: 'Slow', lazy: () => slowCode.promise },
  { path: '/patient/flaky', access: 'patient', title: 'Flaky', lazy: flakyCode },
];

// Sarah signed in before this render: her session is resumed from the ledger.
async function renderRoutes(path: string) {
  const ledger = openLedger();
  await signInById(ledger.proxy, 'patient-1');
  localStorage.setItem('currentUser', JSON.stringify({ id: 'patient-1' }));
  const { router: Router, location, go } = memoryRouterAt(path);
  render(
    <Router>
      <LedgerProvider service={ledger.proxy}>
        <SessionProvider>
          <AppRoutes routes={ROUTES} />
        </SessionProvider>
      </LedgerProvider>
    </Router>,
  );
  return { location, go };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('The app routes', () => {
  it('shows "Something went wrong" for a screen that throws, and a move to another screen clears it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { go } = await renderRoutes('/patient/broken');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith(
      'MedLedger: a screen failed',
      expect.objectContaining({ message: 'this screen cannot render' }),
    );

    act(() => go('/patient/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });

  it('tries the code of a screen that failed to load again when the user comes back to it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { go } = await renderRoutes('/patient/flaky');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');

    act(() => go('/patient/dashboard'));
    await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' });
    act(() => go('/patient/flaky'));
    expect(await screen.findByRole('heading', { name: 'Flaky screen' })).toBeInTheDocument();
    expect(flakyCode).toHaveBeenCalledTimes(2);
  });

  it("shows a spinner inside the layout while a screen's code loads, titled for that screen, then the screen", async () => {
    const { location } = await renderRoutes('/patient/slow');
    const main = await screen.findByRole('main');
    await waitFor(() => expect(within(main).getByRole('status')).toHaveTextContent('Loading'));
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Slow · MedLedger'));
    expect(location().pathname).toBe('/patient/slow');

    await act(async () => slowCode.resolve(SlowScreen));
    expect(await within(main).findByRole('heading', { name: 'Slow screen' })).toBeInTheDocument();
    expect(within(main).queryByRole('status')).not.toBeInTheDocument();
  });

  it('titles the document after each screen a user moves to', async () => {
    const { go } = await renderRoutes('/patient/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' });
    await waitFor(() => expect(document.title).toBe('Dashboard · MedLedger'));
    act(() => go('/patient/records'));
    await waitFor(() => expect(document.title).toBe('Medical Records · MedLedger'));
  });
  it('shows a screen whose code was loaded before the first render in that render, with no spinner', async () => {
    const ledger = openLedger();
    const load = vi.fn(() => Promise.resolve(SlowScreen));
    const routes: readonly AppRoute[] = [{ path: '/', access: 'guest', title: 'Loaded', lazy: load }];
    await loadScreen(load);
    const { router: Router } = memoryRouterAt('/');
    render(
      <Router>
        <LedgerProvider service={ledger.proxy}>
          <SessionProvider>
            <AppRoutes routes={routes} />
          </SessionProvider>
        </LedgerProvider>
      </Router>,
    );
    // read at once: a lazy screen would show its spinner in this render
    expect(screen.getByRole('heading', { name: 'Slow screen' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
