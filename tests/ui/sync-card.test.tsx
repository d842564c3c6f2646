// My Profile's "Devices and sync" card, fed the service over a MessageChannel with a sync server faked in memory.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CARTER, MICHAEL, SARAH, signInAs, uploadOf } from '../support/ledger-fixtures';
import { fakeServer } from '../support/fake-sync';
import { openLedger, renderApp, withOverrides } from './render-app';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import type { SyncRequest } from '../../workers/api';
import type { SyncedKeys } from '../../workers/core/sync-protocol';
import { createMemoryStorage } from '../../workers/storage/memory-storage';

// The card once it shows the state and the patient's emergency consent: Connect is enabled only then.
async function card() {
  const section = await screen.findByRole('region', { name: 'Devices and sync' });
  await within(section).findByText('Not connected: this device works alone.');
  await waitFor(() => expect(within(section).getByRole('button', { name: 'Connect' })).toBeEnabled());
  return section;
}

describe('Devices and sync on My Profile', () => {
  it('is off, offers the local server and a name for this device, and calls no server', async () => {
    const server = fakeServer();
    renderApp('/patient/profile', { ledger: openLedger({ syncTransport: server.transport }), signedInAs: SARAH.id });
    const section = await card();
    expect(await within(section).findByText('Not connected: this device works alone.')).toHaveAttribute('role', 'status');
    expect(within(section).getByLabelText('Server address')).toHaveValue('ws://127.0.0.1:3030');
    expect(within(section).getByLabelText("This device's name")).not.toHaveValue('');
    expect(within(section).getByRole('button', { name: 'Connect' })).toBeEnabled();
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it('connects under the typed name, says it is in step, lists the devices with their tips, and disconnects', async () => {
    const server = fakeServer({ relay: true });
    const { user } = renderApp('/patient/profile', {
      ledger: openLedger({ syncTransport: server.transport }),
      signedInAs: SARAH.id,
    });
    const section = await card();
    const name = within(section).getByLabelText("This device's name");
    await user.clear(name);
    await user.type(name, 'Sarah’s phone');
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    expect(await within(section).findByText('In step with the server: 1 device')).toHaveAttribute('role', 'status');
    const row = within(section).getByRole('row', { name: /Sarah’s phone \(this device\)/ });
    expect(within(row).getByRole('cell', { name: '1' })).toBeInTheDocument();
    expect(within(row).getByLabelText(/^tip hash of Sarah’s phone [0-9a-f]{8}/)).toBeInTheDocument();
    expect(name).toBeDisabled();
    expect(server.joins).toEqual([expect.objectContaining({ name: 'Sarah’s phone' })]);
    await user.click(within(section).getByRole('button', { name: 'Disconnect' }));
    expect(await within(section).findByText('Not connected: this device works alone.')).toBeInTheDocument();
    expect(within(section).getByLabelText('Server address')).toBeEnabled();
  });

  it('says Disconnect, not Disconnecting..., while a Connect that already linked the device is still taking blocks', async () => {
    const server = fakeServer({ relay: true });
    const ledger = openLedger({ syncTransport: server.transport });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const connectSync = async (options: SyncRequest) => {
      const connection = await ledger.proxy.connectSync(options);
      await held; // as a long catch-up keeps the Connect running after the device is linked
      return connection;
    };
    const { user } = renderApp('/patient/profile', {
      ledger,
      proxy: withOverrides(ledger.proxy, { connectSync }),
      signedInAs: SARAH.id,
    });
    const section = await card();
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    await within(section).findByText('In step with the server: 1 device');
    expect(within(section).getByRole('button', { name: 'Disconnect' })).toBeDisabled(); // until the Connect ends
    expect(within(section).queryByRole('button', { name: 'Disconnecting...' })).toBeNull();
    release();
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Disconnect' })).toBeEnabled());
  });

  it('says why a server of another ledger refused this device, and what to do', async () => {
    const other = openLedger();
    await signInAs(other.service, SARAH);
    const server = fakeServer({ genesis: await other.service.block(0) });
    const ledger = openLedger({ syncTransport: server.transport });
    await signInAs(ledger.service, SARAH);
    await ledger.service.upload(uploadOf('Blood panel'));
    const { user } = renderApp('/patient/profile', { ledger, signedInAs: SARAH.id });
    const section = await card();
    await user.click(await within(section).findByRole('button', { name: 'Connect' }));
    expect(await within(section).findByText(/^Refused/)).toHaveTextContent(
      /^Refused: This device holds other records \(ledger [0-9a-f]{8}\) than the server \(ledger [0-9a-f]{8}\)\. Nothing was changed\. To connect without losing anything, back up this whole browser \(Medical Records\) and keep the file, then reset the demo data\.$/,
    );
    expect(within(section).getByRole('button', { name: 'Connect' })).toBeEnabled(); // another address may be tried
  });

  it("asks for the password before this untouched browser takes a server's other ledger, and keeps the user signed in", async () => {
    const otherStorage = createMemoryStorage();
    const other = openLedger({ storage: otherStorage });
    await signInAs(other.service, SARAH);
    const theirs = await other.service.block(0);
    const stored = (await otherStorage.readMeta('keys')) as SyncedKeys;
    const keys: SyncedKeys = { algorithm: stored.algorithm, users: stored.users, ledger: { publicKey: stored.ledger.publicKey } };
    const server = fakeServer({ genesis: theirs, keys });
    const ledger = openLedger({ syncTransport: server.transport });
    await signInAs(ledger.service, SARAH);
    const own = (await ledger.service.block(0)).hash;
    const { user } = renderApp('/patient/profile', { ledger, signedInAs: SARAH.id });
    const section = await card();
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    expect(await within(section).findByText(/^This sync server holds another ledger/)).toHaveAttribute('role', 'status');
    expect((await ledger.service.block(0)).hash).toBe(own); // nothing changed yet
    await user.type(within(section).getByLabelText('Your password'), 'not the password');
    await user.click(within(section).getByRole('button', { name: 'Take the server’s ledger and connect' }));
    expect(
      await within(section).findByText('That password does not open your key on the sync server’s ledger. Nothing was changed.'),
    ).toBeInTheDocument();
    expect((await ledger.service.block(0)).hash).toBe(own);
    const password = within(section).getByLabelText('Your password');
    await user.clear(password);
    await user.type(password, DEMO_PASSWORD);
    await user.click(within(section).getByRole('button', { name: 'Take the server’s ledger and connect' }));
    expect(
      await within(section).findByText(/^In step with the server: \d+ devices?$/, {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument(); // still signed in
    expect((await ledger.service.block(0)).hash).toBe(theirs.hash);
  });

  it('names what is wrong with an address that is not a sync server address', async () => {
    const server = fakeServer();
    const { user } = renderApp('/patient/profile', {
      ledger: openLedger({ syncTransport: server.transport }),
      signedInAs: SARAH.id,
    });
    const section = await card();
    const address = within(section).getByLabelText('Server address');
    await user.clear(address);
    await user.type(address, 'http://127.0.0.1:3030');
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'Enter the server address, starting with ws:// or wss://.',
    );
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it("lets a patient turn off the care network's emergency access to her files, the demo setup's choice shown as such", async () => {
    const ledger = openLedger({ syncTransport: fakeServer().transport });
    const { user } = renderApp('/patient/profile', { ledger, signedInAs: SARAH.id });
    const section = await card();
    const consent = await within(section).findByRole('switch', { name: 'Let the care network open my files in an emergency' });
    await waitFor(() => expect(consent).toBeChecked()); // the demo setup recorded on for Sarah
    expect(consent).toHaveAccessibleDescription(/^Set to on for this demo account when the demo was set up on /);
    await user.click(consent);
    await waitFor(() => expect(consent).not.toBeChecked());
    expect(consent).toHaveAccessibleDescription(/^Your choice, recorded on /);
    expect(await ledger.service.careNetworkConsent()).toMatchObject({ on: false, recorded: 'patient' });
  });

  it('keeps emergency consent off for a patient who has not chosen, and asks on the first Connect what it means', async () => {
    const server = fakeServer({ relay: true });
    const ledger = openLedger({ syncTransport: server.transport });
    const { user } = renderApp('/patient/profile', { ledger, signedInAs: MICHAEL.id });
    const section = await card();
    const consent = await within(section).findByRole('switch', { name: 'Let the care network open my files in an emergency' });
    await waitFor(() => expect(consent).toBeEnabled());
    expect(consent).not.toBeChecked();
    expect(consent).toHaveAccessibleDescription(/^You have not chosen yet, so it is off\./);
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    const question = within(section).getByRole('group', {
      name: 'Before you connect: may the care network open your files in an emergency?',
    });
    expect(question).toHaveAccessibleDescription(
      /^If you allow it, a doctor with full emergency access to you can open your files/,
    );
    await waitFor(() => expect(within(question).getByRole('heading')).toHaveFocus());
    expect(server.joins).toEqual([]); // nothing leaves the device before the answer
    await user.click(within(question).getByRole('button', { name: "Don't allow and connect" }));
    expect(await within(section).findByText('In step with the server: 1 device')).toBeInTheDocument();
    expect(await ledger.service.careNetworkConsent()).toMatchObject({ on: false, recorded: 'patient' });
    expect(consent).toHaveAccessibleDescription(/^Your choice, recorded on /);
    await user.click(within(section).getByRole('button', { name: 'Disconnect' }));
    await within(section).findByText('Not connected: this device works alone.');
    await user.click(within(section).getByRole('button', { name: 'Connect' })); // chosen now: no question again
    expect(await within(section).findByText('In step with the server: 1 device')).toBeInTheDocument();
    expect(within(section).queryByRole('group')).toBeNull();
  });

  it('shows a doctor no emergency consent switch', async () => {
    renderApp('/doctor/profile', { ledger: openLedger({ syncTransport: fakeServer().transport }), signedInAs: CARTER.id });
    const section = await card();
    expect(within(section).queryByRole('switch')).toBeNull();
  });
});
