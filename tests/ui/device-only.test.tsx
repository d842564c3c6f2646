// A record list on a device that is not in step with the ledger's other devices holds only what this device holds:
// each list says so and offers Connect (My Profile, Devices and sync) or a restore (issue 42, item 2).
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SARAH, signInAs } from '../support/ledger-fixtures';
import { fakeServer } from '../support/fake-sync';
import { openLedger, renderApp } from './render-app';

const ALONE = /Only the records on this device: it is not connected, so records added on other devices are not here\./;

function expectAloneNote(scope: HTMLElement, role: 'patient' | 'doctor') {
  const note = within(scope).getByText(ALONE);
  expect(within(note).getByRole('link', { name: 'Connect this device' })).toHaveAttribute(
    'href',
    `/${role}/profile#section-devices-and-sync`,
  );
  expect(within(note).getByRole('link', { name: 'restore a backup' })).toHaveAttribute(
    'href',
    role === 'patient' ? '/patient/records#section-take-your-records-with-you' : '/doctor/profile#section-your-backup',
  );
}

describe('Record lists on a device alone', () => {
  it("the patient's dashboard and Medical Records say they hold only this device's records", async () => {
    const { user } = renderApp('/patient/dashboard', { signedInAs: SARAH.id });
    const recent = await screen.findByRole('region', { name: 'Recent Medical Records' });
    await within(recent).findByText(ALONE);
    expectAloneNote(recent, 'patient');

    await user.click(within(recent).getByRole('link', { name: 'Connect this device' }));
    expect(await screen.findByRole('region', { name: 'Devices and sync' })).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Medical Records' }));
    const list = await screen.findByRole('region', { name: 'Your Records' });
    await within(list).findByText(ALONE);
    expectAloneNote(list, 'patient');
  });

  it("the doctor's My Patients card says its count is this device's, beside 'Records (1)'", async () => {
    renderApp('/doctor/patients', { signedInAs: 'doctor-1' });
    const card = await screen.findByRole('region', { name: 'Sarah Johnson' });
    const heading = within(card).getByRole('heading', { name: /^Records/ });
    await waitFor(() => expect(heading).toHaveTextContent('Records (1)'));
    await within(card).findByText(ALONE);
    expectAloneNote(card, 'doctor');
  });

  it('an emergency session keeps "Michael Chen has no records yet." and says that is only this device', async () => {
    const { user } = renderApp('/doctor/emergency', { signedInAs: 'doctor-1' });
    await user.click(await screen.findByRole('radio', { name: /Michael Chen/ }));
    await user.type(screen.getByLabelText('Reason for emergency access'), 'Collapsed in clinic');
    await user.click(screen.getByRole('button', { name: /Grant Emergency Access/ }));
    const recent = await screen.findByRole('region', { name: 'Recent Records' }, { timeout: 5000 });
    expect(await within(recent).findByText('Michael Chen has no records yet.')).toBeInTheDocument();
    await within(recent).findByText(ALONE);
    expectAloneNote(recent, 'doctor');
  });

  it('says nothing once the device is in step with the server', async () => {
    const server = fakeServer({ relay: true });
    const ledger = openLedger({ syncTransport: server.transport });
    await signInAs(ledger.service, SARAH);
    await ledger.service.connectSync({ serverUrl: 'ws://127.0.0.1:3030', deviceName: 'Sarah’s laptop' });
    await expect.poll(async () => (await ledger.service.syncStatus()).state).toBe('in-step');

    renderApp('/patient/dashboard', { ledger, signedInAs: SARAH.id });
    const recent = await screen.findByRole('region', { name: 'Recent Medical Records' });
    expect(await within(recent).findByText('Initial health assessment')).toBeInTheDocument();
    expect((await screen.findAllByText(/In step: 1 device/)).length).toBeGreaterThan(0);
    expect(within(recent).queryByText(/Only the records on this device/)).not.toBeInTheDocument();
  });
});
