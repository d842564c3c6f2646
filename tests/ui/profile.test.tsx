import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from './render-app';

function fields(section: HTMLElement): Record<string, string> {
  return Object.fromEntries(
    within(section)
      .getAllByRole('term')
      .map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']),
  );
}

describe('My Profile', () => {
  it('shows every field the user list holds for a patient, read-only', async () => {
    renderApp('/patient/profile', { signedInAs: 'patient-1' });
    expect(await screen.findByRole('heading', { name: 'My Profile', level: 1 })).toBeInTheDocument();
    expect(fields(screen.getByRole('region', { name: 'Account' }))).toEqual({
      Name: 'Sarah Johnson',
      Email: 'sarah.johnson@medledger.demo',
      Role: 'Patient',
      'Patient ID': 'patient-1',
      'Member Since': 'Jan 15, 2025',
    });
    expect(fields(screen.getByRole('region', { name: 'Health Details' }))).toEqual({
      'Date of Birth': 'Apr 12, 1988',
      Gender: 'Female',
      'Blood Type': 'O+',
      Allergies: 'Penicillin, Peanuts',
      'Emergency Contact': 'Mark Johnson (spouse) +1 555 0142',
      Doctor: 'Dr. Emily Carter',
    });
    // the profile's own fields cannot be typed in (the sync card's server address and device name are not profile fields)
    for (const name of ['Account', 'Health Details']) {
      expect(within(screen.getByRole('region', { name })).queryByRole('textbox')).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: /save|edit/i })).not.toBeInTheDocument();
  });

  it('lets the email address wrap only after its "@" or before a dot, never mid-word', async () => {
    renderApp('/patient/profile', { signedInAs: 'patient-1' });
    const account = await screen.findByRole('region', { name: 'Account' });
    const email = within(account).getByText('Email', { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(email).toHaveTextContent(/^sarah\.johnson@medledger\.demo$/); // copied whole, with no hidden characters
    // each <wbr> is a break opportunity: the pieces between them are whole words
    const pieces = email.innerHTML.replace(/<\/?span[^>]*>/g, '').split('<wbr>');
    expect(pieces).toEqual(['sarah', '.johnson@', 'medledger', '.demo']);
  });

  it('shows a doctor their specialization, licence number, hospital and patients by name', async () => {
    renderApp('/doctor/profile', { signedInAs: 'doctor-2' });
    const account = await screen.findByRole('region', { name: 'Account' });
    expect(fields(account)).toMatchObject({ Name: 'Dr. James Wilson', Role: 'Doctor', 'User ID': 'doctor-2' });
    const professional = screen.getByRole('region', { name: 'Professional Details' });
    expect(fields(professional)).toEqual({
      Specialization: 'Emergency Medicine',
      'License Number': 'MD-NY-771045',
      Hospital: 'City General Hospital',
      Patients: 'Michael Chen',
    });
    expect(screen.queryByRole('region', { name: 'Health Details' })).not.toBeInTheDocument();
  });

  it('offers a doctor their own backup and its restore, and no backup of the whole browser', async () => {
    renderApp('/doctor/profile', { signedInAs: 'doctor-1' });
    const backup = await screen.findByRole('region', { name: 'Your backup' });
    expect(within(backup).getByRole('button', { name: 'Download my backup' })).toBeEnabled();
    expect(within(backup).getByRole('button', { name: 'Restore backup' })).toBeEnabled();
    expect(within(backup).queryByRole('button', { name: 'Back up this whole browser' })).not.toBeInTheDocument();
  });

  it("leaves a patient's backup to Medical Records", async () => {
    renderApp('/patient/profile', { signedInAs: 'patient-1' });
    await screen.findByRole('region', { name: 'Account' });
    expect(screen.queryByRole('region', { name: 'Your backup' })).not.toBeInTheDocument();
  });
});
