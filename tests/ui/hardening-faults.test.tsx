// Issue 5, faults: when the worker dies the app says so and offers a restart, and what was saved is all there after it.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expose, wrap } from 'comlink';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerService } from '../../workers/api';
import { createTestLedgerService } from '../support/test-ledger';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { App } from '../../src/app/app';
import type { LedgerRemote } from '../../src/ledger/ledger-context';
import { livenessProbe, watchLedger } from '../../src/ledger/ledger-watchdog';
import type { LedgerConnection } from '../../src/ledger/ledger-worker';
import { SARAH, signInAs, uploadOf } from '../support/ledger-fixtures';
import { memoryRouterAt } from './render-app';

const closers: (() => void)[] = [];
afterEach(() => {
  while (closers.length > 0) closers.pop()?.();
});

// Workers over MessageChannels sharing one storage, as fresh workers share the browser's IndexedDB.
function workerFarm() {
  const storage = createMemoryStorage();
  const started: { service: LedgerService; die: () => void }[] = [];
  const connect = (): LedgerConnection => {
    const service = createTestLedgerService({ storage });
    const { port1, port2 } = new MessageChannel();
    expose(service, port1 as unknown as Parameters<typeof expose>[1]);
    const remote = wrap<LedgerService>(port2 as unknown as Parameters<typeof wrap>[0]) as LedgerRemote;
    const close = () => {
      port1.close();
      port2.close();
    };
    closers.push(close);
    started.push({ service, die: () => port1.close() });
    return { ...watchLedger(remote, { probeAfterMs: 50, probeTimeoutMs: 300, probe: () => livenessProbe(remote) }), close };
  };
  return { storage, started, connect };
}

// Sarah signed in before: her session (and its key) is in the shared storage, which every fresh worker resumes.
async function renderWith(farm: ReturnType<typeof workerFarm>, path: string) {
  await signInAs(createTestLedgerService({ storage: farm.storage }), SARAH);
  localStorage.setItem('currentUser', JSON.stringify({ id: SARAH.id }));
  const connect = farm.connect;
  const { router, location } = memoryRouterAt(path);
  render(<App router={router} connect={connect} />);
  return { location, user: userEvent.setup() };
}

describe('a worker that dies', () => {
  it('gives an error screen with restart and reload instead of a screen that waits forever', async () => {
    const farm = workerFarm();
    const { user } = await renderWith(farm, '/patient/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' });
    farm.started[0].die();
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Blockchain Explorer' }),
    );

    // The explorer shows the shared chain status at once; its page of blocks is the call left waiting.
    await screen.findByRole('heading', { name: 'The records service stopped' });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'The records service stopped' })).toHaveFocus();
    expect(alert).toHaveTextContent('The records service stopped answering.');
    expect(screen.getByRole('button', { name: 'Restart the records service' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeEnabled();
  });

  it('restarts on a fresh worker that has every record saved before the fault, still signed in, on the same screen', async () => {
    const farm = workerFarm();
    const { user, location } = await renderWith(farm, '/patient/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' });
    const first = farm.started[0].service;
    await signInAs(first, SARAH);
    await first.upload(uploadOf('Saved before the fault'));
    await first.upload(uploadOf('Also saved before the fault'));
    farm.started[0].die();
    await user.click(within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Dashboard' }));
    await user.click(await screen.findByRole('button', { name: 'Restart the records service' }));

    expect(farm.started).toHaveLength(2);
    await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' });
    expect(location().pathname).toBe('/patient/dashboard');
    const recent = await screen.findByRole('region', { name: 'Recent Medical Records' });
    await waitFor(() => expect(within(recent).getByText('Also saved before the fault')).toBeInTheDocument());
    expect(within(recent).getByText('Saved before the fault')).toBeInTheDocument();
    expect(await farm.started[1].service.chainStatus()).toMatchObject({ height: 3, valid: true });
  });

  it('gives the error screen on the login page too when the worker dies before anyone signs in', async () => {
    const farm = workerFarm();
    localStorage.removeItem('currentUser');
    const { router, location } = memoryRouterAt('/');
    render(<App router={router} connect={farm.connect} />);
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Sign In' });
    farm.started[0].die();
    await user.click(screen.getByRole('button', { name: 'Fill Demo Credentials' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByRole('heading', { name: 'The records service stopped' });
    await user.click(screen.getByRole('button', { name: 'Restart the records service' }));
    await user.click(await screen.findByRole('button', { name: 'Fill Demo Credentials' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(location().pathname).toBe('/patient/dashboard'));
  });
});
