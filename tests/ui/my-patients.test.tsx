import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTime } from '../../src/components/format';
import { signInById } from '../support/ledger-fixtures';
import { openLedger, renderApp } from './render-app';
import { PDF_TEXT, captureBlobs, seedRecords } from './record-seeds';

let capture: ReturnType<typeof captureBlobs> | null = null;
afterEach(() => {
  capture?.restore();
  capture = null;
});

const detail = (scope: HTMLElement, term: string) => within(scope).getByText(term, { selector: 'dt' }).nextElementSibling;

describe('My Patients', () => {
  it("shows each of the doctor's own patients with health overview and records, and only those", async () => {
    const ledger = openLedger();
    await seedRecords(ledger.service, 'patient-1', [{ title: 'Holter monitor report' }]);
    await seedRecords(ledger.service, 'patient-2', [{ title: 'Not my patient' }]);
    renderApp('/doctor/patients', { ledger, signedInAs: 'doctor-1' });
    const card = await screen.findByRole('region', { name: 'Sarah Johnson' });
    expect(detail(card, 'Blood Type')).toHaveTextContent('O+');
    expect(detail(card, 'Allergies')).toHaveTextContent('Penicillin, Peanuts');
    expect(detail(card, 'Emergency Contact')).toHaveTextContent('Mark Johnson (spouse) +1 555 0142');
    expect(await within(card).findByRole('heading', { name: 'Holter monitor report' })).toBeInTheDocument();
    expect(within(card).getByRole('heading', { name: 'Initial health assessment' })).toBeInTheDocument();
    expect(within(card).getByRole('heading', { name: /^Records/ })).toHaveTextContent('Records (2)');
    expect(screen.queryByRole('region', { name: 'Michael Chen' })).not.toBeInTheDocument();
    expect(screen.queryByText('Not my patient')).not.toBeInTheDocument();
  });

  it('opens a document of a record where the doctor is the doctor, with the bytes the patient uploaded', async () => {
    capture = captureBlobs();
    const ledger = openLedger();
    await seedRecords(ledger.service, 'patient-1', [{ title: 'Echo' }]);
    const { user } = renderApp('/doctor/patients', { ledger, signedInAs: 'doctor-1' });
    const card = await screen.findByRole('region', { name: 'Sarah Johnson' });
    await user.click(await within(card).findByRole('button', { name: 'Download echo.pdf' }));
    await waitFor(() => expect(capture?.downloads.map((download) => download.name)).toEqual(['echo.pdf']));
    expect(await capture.text(0)).toBe(PDF_TEXT);
    expect(within(card).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('offers other patients only an Emergency access shortcut that opens SOS with the patient selected', async () => {
    const { user } = renderApp('/doctor/patients', { signedInAs: 'doctor-1' });
    const others = await screen.findByRole('region', { name: 'Other Patients' });
    const link = within(others).getByRole('link', { name: 'Emergency access for Michael Chen' });
    expect(link).toHaveAttribute('href', '/doctor/emergency?patient=patient-2');
    expect(within(others).queryByText('Sarah Johnson')).not.toBeInTheDocument();
    await user.click(link);
    expect(await screen.findByRole('heading', { name: 'SOS Emergency Access', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: /Michael Chen/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Sarah Johnson/ })).not.toBeChecked();
  });

  it('marks an open emergency session under Other Patients and links to it instead of a new one', async () => {
    const ledger = openLedger();
    await signInById(ledger.service, 'doctor-1');
    const grant = await ledger.service.requestEmergencyAccess({
      patientId: 'patient-2',
      reason: 'Collapsed in clinic',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    const { user } = renderApp('/doctor/patients', { ledger, signedInAs: 'doctor-1' });
    const others = await screen.findByRole('region', { name: 'Other Patients' });
    const until = formatTime(grant.expiresAt);
    expect(await within(others).findByText(`Emergency session open until ${until}`)).toBeInTheDocument();
    expect(within(others).queryByRole('link', { name: 'Emergency access for Michael Chen' })).not.toBeInTheDocument();
    await user.click(within(others).getByRole('link', { name: 'Open session for Michael Chen' }));
    expect(await screen.findByRole('region', { name: 'Emergency Access Active' })).toBeInTheDocument();
  });
});
