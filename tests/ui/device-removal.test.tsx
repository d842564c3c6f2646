// The Devices list on My Profile: devices of one name told apart, this user's other devices removable after a question
// naming the device, another user's never. Fed the service over a MessageChannel with a sync server faked in memory.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CARTER, SARAH, signInAs } from '../support/ledger-fixtures';
import { fakeServer } from '../support/fake-sync';
import { createDemoBrowser, testDemoLedger } from '../support/test-ledger';
import { openLedger, renderApp } from './render-app';

const SERVER = 'ws://127.0.0.1:3030';

// Sarah's ledger connected as 'Chrome on Linux', and another browser of hers connected under `otherName`.
async function twoDevicesOfSarah(otherName: string) {
  const server = fakeServer({ relay: true });
  const ledger = openLedger({ syncTransport: server.transport, demoLedger: await testDemoLedger() });
  await signInAs(ledger.service, SARAH);
  await ledger.service.connectSync({ serverUrl: SERVER, deviceName: 'Chrome on Linux' });
  const other = await createDemoBrowser({ syncTransport: server.transport });
  await signInAs(other, SARAH);
  await other.connectSync({ serverUrl: SERVER, deviceName: otherName });
  return { server, ledger };
}

describe('removing a device from the Devices list', () => {
  it("names each device, removes the user's old browser after the question, and offers nothing on another user's", async () => {
    const { server, ledger } = await twoDevicesOfSarah('Chrome on Linux');
    const clinic = await createDemoBrowser({ syncTransport: server.transport });
    await signInAs(clinic, CARTER);
    await clinic.connectSync({ serverUrl: SERVER, deviceName: 'Clinic PC' });
    await expect.poll(async () => (await ledger.service.syncStatus()).devices.length).toBe(3);
    const [, oldRow, clinicRow] = (await ledger.service.syncStatus()).devices;

    const { user } = renderApp('/patient/profile', { ledger, signedInAs: SARAH.id });
    const section = await screen.findByRole('region', { name: 'Devices and sync' });
    await within(section).findByText('In step with the server: 3 devices');
    expect(within(section).getByText(/^To rename this device, disconnect/)).toBeInTheDocument();
    const table = within(section).getByRole('table');
    // two devices of one name: one is this device, the other says it is Sarah's, and each shows its id
    expect(within(table).getByRole('row', { name: /^Chrome on Linux \(this device\) id / })).toBeInTheDocument();
    const oldTableRow = within(table).getByRole('row', {
      name: new RegExp(`^Chrome on Linux Your device · id ${oldRow.id.slice(0, 8)}`),
    });
    const clinicTableRow = within(table).getByRole('row', { name: /^Clinic PC Another user’s device/ });
    expect(within(clinicTableRow).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(within(table).getAllByRole('button', { name: /^Remove/ })).toHaveLength(1);

    // the question names the device; Cancel changes nothing
    const remove = within(oldTableRow).getByRole('button', { name: `Remove Chrome on Linux, id ${oldRow.id.slice(0, 8)}` });
    await user.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Remove this device?' });
    expect(dialog).toHaveTextContent(`Chrome on Linux (last seen`);
    expect(dialog).toHaveTextContent(`id ${oldRow.id.slice(0, 8)}) stops syncing with the server at once.`);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.fetch.mock.calls.some(([url]) => String(url).endsWith('/api/remove-device'))).toBe(false);

    // with the keyboard: the button, then Remove device in the dialog
    remove.focus();
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('dialog', { name: 'Remove this device?' });
    within(again).getByRole('button', { name: 'Remove device' }).focus();
    await user.keyboard('{Enter}');
    const said = await within(section).findByText(/^Chrome on Linux \(id [0-9a-z-]{8}\) was removed from the sync server\.$/);
    // the focus moves to the message once the dialog has closed (its exit transition ends first)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(said).toHaveFocus());
    await waitFor(() => expect(within(section).queryByText(new RegExp(`id ${oldRow.id.slice(0, 8)}$`))).not.toBeInTheDocument());
    expect(within(section).getByText(`Another user’s device · id ${clinicRow.id.slice(0, 8)}`)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
  });

  it('keeps the dialog open with the reason when the server refuses', async () => {
    const { server, ledger } = await twoDevicesOfSarah('Old laptop');
    await expect.poll(async () => (await ledger.service.syncStatus()).devices.length).toBe(2);
    const { user } = renderApp('/patient/profile', { ledger, signedInAs: SARAH.id });
    const section = await screen.findByRole('region', { name: 'Devices and sync' });
    await user.click(await within(section).findByRole('button', { name: /^Remove Old laptop/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this device?' });
    server.fetch.mockImplementationOnce(async () => ({
      ok: true,
      status: 200,
      json: async () => ({ ok: false, reason: 'the asking device has not joined' }),
    }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove device' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The sync server did not remove the device: the asking device has not joined.',
    );
    expect(within(section).getByRole('row', { name: /^Old laptop/ })).toBeInTheDocument();
  });
});
