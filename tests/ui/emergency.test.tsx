import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ledgerError } from '../../workers/core/errors';
import { deferred, openLedger, renderApp, withOverrides } from './render-app';
import { signInById } from '../support/ledger-fixtures';

async function openEmergency(options: Parameters<typeof renderApp>[1] = {}) {
  const view = renderApp('/doctor/emergency', { signedInAs: 'doctor-1', ...options });
  await screen.findByRole('form', { name: 'Request emergency access' });
  await screen.findByRole('radio', { name: /Sarah Johnson/ });
  return view;
}

const grantButton = () => screen.getByRole('button', { name: /Grant Emergency Access|Granting Access/ });

afterEach(() => {
  vi.useRealTimers();
});

describe('SOS Emergency Access', () => {
  it('defaults to basic access for 1 hour and offers the five durations', async () => {
    await openEmergency();
    expect(screen.getByRole('radio', { name: /Basic/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Basic/ })).toHaveAccessibleDescription('basic info and recent records');
    expect(screen.getByRole('radio', { name: /Full/ })).toHaveAccessibleDescription('complete history');
    const duration = screen.getByLabelText('Duration');
    expect(duration).toHaveValue('60');
    expect(
      within(duration)
        .getAllByRole('option')
        .map((option) => [option.getAttribute('value'), option.textContent]),
    ).toEqual([
      ['15', '15 minutes'],
      ['30', '30 minutes'],
      ['60', '1 hour'],
      ['120', '2 hours'],
      ['240', '4 hours'],
    ]);
  });

  it('keeps Grant disabled until a patient is selected and the reason is not blank', async () => {
    const { user } = await openEmergency();
    expect(grantButton()).toBeDisabled();
    await user.type(screen.getByLabelText('Reason for emergency access'), '    ');
    await user.click(screen.getByRole('radio', { name: /Sarah Johnson/ }));
    expect(grantButton()).toBeDisabled();
    await user.type(screen.getByLabelText('Reason for emergency access'), 'Unconscious in the ER');
    expect(grantButton()).toBeEnabled();
  });

  it('names only what is still missing beside the disabled Grant button', async () => {
    const { user } = await openEmergency();
    expect(screen.getByText('Select a patient and enter a reason to continue.')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Sarah Johnson/ }));
    expect(screen.getByText('Enter a reason to continue.')).toBeInTheDocument();
    expect(screen.queryByText(/Select a patient/)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Reason for emergency access'), 'Unconscious in the ER');
    expect(screen.queryByText(/to continue\./)).not.toBeInTheDocument();
  });

  it('asks only for the patient when the reason is written first', async () => {
    const { user } = await openEmergency();
    await user.type(screen.getByLabelText('Reason for emergency access'), 'Unconscious in the ER');
    expect(screen.getByText('Select a patient to continue.')).toBeInTheDocument();
  });

  it('filters patients by name and by id', async () => {
    const { user } = await openEmergency();
    const search = screen.getByLabelText('Search patients by name or ID');
    await user.type(search, 'chen');
    await waitFor(() => expect(screen.queryByRole('radio', { name: /Sarah Johnson/ })).not.toBeInTheDocument());
    expect(screen.getByRole('radio', { name: /Michael Chen/ })).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'patient-1');
    await waitFor(() => expect(screen.queryByRole('radio', { name: /Michael Chen/ })).not.toBeInTheDocument());
    expect(screen.getByRole('radio', { name: /Sarah Johnson/ })).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'zzz');
    expect(await screen.findByText(/No patients match/)).toBeInTheDocument();
  });

  it('grants access, shows the active panel, and End Emergency Session returns to the search', async () => {
    const { user, ledger } = await openEmergency();
    await user.click(screen.getByRole('radio', { name: /Michael Chen/ }));
    await user.type(screen.getByLabelText('Reason for emergency access'), 'Cardiac arrest on arrival');
    await user.click(screen.getByRole('radio', { name: /Full/ }));
    await user.selectOptions(screen.getByLabelText('Duration'), '15');
    await user.click(grantButton());

    const panel = await screen.findByRole('region', { name: 'Emergency Access Active' });
    expect(within(panel).getByRole('timer')).toHaveTextContent(/^(15:00|14:5\d)$/);
    expect(within(panel).getByText('Michael Chen')).toBeInTheDocument();
    expect(within(panel).getByText('Full: complete history')).toBeInTheDocument();
    expect(within(panel).getByText('Cardiac arrest on arrival')).toBeInTheDocument();
    const [grant] = await ledger.service.activeGrants();
    expect(grant).toMatchObject({ patientId: 'patient-2', accessLevel: 'full', durationMinutes: 15 });

    await user.click(within(panel).getByRole('button', { name: /End Emergency Session/ }));
    expect(await screen.findByText('Emergency session for Michael Chen ended.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Emergency Access Active' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Search patients by name or ID')).toBeInTheDocument();
    expect(await ledger.service.activeGrants()).toEqual([]);
  });

  it('counts down from the grant each second and closes the panel at 0 with a note', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user } = await openEmergency({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('radio', { name: /Sarah Johnson/ }));
    await user.type(screen.getByLabelText('Reason for emergency access'), 'Anaphylaxis');
    await user.click(grantButton());
    // the panel's timer: the session bar above every screen counts down the same grant
    const panel = await screen.findByRole('region', { name: 'Emergency Access Active' });
    const timer = within(panel).getByRole('timer');
    expect(timer).toHaveTextContent('60:00');
    // each second read once it has rendered: a tick that real time fired outside act renders a moment later
    act(() => vi.advanceTimersByTime(1000));
    await waitFor(() => expect(timer).toHaveTextContent('59:59'));
    act(() => vi.advanceTimersByTime(1000));
    await waitFor(() => expect(timer).toHaveTextContent('59:58'));
    act(() => vi.advanceTimersByTime(60 * 60_000));
    expect(await screen.findByText(/^Emergency access to Sarah Johnson ended at .+ \(expired\)$/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Emergency Access Active' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('timer')).not.toBeInTheDocument()); // the session bar goes once it reloads the grants
    expect(screen.getByLabelText('Search patients by name or ID')).toBeInTheDocument();
  });

  it('shows the busy state while the grant is pending', async () => {
    const ledger = openLedger();
    const pending = deferred<never>();
    const proxy = withOverrides(ledger.proxy, { requestEmergencyAccess: () => pending.promise });
    const { user } = await openEmergency({ ledger, proxy });
    await user.click(screen.getByRole('radio', { name: /Sarah Johnson/ }));
    await user.type(screen.getByLabelText('Reason for emergency access'), 'Trauma');
    await user.click(grantButton());
    expect(screen.getByRole('button', { name: /Granting Access\.\.\./ })).toBeDisabled();
    pending.reject(new Error('stop'));
    expect(await screen.findByRole('button', { name: /Grant Emergency Access/ })).toBeEnabled();
  });

  it('on failure shows the message, moves focus to it and keeps the form', async () => {
    const ledger = openLedger();
    const proxy = withOverrides(ledger.proxy, {
      requestEmergencyAccess: () => Promise.reject(ledgerError('StorageError', 'The emergency access was not saved')),
    });
    const { user } = await openEmergency({ ledger, proxy });
    await user.click(screen.getByRole('radio', { name: /Michael Chen/ }));
    await user.type(screen.getByLabelText('Reason for emergency access'), 'Stroke symptoms');
    await user.click(screen.getByRole('radio', { name: /Full/ }));
    await user.selectOptions(screen.getByLabelText('Duration'), '120');
    await user.click(grantButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The emergency access was not saved');
    expect(alert).toHaveFocus();
    expect(screen.getByRole('radio', { name: /Michael Chen/ })).toBeChecked();
    expect(screen.getByLabelText('Reason for emergency access')).toHaveValue('Stroke symptoms');
    expect(screen.getByRole('radio', { name: /Full/ })).toBeChecked();
    expect(screen.getByLabelText('Duration')).toHaveValue('120');
  });

  it('shows a grant that is still active when the page opens', async () => {
    const ledger = openLedger();
    await signInById(ledger.service, 'doctor-1');
    await ledger.service.requestEmergencyAccess({
      patientId: 'patient-1',
      reason: 'Follow-up in ICU',
      accessLevel: 'basic',
      durationMinutes: 30,
    });
    renderApp('/doctor/emergency', { ledger, signedInAs: 'doctor-1' });
    const panel = await screen.findByRole('region', { name: 'Emergency Access Active' });
    expect(within(panel).getByText('Sarah Johnson')).toBeInTheDocument();
    expect(within(panel).getByText('Basic: basic info and recent records')).toBeInTheDocument();
    expect(within(panel).getByRole('timer')).toHaveTextContent(/^(30:00|29:5\d)$/);
  });
});
