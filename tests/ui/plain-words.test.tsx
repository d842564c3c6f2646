import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GrantedView } from '../../src/components/granted-view';
import { StorageCard } from '../../src/features/profile/storage-card';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { PATIENTS, USERS } from '../../workers/core/directory';
import { createClock, signInById } from '../support/ledger-fixtures';
import { openLedger, renderApp } from './render-app';

const statCard = (label: string) => screen.getByText(label, { selector: '.stat-label' }).closest('.stat-card') as HTMLElement;

afterEach(() => {
  Reflect.deleteProperty(navigator, 'storage');
});

describe('the side menu says where the records live', () => {
  it('says "Alone: this device only" beside Network Active while the device is not connected', async () => {
    renderApp('/patient/dashboard', { signedInAs: 'patient-1' });
    const status = await screen.findByRole('region', { name: 'Network status' });
    expect(status).toHaveTextContent('Network Active');
    expect(await within(status).findByText('Alone: this device only')).toBeInTheDocument();
    const chain = await screen.findByRole('region', { name: 'Blockchain Status' });
    await waitFor(() =>
      expect(within(chain).getByText('Network').nextElementSibling).toHaveTextContent('Active (Alone: this device only)'),
    );
  });
});

describe("the doctor's dashboard keeps sample and real figures apart", () => {
  it('shows the real count of open emergency sessions in its own place, not under the sample Emergency Alerts', async () => {
    renderApp('/doctor/dashboard', { signedInAs: 'doctor-1' });
    await screen.findByRole('heading', { name: 'Welcome, Dr. Emily Carter' });
    const sessions = await screen.findByRole('status', { name: 'Your emergency sessions' });
    await waitFor(() => expect(sessions).toHaveTextContent('No emergency session open now.'));
    expect(within(statCard('Emergency Alerts')).queryByText(/session/)).not.toBeInTheDocument();
  });

  it('links an open emergency session from that line', async () => {
    const ledger = openLedger();
    await signInById(ledger.service, 'doctor-1');
    await ledger.service.requestEmergencyAccess({
      patientId: 'patient-2',
      reason: 'ER',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    renderApp('/doctor/dashboard', { ledger, signedInAs: 'doctor-1' });
    const sessions = await screen.findByRole('status', { name: 'Your emergency sessions' });
    expect(await within(sessions).findByRole('link', { name: '1 emergency session open now' })).toHaveAttribute(
      'href',
      '/doctor/emergency',
    );
  });

  it('names no account of this ledger in the sample schedule', async () => {
    renderApp('/doctor/dashboard', { signedInAs: 'doctor-1' });
    const schedule = await screen.findByRole('region', { name: "Today's Schedule" });
    for (const user of USERS) expect(schedule).not.toHaveTextContent(user.name);
  });

  it('counts in Records Today only the medical records uploaded today, not the setup block or an emergency access', async () => {
    const ledger = openLedger();
    await signInById(ledger.service, 'doctor-1');
    await ledger.service.requestEmergencyAccess({
      patientId: 'patient-1',
      reason: 'Chest pain',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    renderApp('/doctor/dashboard', { ledger, signedInAs: 'doctor-1' });
    await screen.findByRole('heading', { name: 'Welcome, Dr. Emily Carter' });
    await waitFor(() => expect(statCard('Records Today').querySelector('.stat-value')).toHaveTextContent(/^0$/));
  });
});

describe('sign-in lists the demo accounts', () => {
  it('names every demo account with its role and email, and the shared password', async () => {
    renderApp('/');
    const list = await screen.findByRole('region', { name: 'Demo accounts' }); // the login screen's code loads first
    for (const user of USERS) {
      const row = within(list).getByText(user.name).closest('li') as HTMLElement;
      expect(row).toHaveTextContent(user.role === 'patient' ? 'Patient' : 'Doctor');
      expect(row).toHaveTextContent(user.email);
    }
    expect(list).toHaveTextContent(`Password for every account: ${DEMO_PASSWORD}`);
  });
});

describe("a doctor's storage card", () => {
  it('says what a doctor can do instead of asking for a backup they cannot make', async () => {
    const storage = { estimate: vi.fn(async () => ({ usage: 1, quota: 100 })), persisted: vi.fn(async () => false) };
    Object.defineProperty(navigator, 'storage', { value: storage, configurable: true });
    render(<StorageCard role="doctor" />);
    const card = await screen.findByRole('region', { name: 'Storage on This Device' });
    await within(card).findByText('Used');
    expect(card).not.toHaveTextContent(/make a backup/i);
    expect(card).toHaveTextContent("Your patients' records live with your patients");
    expect(card).toHaveTextContent("Your own account's backup is on this page, under Your backup.");
  });
});

describe('small words', () => {
  it('says nothing of "All 0 records" when a full view holds none', () => {
    render(
      <GrantedView patient={PATIENTS[0]} records={[]} documentsReadable accessLevel="full" readNote="Each read is logged." />,
    );
    expect(screen.queryByText(/All 0 records/)).not.toBeInTheDocument();
    expect(screen.getByText('Sarah Johnson has no records yet.')).toBeInTheDocument();
  });

  it('says a session that started and ended in the same minute did so, after less than a minute', async () => {
    const clock = createClock(Date.parse('2026-03-02T20:14:05.000Z'));
    const ledger = openLedger({ now: clock.now });
    await signInById(ledger.service, 'doctor-1');
    const grant = await ledger.service.requestEmergencyAccess({
      patientId: 'patient-1',
      reason: 'Chest pain',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    clock.advance(40_000); // 40 s: once read as "1 min" under two equal times
    await ledger.service.endEmergencyAccess(grant.id);
    renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const history = await screen.findByRole('region', { name: 'Emergency Access History' });
    const item = (await within(history).findByRole('heading', { name: 'Dr. Emily Carter', level: 3 })).closest(
      'li',
    ) as HTMLElement;
    expect(within(item).queryByText('Started', { selector: 'dt' })).not.toBeInTheDocument();
    const when = within(item).getByText('Started and ended', { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(within(when).getByRole('time')).toHaveAttribute('dateTime', grant.createdAt);
    expect(item).toHaveTextContent('Ended by Dr. Emily Carter after less than a minute');
    expect(item).not.toHaveTextContent(/after 1 min/);
  });

  it('shows no "No file chosen" picker: a visible Add files button opens the file input', async () => {
    renderApp('/patient/upload', { signedInAs: 'patient-1' });
    const input = (await screen.findByLabelText('Add files')) as HTMLInputElement;
    expect(input).toHaveClass('visually-hidden');
    expect(screen.getByText('Add files', { selector: 'label' })).toBeVisible();
  });
});
