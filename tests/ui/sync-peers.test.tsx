// The explorer's Peers view: the real copies of the ledger while this device is connected, the simulated sandbox
// peers otherwise. Fed the service over a MessageChannel with a sync server faked in memory.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SARAH, signInAs } from '../support/ledger-fixtures';
import { fakeServer } from '../support/fake-sync';
import { openLedger, renderApp } from './render-app';

describe('Peers while connected', () => {
  it('lists the sync server and this device with their tips instead of the simulated copies', async () => {
    const server = fakeServer({ relay: true });
    const ledger = openLedger({ syncTransport: server.transport });
    await signInAs(ledger.service, SARAH);
    await ledger.service.connectSync({ serverUrl: 'ws://127.0.0.1:3030', deviceName: 'Sarah’s laptop' });
    await expect.poll(async () => (await ledger.service.syncStatus()).state).toBe('in-step');
    const tip = (await ledger.service.block(0)).hash;

    renderApp('/patient/blockchain?tab=peers', { ledger, signedInAs: SARAH.id });
    const table = await screen.findByRole('table', { name: 'The copies of the ledger: the sync server and the devices' });
    const serverRow = within(table).getByRole('row', { name: /Sync server \(ws:\/\/127\.0\.0\.1:3030\)/ });
    expect(within(serverRow).getByLabelText(/^tip hash of Sync server/)).toHaveTextContent(tip.slice(0, 8));
    expect(serverRow).toHaveTextContent('Same tip');
    const deviceRow = within(table).getByRole('row', { name: /Sarah’s laptop \(this device\)/ });
    expect(within(deviceRow).getByLabelText(/^tip hash of Sarah’s laptop/)).toHaveTextContent(tip.slice(0, 8));
    expect(screen.getByText('In step with the server: 1 device')).toHaveAttribute('role', 'status');
    expect(screen.queryByText('Copy to work on')).not.toBeInTheDocument();
  });

  it('keeps the simulated peers of the sandbox while this device is not connected', async () => {
    const server = fakeServer();
    renderApp('/patient/blockchain?tab=peers', { ledger: openLedger({ syncTransport: server.transport }), signedInAs: SARAH.id });
    expect(await screen.findByLabelText('Copy to work on')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: /copies of the ledger/ })).not.toBeInTheDocument();
    expect(server.fetch).not.toHaveBeenCalled();
  });
});
