import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TODAYS_SCHEDULE } from '../../workers/core/constants';
import type { ConnectedLedger } from '../support/ledger-over-channel';
import { openLedger, renderApp } from './render-app';
import { signInById } from '../support/ledger-fixtures';

const PDF = { name: 'note.pdf', type: 'application/pdf' };

async function uploadAs(ledger: ConnectedLedger, titles: string[]) {
  await signInById(ledger.service, 'patient-1');
  for (const title of titles) {
    await ledger.service.upload({
      title,
      type: 'prescription',
      files: [{ ...PDF, bytes: new TextEncoder().encode(`%PDF-1.4 ${title}`).buffer as ArrayBuffer }],
    });
  }
}

const statValue = (label: string) => screen.getByText(label).nextElementSibling;
const detail = (section: HTMLElement, term: string) => within(section).getByText(term).nextElementSibling;

describe('Patient dashboard', () => {
  it('welcomes the patient with the block height and shows the four stat cards', async () => {
    renderApp('/patient/dashboard', { signedInAs: 'patient-1' });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
    expect(screen.getByText(/Blocks in the records chain:/)).toHaveTextContent('Blocks in the records chain: 1');
    expect(screen.queryByText(/block height/i)).not.toBeInTheDocument(); // a patient's words, not the chain's jargon
    expect(statValue('Total Records')).toHaveTextContent(/^1$/); // the genesis assessment
    expect(statValue('Last Upload')).toHaveTextContent(/^None$/);
    expect(statValue('Next Appointment')).toHaveTextContent(/^Feb 15$/);
    expect(statValue('Health Score')).toHaveTextContent(/^92%$/);
  });

  it('shows the health overview from the user list and the chain status from the worker', async () => {
    renderApp('/patient/dashboard', { signedInAs: 'patient-1' });
    const health = await screen.findByRole('region', { name: 'Health Overview' });
    expect(detail(health, 'Blood Type')).toHaveTextContent('O+');
    expect(detail(health, 'Gender')).toHaveTextContent('Female');
    expect(detail(health, 'Allergies')).toHaveTextContent('Penicillin, Peanuts');
    expect(detail(health, 'Emergency Contact')).toHaveTextContent('Mark Johnson (spouse) +1 555 0142');
    const chain = screen.getByRole('region', { name: 'Blockchain Status' });
    expect(detail(chain, 'Total Blocks')).toHaveTextContent(/^1$/);
    expect(detail(chain, 'Chain Status')).toHaveTextContent(/^Valid$/);
    expect(detail(chain, 'Network')).toHaveTextContent('Active');
  });

  it('lists the 5 newest records, newest first, counts all of them and shows the real last upload date', async () => {
    const ledger = openLedger();
    await uploadAs(ledger, ['R1', 'R2', 'R3', 'R4', 'R5', 'R6']);
    renderApp('/patient/dashboard', { ledger, signedInAs: 'patient-1' });
    const recent = await screen.findByRole('region', { name: 'Recent Medical Records' });
    const titles = within(recent)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.record-title')?.textContent);
    expect(titles).toEqual(['R6', 'R5', 'R4', 'R3', 'R2']);
    expect(statValue('Total Records')).toHaveTextContent(/^7$/);
    const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    expect(statValue('Last Upload')).toHaveTextContent(today);
    const [newest] = (await ledger.service.listRecords('patient-1')).records;
    expect(within(recent).getByText(newest.blockchainHash.slice(0, 8))).toHaveAttribute('title', newest.blockchainHash);
  });

  it('refreshes when the ledger reports a change', async () => {
    const ledger = openLedger();
    renderApp('/patient/dashboard', { ledger, signedInAs: 'patient-1' });
    expect(await screen.findByText(/Blocks in the records chain:/)).toHaveTextContent('Blocks in the records chain: 1');
    await uploadAs(ledger, ['Arrived later']);
    await waitFor(() =>
      expect(screen.getByText(/Blocks in the records chain:/)).toHaveTextContent('Blocks in the records chain: 2'),
    );
    // the height comes from the shared chain status, the list from the overview: two answers, either first
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Recent Medical Records' })).getByText('Arrived later'),
      ).toBeInTheDocument(),
    );
  });
});

describe('Doctor dashboard', () => {
  it('welcomes the doctor with specialization, hospital and licence number and shows the stat cards', async () => {
    renderApp('/doctor/dashboard', { signedInAs: 'doctor-1' });
    expect(await screen.findByRole('heading', { name: 'Welcome, Dr. Emily Carter' })).toBeInTheDocument();
    expect(screen.getByText('Cardiology')).toBeInTheDocument();
    expect(screen.getByText('St. Mary Medical Center')).toBeInTheDocument();
    expect(screen.getByText('License No. MD-CA-482913')).toBeInTheDocument();
    expect(statValue('Total Patients')).toHaveTextContent(/^1$/);
    expect(statValue('Records Today')).toHaveTextContent(/^\d+$/);
    expect(statValue('Appointments')).toHaveTextContent(/^8$/);
    expect(statValue('Emergency Alerts')).toHaveTextContent(/^2$/);
  });

  it('shows recent activity of its own patients, its patient list, the fixed schedule and the chain analytics', async () => {
    const ledger = openLedger();
    await uploadAs(ledger, ['Statin prescription']);
    renderApp('/doctor/dashboard', { ledger, signedInAs: 'doctor-1' });
    const activity = await screen.findByRole('region', { name: 'Recent Patient Activity' });
    expect(within(activity).getByText('Statin prescription')).toBeInTheDocument();
    expect(statValue('Records Today')).toHaveTextContent(/^[1-9]\d*$/);
    const patients = screen.getByRole('region', { name: 'Your Patients' });
    expect(within(patients).getByText('Sarah Johnson')).toBeInTheDocument();
    expect(within(patients).queryByText('Michael Chen')).not.toBeInTheDocument();
    const schedule = screen.getByRole('region', { name: "Today's Schedule" });
    expect(within(schedule).getAllByRole('listitem')).toHaveLength(TODAYS_SCHEDULE.length);
    for (const entry of TODAYS_SCHEDULE) expect(within(schedule).getByText(entry.purpose)).toBeInTheDocument();
    const analytics = screen.getByRole('region', { name: 'Blockchain Analytics' });
    expect(detail(analytics, 'Total Blocks')).toHaveTextContent(/^2$/);
    expect(detail(analytics, 'Chain Integrity')).toHaveTextContent(/^100%$/);
    expect(detail(analytics, 'Difficulty')).toHaveTextContent('2 leading zeros');
  });

  it('shows at most 5 of the recent records', async () => {
    const ledger = openLedger();
    await uploadAs(ledger, ['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    renderApp('/doctor/dashboard', { ledger, signedInAs: 'doctor-1' });
    const activity = await screen.findByRole('region', { name: 'Recent Patient Activity' });
    expect(within(activity).getAllByRole('listitem')).toHaveLength(5);
    expect(within(activity).getAllByRole('listitem')[0]).toHaveTextContent('G');
  });
});

describe('Emergency access notice on the patient dashboard', () => {
  it('tells the patient who opened their records in an emergency until they dismiss it once it has ended', async () => {
    const ledger = openLedger();
    await signInById(ledger.service, 'doctor-1');
    const grant = await ledger.service.requestEmergencyAccess({
      patientId: 'patient-1',
      reason: 'Unconscious in the ER',
      accessLevel: 'full',
      durationMinutes: 15,
    });
    await ledger.service.endEmergencyAccess(grant.id);
    const { user } = renderApp('/patient/dashboard', { ledger, signedInAs: 'patient-1' });
    const notice = await screen.findByRole('alert', { name: 'Emergency access to your records' });
    expect(notice).toHaveTextContent('Dr. Emily Carter');
    expect(notice).toHaveTextContent('full access');
    expect(notice).toHaveTextContent('Reason: Unconscious in the ER');
    await user.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() =>
      expect(screen.queryByRole('alert', { name: 'Emergency access to your records' })).not.toBeInTheDocument(),
    );
  });
});
