import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatTime } from '../../src/components/format';
import { openLedger, renderApp } from './render-app';
import { signInById } from '../support/ledger-fixtures';

async function carterOnSarah(ledger: ReturnType<typeof openLedger>, durationMinutes = 15) {
  await signInById(ledger.service, 'doctor-1');
  return ledger.service.requestEmergencyAccess({
    patientId: 'patient-1',
    reason: 'Unconscious in the ER',
    accessLevel: 'basic',
    durationMinutes,
  });
}

const notice = () => screen.findByRole('alert', { name: 'Emergency access to your records' });

afterEach(() => {
  vi.useRealTimers();
});

describe('the patient and an open emergency session', () => {
  it('keeps the alert without Dismiss while the session is open, and lets her end it', async () => {
    const ledger = openLedger();
    const grant = await carterOnSarah(ledger);
    const { user } = renderApp('/patient/dashboard', { ledger, signedInAs: 'patient-1' });
    const alert = await notice();
    expect(alert).toHaveTextContent('active now');
    expect(within(alert).queryByRole('button', { name: 'Dismiss' })).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'End the emergency session of Dr. Emily Carter' }));
    await waitFor(() => expect(alert).toHaveTextContent('(ended by you)'));
    expect(within(alert).getByRole('button', { name: 'Dismiss' })).toBeEnabled();
    const [entry] = await ledger.service.accessHistory();
    expect(entry).toMatchObject({ grantId: grant.id, status: 'ended', endedBy: 'Sarah Johnson' });

    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Emergency access to your records' })).toBeNull());
  });

  it('names who ended a session in the access history', async () => {
    const ledger = openLedger();
    await carterOnSarah(ledger);
    await signInById(ledger.service, 'patient-1');
    await ledger.service.endEmergencyAccessAsPatient((await ledger.service.activeGrants())[0].id);
    renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const history = await screen.findByRole('region', { name: 'Emergency Access History' });
    const entry = (await within(history).findByRole('heading', { name: 'Dr. Emily Carter', level: 3 })).closest('li');
    expect(entry).toHaveTextContent(/Ended by you after/);
    expect(entry).toHaveTextContent('Basic: basic info and recent records');
  });
});

describe('a doctor logging out with an open emergency session', () => {
  async function openLogoutPrompt() {
    const ledger = openLedger();
    const grant = await carterOnSarah(ledger, 60);
    const view = renderApp('/doctor/dashboard', { ledger, signedInAs: 'doctor-1' });
    await screen.findByRole('region', { name: 'Active emergency access' });
    await view.user.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('End the emergency session for Sarah Johnson before logging out?');
    return { ...view, ledger, grant, dialog };
  }

  it('Cancel keeps the doctor signed in with the session open', async () => {
    const { user, dialog } = await openLogoutPrompt();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Active emergency access' })).toBeInTheDocument();
  });

  it('End and log out ends the session on the chain, then signs out', async () => {
    const { user, dialog, ledger } = await openLogoutPrompt();
    await user.click(within(dialog).getByRole('button', { name: 'End and log out' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    await signInById(ledger.service, 'doctor-1');
    expect(await ledger.service.activeGrants()).toEqual([]);
  });

  it('Log out and keep it signs out and leaves the session open', async () => {
    const { user, dialog, ledger, grant } = await openLogoutPrompt();
    await user.click(within(dialog).getByRole('button', { name: 'Log out and keep it' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    await signInById(ledger.service, 'doctor-1');
    expect((await ledger.service.activeGrants()).map((open) => open.id)).toEqual([grant.id]);
  });
});

describe('a doctor whose emergency session expires', () => {
  it('is told on any screen when it ended, until the next move', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const ledger = openLedger();
    const grant = await carterOnSarah(ledger, 15);
    const { user } = renderApp('/doctor/dashboard', { ledger, signedInAs: 'doctor-1', advanceTimers: vi.advanceTimersByTime });
    await screen.findByRole('region', { name: 'Active emergency access' });
    act(() => vi.advanceTimersByTime(15 * 60_000));
    const message = `Emergency access to Sarah Johnson ended at ${formatTime(grant.expiresAt)} (expired)`;
    const status = await screen.findByText(message);
    expect(status.closest('[role="status"]')).not.toBeNull();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Active emergency access' })).toBeNull());
    expect(screen.getByText(message)).toBeInTheDocument(); // stays after the bar has gone

    await user.click(screen.getAllByRole('link', { name: /My Patients/ })[0]);
    await waitFor(() => expect(screen.queryByText(message)).toBeNull());
  });
});
