import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShareRequest } from '../../workers/api';
import { ledgerError, MESSAGES } from '../../workers/core/errors';
import type { LedgerBroadcast } from '../../workers/ledger/deps';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { createTestLedgerService } from '../support/test-ledger';
import { deferred, openLedger, renderApp, withOverrides } from './render-app';
import { PDF_TEXT, captureBlobs, seedRecords } from './record-seeds';
import { signInById } from '../support/ledger-fixtures';

let capture: ReturnType<typeof captureBlobs> | null = null;
afterEach(() => {
  capture?.restore();
  capture = null;
});

const WILSON_OPTION = 'Dr. James Wilson (Emergency Medicine)';
const detail = (scope: HTMLElement, term: string) => within(scope).getByText(term, { selector: 'dt' }).nextElementSibling;
const entryOf = (scope: HTMLElement, doctor: string) =>
  within(scope).getByRole('heading', { name: doctor, level: 3 }).closest('li')!;

async function openSharing(options: Parameters<typeof renderApp>[1] = {}) {
  const view = renderApp('/patient/sharing', { signedInAs: 'patient-1', ...options });
  await screen.findByRole('form', { name: 'Share records' });
  await screen.findByRole('region', { name: 'Active Shares' });
  return view;
}

// Sarah (patient-1) shares with Dr. Wilson (doctor-2, not her doctor), arranged on the service directly.
async function sarahShares(ledger: ReturnType<typeof openLedger>, request: Partial<ShareRequest> = {}) {
  await signInById(ledger.service, 'patient-1');
  return ledger.service.shareRecords({ doctorId: 'doctor-2', accessLevel: 'full', durationDays: 0, ...request });
}

describe('Sharing (patient)', () => {
  it('offers the listed doctors, basic or full with the SOS explanations, and the four durations', async () => {
    await openSharing();
    const doctor = screen.getByLabelText('Doctor');
    expect(
      within(doctor)
        .getAllByRole('option')
        .map((option) => [option.getAttribute('value'), option.textContent]),
    ).toEqual([
      ['', 'Choose a doctor'],
      ['doctor-1', 'Dr. Emily Carter (Cardiology)'],
      ['doctor-2', WILSON_OPTION],
    ]);
    expect(screen.getByRole('radio', { name: /Basic/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Basic/ })).toHaveAccessibleDescription('basic info and recent records');
    expect(screen.getByRole('radio', { name: /Full/ })).toHaveAccessibleDescription('complete history');
    const duration = screen.getByLabelText('Duration');
    expect(duration).toHaveValue('7');
    expect(
      within(duration)
        .getAllByRole('option')
        .map((option) => [option.getAttribute('value'), option.textContent]),
    ).toEqual([
      ['1', '1 day'],
      ['7', '7 days'],
      ['30', '30 days'],
      ['0', 'Until revoked'],
    ]);
    expect(screen.getByText('No doctor can read your records through a share.')).toBeInTheDocument();
  });

  it('shares with Dr. James Wilson, says so, and lists the share as active with its level, expiry and note', async () => {
    const { user, ledger } = await openSharing();
    await user.selectOptions(screen.getByLabelText('Doctor'), WILSON_OPTION);
    await user.click(screen.getByRole('radio', { name: /Full/ }));
    await user.selectOptions(screen.getByLabelText('Duration'), 'Until revoked');
    await user.type(screen.getByLabelText(/Note for the doctor/), 'Second opinion on my ECG');
    await user.click(screen.getByRole('button', { name: /Share records/ }));

    const done = await screen.findByText('Shared with Dr. James Wilson: full access until you revoke it.');
    // the focus moves to the message in the effect after it renders: read with retries (a busy machine is slower)
    await waitFor(() => expect(done.closest('[role="status"]')).toHaveFocus());
    expect(screen.getByLabelText('Doctor')).toHaveValue('');
    expect(screen.getByLabelText(/Note for the doctor/)).toHaveValue('');

    const active = screen.getByRole('region', { name: 'Active Shares' });
    const entry = await waitFor(() => entryOf(active, 'Dr. James Wilson'));
    expect(within(entry).getByText('Active', { selector: '.badge' })).toBeInTheDocument();
    expect(detail(entry, 'Access Level')).toHaveTextContent('Full: complete history');
    expect(detail(entry, 'Expires')).toHaveTextContent('Until revoked');
    expect(detail(entry, 'Note')).toHaveTextContent('Second opinion on my ECG');
    expect(within(entry).getByText('Not read yet')).toBeInTheDocument();
    expect(within(entry).getByRole('button', { name: 'Revoke the share with Dr. James Wilson' })).toBeEnabled();
    expect(
      (await ledger.service.myShares()).map(({ share, status }) => [share.doctorId, share.accessLevel, share.expiresAt, status]),
    ).toEqual([['doctor-2', 'full', null, 'active']]);
  });

  it('without a doctor shows the worker’s message, moves focus to it and shares nothing', async () => {
    const { user, ledger } = await openSharing();
    await user.click(screen.getByRole('button', { name: /Share records/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Choose a doctor to share with.');
    expect(alert).toHaveFocus();
    expect(screen.getByLabelText('Doctor')).toHaveAttribute('aria-invalid', 'true');
    expect(await ledger.service.myShares()).toEqual([]);
  });

  it('counts the note against its 500 characters and, over it, says the worker’s words and shares nothing', async () => {
    const { user, ledger } = await openSharing();
    await user.selectOptions(screen.getByLabelText('Doctor'), WILSON_OPTION);
    const note = screen.getByLabelText(/Note for the doctor/);
    // a paste: the input event a browser fires for it
    fireEvent.input(note, { target: { value: `  ${'x'.repeat(500)}  ` } }); // trimmed, as the worker counts it
    expect(screen.getByText('500 / 500')).toBeInTheDocument();
    expect(note).not.toHaveAttribute('aria-invalid');
    fireEvent.input(note, { target: { value: 'x'.repeat(501) } });
    expect(screen.getByText('501 / 500')).toBeInTheDocument();
    expect(note).toHaveAttribute('aria-invalid', 'true');
    expect(note).toHaveAccessibleDescription(/The note is longer than 500 characters\./);
    await user.click(screen.getByRole('button', { name: /Share records/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The note is longer than 500 characters.');
    expect(alert).toHaveFocus();
    expect(note).toHaveValue('x'.repeat(501)); // kept, to be shortened
    expect(await ledger.service.myShares()).toEqual([]);
  });

  it('shows a failed share’s message with focus on it, keeps the form, and shows the busy state while pending', async () => {
    const ledger = openLedger();
    const pending = deferred<never>();
    const proxy = withOverrides(ledger.proxy, { shareRecords: () => pending.promise });
    const { user } = await openSharing({ ledger, proxy });
    await user.selectOptions(screen.getByLabelText('Doctor'), WILSON_OPTION);
    await user.click(screen.getByRole('radio', { name: /Full/ }));
    await user.click(screen.getByRole('button', { name: /Share records/ }));
    expect(screen.getByRole('button', { name: /Sharing\.\.\./ })).toBeDisabled();
    pending.reject(ledgerError('StorageError', 'The share was not saved'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The share was not saved');
    expect(alert).toHaveFocus();
    expect(screen.getByLabelText('Doctor')).toHaveValue('doctor-2');
    expect(screen.getByRole('radio', { name: /Full/ })).toBeChecked();
    expect(screen.getByRole('button', { name: /Share records/ })).toBeEnabled();
  });

  it('revokes at once with one call however often Revoke is clicked, and moves the share to the past ones', async () => {
    const ledger = openLedger();
    await sarahShares(ledger, { note: 'Follow-up' });
    let calls = 0;
    const proxy = withOverrides(ledger.proxy, {
      revokeShare: (shareId: never) => {
        calls += 1;
        return ledger.proxy.revokeShare(shareId);
      },
    });
    const { user } = await openSharing({ ledger, proxy });
    const active = screen.getByRole('region', { name: 'Active Shares' });
    const revoke = await within(active).findByRole('button', { name: 'Revoke the share with Dr. James Wilson' });
    await user.dblClick(revoke);
    fireEvent.click(revoke);

    const notice = await screen.findByText('Dr. James Wilson can no longer read your records.');
    await waitFor(() => expect(notice.closest('[role="status"]')).toHaveFocus());
    const past = await screen.findByRole('region', { name: 'Past Shares' });
    const entry = entryOf(past, 'Dr. James Wilson');
    expect(within(entry).getByText('Revoked', { selector: '.badge' })).toBeInTheDocument();
    expect(detail(entry, 'Revoked')).toHaveTextContent(/\d{4}/);
    expect(within(entry).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(within(active).getByText('No doctor can read your records through a share.')).toBeInTheDocument();
    expect(calls).toBe(1);
    expect((await ledger.service.myShares()).map((share) => share.status)).toEqual(['revoked']);
  });

  it('takes the "Shared with" notice away once that share is revoked', async () => {
    const { user } = await openSharing();
    await user.selectOptions(screen.getByLabelText('Doctor'), WILSON_OPTION);
    await user.click(screen.getByRole('button', { name: /Share records/ }));
    const shared = /^Shared with Dr\. James Wilson: basic access until /;
    expect(await screen.findByText(shared)).toBeInTheDocument();
    const active = screen.getByRole('region', { name: 'Active Shares' });
    await user.click(await within(active).findByRole('button', { name: 'Revoke the share with Dr. James Wilson' }));
    expect(await screen.findByText('Dr. James Wilson can no longer read your records.')).toBeInTheDocument();
    expect(screen.queryByText(shared)).not.toBeInTheDocument();
  });

  it('lists who can read the records and why: the patient, their own doctor and each active share', async () => {
    const { user } = await openSharing();
    const readers = screen.getByRole('region', { name: 'Who can read your records' });
    const lines = () =>
      within(readers)
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(lines()).toEqual(['You, on your devices', 'Dr. Emily Carter, your doctor: reads all your records and files']);

    await user.selectOptions(screen.getByLabelText('Doctor'), WILSON_OPTION);
    await user.click(screen.getByRole('radio', { name: /Full/ }));
    await user.selectOptions(screen.getByLabelText('Duration'), 'Until revoked');
    await user.click(screen.getByRole('button', { name: /Share records/ }));
    await waitFor(() => expect(lines()).toContain('Dr. James Wilson, through your share: full access until you revoke it'));
  });

  it('lists a doctor with an open emergency session among who can read, with its level and end', async () => {
    const ledger = openLedger();
    await signInById(ledger.service, 'doctor-2');
    await ledger.service.requestEmergencyAccess({
      patientId: 'patient-1',
      reason: 'Chest pain in the ER',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    await signInById(ledger.service, 'patient-1');
    await openSharing({ ledger });
    const readers = screen.getByRole('region', { name: 'Who can read your records' });
    expect(await within(readers).findByText(/^, emergency access: basic, until /)).toHaveTextContent(
      /^Dr\. James Wilson, emergency access: basic, until /,
    );
  });

  it('shows a failed revoke’s message with focus on it and lets the patient try again', async () => {
    const ledger = openLedger();
    await sarahShares(ledger);
    const proxy = withOverrides(ledger.proxy, {
      revokeShare: () => Promise.reject(ledgerError('StorageError', 'Revoking the share was not saved')),
    });
    const { user } = await openSharing({ ledger, proxy });
    const active = screen.getByRole('region', { name: 'Active Shares' });
    await user.click(await within(active).findByRole('button', { name: 'Revoke the share with Dr. James Wilson' }));
    const alert = await within(active).findByRole('alert');
    expect(alert).toHaveTextContent('Revoking the share was not saved');
    expect(alert).toHaveFocus();
    expect(within(active).getByRole('button', { name: 'Revoke the share with Dr. James Wilson' })).toBeEnabled();
    expect((await ledger.service.myShares()).map((share) => share.status)).toEqual(['active']);
  });

  it('lists each read of the doctor in the share’s access log', async () => {
    const ledger = openLedger();
    const share = await sarahShares(ledger, { accessLevel: 'basic', durationDays: 1 });
    await signInById(ledger.service, 'doctor-2');
    await ledger.service.sharedView(share.id);
    await openSharing({ ledger });
    const entry = await waitFor(() => entryOf(screen.getByRole('region', { name: 'Active Shares' }), 'Dr. James Wilson'));
    expect(within(entry).getByRole('heading', { name: 'Access log' })).toBeInTheDocument();
    expect(within(entry).getByRole('listitem')).toHaveTextContent('profile, health overview and 1 record');
    expect(within(entry).getByRole('listitem')).not.toHaveTextContent('Initial health assessment'); // a read names no title
    expect(within(entry).queryByText('Not read yet')).not.toBeInTheDocument();
    expect(detail(entry, 'Expires')?.querySelector('time')).toHaveAttribute('dateTime', share.expiresAt);
  });
});

// The doctor's app over one service, and the patient in "another tab": a second service on the same storage
// whose changes reach the first as the worker's BroadcastChannel carries them.
function doctorAndPatientTabs() {
  const storage = createMemoryStorage();
  const listeners: ((message: LedgerBroadcast) => void)[] = [];
  const ledger = openLedger({ storage, listenToOthers: (listener) => listeners.push(listener) });
  const patientTab = createTestLedgerService({
    storage,
    notifyOthers: (message) => listeners.forEach((listener) => listener(message)),
  });
  return { ledger, patientTab };
}

describe('Shared with me (doctor)', () => {
  it('lists Sarah’s share on Dr. Wilson’s My Patients and opens her complete history, files included', async () => {
    capture = captureBlobs();
    const ledger = openLedger();
    await seedRecords(ledger.service, 'patient-1', [{ title: 'Echocardiogram' }]);
    await sarahShares(ledger, { note: 'Second opinion' });
    const { user, location } = renderApp('/doctor/patients', { ledger, signedInAs: 'doctor-2' });

    const shared = await screen.findByRole('region', { name: 'Shared with me' });
    const item = (await within(shared).findByText('Sarah Johnson')).closest('li')!;
    expect(item).toHaveTextContent('Full: complete history');
    expect(item).toHaveTextContent('Until revoked');
    expect(item).toHaveTextContent('Note: Second opinion');
    await user.click(within(item).getByRole('button', { name: 'Open shared records of Sarah Johnson' }));

    const heading = await screen.findByRole('heading', { name: 'Records shared by Sarah Johnson', level: 2 });
    await waitFor(() => expect(heading).toHaveFocus());
    const profile = await screen.findByRole('region', { name: 'Patient Profile' });
    expect(within(profile).getByText('Blood Type').nextElementSibling).toHaveTextContent('O+');
    expect(
      screen.getByText('Each read under this share is recorded on the chain and shown to Sarah Johnson.'),
    ).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'Complete History' });
    expect(within(history).getByRole('heading', { name: 'Echocardiogram' })).toBeInTheDocument();
    await user.click(within(history).getByRole('button', { name: 'Download echocardiogram.pdf' }));
    await waitFor(() => expect(capture?.downloads.map((download) => download.name)).toEqual(['echocardiogram.pdf']));
    expect(await capture.text(0)).toBe(PDF_TEXT);

    expect(location().search).toMatch(/^\?share=/);
    await user.click(screen.getByRole('button', { name: 'Close shared records' }));
    expect(screen.queryByRole('region', { name: 'Complete History' })).not.toBeInTheDocument();
    expect(location().search).toBe('');
    expect(within(item).getByRole('button', { name: 'Open shared records of Sarah Johnson' })).toHaveFocus();

    await signInById(ledger.service, 'patient-1');
    expect((await ledger.service.myShares())[0].reads.map((read) => read.what)).toEqual([
      'profile, health overview and the complete history (2 records)',
      'document "echocardiogram.pdf"',
    ]);
  });

  it('under a basic share shows the 5 newest records without their files', async () => {
    const ledger = openLedger();
    await seedRecords(
      ledger.service,
      'patient-1',
      ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'].map((title) => ({ title })),
    );
    await sarahShares(ledger, { accessLevel: 'basic', durationDays: 7 });
    const { user } = renderApp('/doctor/patients', { ledger, signedInAs: 'doctor-2' });
    const shared = await screen.findByRole('region', { name: 'Shared with me' });
    await user.click(await within(shared).findByRole('button', { name: 'Open shared records of Sarah Johnson' }));
    const recent = await screen.findByRole('region', { name: 'Recent Records' });
    expect(
      within(recent)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['R6', 'R5', 'R4', 'R3', 'R2']);
    expect(within(recent).getAllByText('1 file: documents need full access.')).toHaveLength(5);
    expect(within(recent).queryByRole('button', { name: /Open|Download/ })).not.toBeInTheDocument();
  });

  it('once the patient revokes in another tab, the open view is denied and the share leaves the list', async () => {
    const { ledger, patientTab } = doctorAndPatientTabs();
    await seedRecords(ledger.service, 'patient-1', [{ title: 'Holter report' }]);
    await signInById(patientTab, 'patient-1');
    const share = await patientTab.shareRecords({ doctorId: 'doctor-2', accessLevel: 'full', durationDays: 30 });
    const { user } = renderApp('/doctor/patients', { ledger, signedInAs: 'doctor-2' });
    const shared = await screen.findByRole('region', { name: 'Shared with me' });
    await user.click(await within(shared).findByRole('button', { name: 'Open shared records of Sarah Johnson' }));
    await screen.findByRole('heading', { name: 'Holter report' });

    await patientTab.revokeShare(share.id);
    expect(await screen.findByText(MESSAGES.accessDenied)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Holter report' })).not.toBeInTheDocument();
    expect(await within(shared).findByText('No patient is sharing records with you.')).toBeInTheDocument();
  });

  it('keeps the open share in the URL: a kept link to a revoked share is refused by the worker', async () => {
    const ledger = openLedger();
    const share = await sarahShares(ledger);
    await ledger.service.revokeShare(share.id);
    renderApp(`/doctor/patients?share=${share.id}`, { ledger, signedInAs: 'doctor-2' });
    const opened = await screen.findByRole('region', { name: 'Shared records' });
    expect(await within(opened).findByRole('alert')).toHaveTextContent(MESSAGES.accessDenied);
    expect(screen.queryByRole('region', { name: 'Patient Profile' })).not.toBeInTheDocument();
    expect(
      await within(screen.getByRole('region', { name: 'Shared with me' })).findByText('No patient is sharing records with you.'),
    ).toBeInTheDocument();
  });

  it('tells the doctor of a new share on the dashboard, links to it, and calls it new only until the doctor opens it', async () => {
    const ledger = openLedger();
    await sarahShares(ledger, { accessLevel: 'basic', durationDays: 0 });
    const { user, location } = renderApp('/doctor/dashboard', { ledger, signedInAs: 'doctor-2' });

    const told = await screen.findByRole('list', { name: 'New shares' });
    expect(told).toHaveTextContent('Sarah Johnson shared records with you: basic access until revoked.');
    await user.click(within(told).getByRole('link', { name: 'Open them in My Patients' }));
    await screen.findByRole('heading', { name: 'Records shared by Sarah Johnson', level: 2 });
    expect(location().pathname).toBe('/doctor/patients');
    const item = (await within(screen.getByRole('region', { name: 'Shared with me' })).findByText('Sarah Johnson')).closest(
      'li',
    )!;
    // opening it recorded a read: the share is no longer new, here or on the dashboard
    await waitFor(() => expect(within(item).queryByText('New')).not.toBeInTheDocument());
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await screen.findByRole('heading', { name: 'Welcome, Dr. James Wilson' });
    await screen.findByRole('status', { name: 'Your emergency sessions' });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'New shares' })).not.toBeInTheDocument());
  });

  it('marks a share the doctor has not opened as new in Shared with me', async () => {
    const ledger = openLedger();
    await sarahShares(ledger);
    renderApp('/doctor/patients', { ledger, signedInAs: 'doctor-2' });
    const item = (
      await within(await screen.findByRole('region', { name: 'Shared with me' })).findByText('Sarah Johnson')
    ).closest('li')!;
    expect(within(item).getByText('New')).toBeInTheDocument();
  });

  it('says so when no patient shares with the doctor', async () => {
    renderApp('/doctor/patients', { signedInAs: 'doctor-1' });
    const shared = await screen.findByRole('region', { name: 'Shared with me' });
    expect(await within(shared).findByText('No patient is sharing records with you.')).toBeInTheDocument();
  });
});
