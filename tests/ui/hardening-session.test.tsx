// Issue 5, a tampered currentUser: whatever the entry holds, the app signs out cleanly or corrects it, never crashes.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from './render-app';

describe('a currentUser entry', () => {
  const signedOut = [
    '',
    '{not json',
    'null',
    'true',
    '42',
    '"patient-1"',
    '[]',
    '[{"id":"patient-1"}]',
    '{}',
    '{"id":42,"role":"patient"}',
    '{"id":"","role":"doctor"}',
    '{"id":"__proto__","role":"doctor"}',
    '{"id":"constructor","role":"doctor"}',
    '{"id":"toString"}',
    '{"id":"patient-1 ","role":"patient"}',
    '{"id":"PATIENT-1"}',
    '{"name":"Sarah Johnson","role":"patient","email":"sarah.johnson@medledger.demo"}',
    `{"id":"${'x'.repeat(100_000)}"}`,
  ];

  it.each(signedOut)('%j is signed out: the login page, the entry removed', async (stored) => {
    const { location } = renderApp('/doctor/dashboard', { stored });
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(location().pathname).toBe('/');
    await waitFor(() => expect(localStorage.getItem('currentUser')).toBeNull());
  });

  it('that claims another role and name for a known id is corrected from the user list', async () => {
    const stored = JSON.stringify({ id: 'doctor-2', role: 'patient', name: 'Sarah Johnson', patients: [], email: 'x@y.z' });
    const { location } = renderApp('/patient/upload', { signedInAs: 'doctor-2', stored }); // a real session, its entry edited
    await waitFor(() => expect(location().pathname).toBe('/doctor/dashboard'));
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByText('Doctor')).toBeInTheDocument();
    expect(within(banner).queryByText('Sarah Johnson')).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('currentUser') ?? '{}')).toMatchObject({ id: 'doctor-2', role: 'doctor' });
  });
});
