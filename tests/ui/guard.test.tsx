import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { renderApp } from './render-app';

describe('Route guard and session', () => {
  it('sends a visitor with no session from a dashboard to the login page', async () => {
    const { location } = renderApp('/patient/dashboard');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('sends a patient who opens a doctor route to the patient dashboard', async () => {
    const { location } = renderApp('/doctor/emergency', { signedInAs: 'patient-1' });
    await waitFor(() => expect(location().pathname).toBe('/patient/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
  });

  it('sends a doctor who opens a patient route to the doctor dashboard', async () => {
    const { location } = renderApp('/patient/upload', { signedInAs: 'doctor-1' });
    await waitFor(() => expect(location().pathname).toBe('/doctor/dashboard'));
  });

  it('ignores a role written into currentUser: the directory role wins', async () => {
    const tampered = JSON.stringify({ id: 'patient-1', role: 'doctor', name: 'Dr. Mallory' });
    const { location } = renderApp('/doctor/dashboard', { signedInAs: 'patient-1', stored: tampered }); // a real session, its entry edited
    await waitFor(() => expect(location().pathname).toBe('/patient/dashboard'));
    const banner = screen.getByRole('banner');
    expect(within(banner).getByText('Sarah Johnson')).toBeInTheDocument();
    expect(within(banner).getByText('Patient')).toBeInTheDocument();
    expect(screen.queryByText('Dr. Mallory')).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('currentUser') ?? '{}')).toMatchObject({ id: 'patient-1', role: 'patient' });
  });

  it('clears a currentUser that is not JSON and shows the login page', async () => {
    const { location } = renderApp('/patient/dashboard', { stored: '{not json' });
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(localStorage.getItem('currentUser')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('signs out a stored id that is not in the user list', async () => {
    const { location } = renderApp('/patient/dashboard', { stored: JSON.stringify({ id: 'patient-999', role: 'patient' }) });
    await waitFor(() => expect(localStorage.getItem('currentUser')).toBeNull());
    await waitFor(() => expect(location().pathname).toBe('/')); // the redirect follows the sign-out in an effect
  });

  it('redirects any other path to /', async () => {
    const { location } = renderApp('/no/such/page');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('sends a signed-in user who opens / to their own dashboard', async () => {
    const { location } = renderApp('/', { signedInAs: 'doctor-2' });
    await waitFor(() => expect(location().pathname).toBe('/doctor/dashboard'));
  });

  it('logs out: clears currentUser, signs the ledger out and returns to /', async () => {
    const { location, user, ledger } = renderApp('/patient/dashboard', { signedInAs: 'patient-1' });
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(localStorage.getItem('currentUser')).toBeNull();
    await expect(ledger.proxy.patientOverview()).rejects.toMatchObject({ name: 'AccessDeniedError' });
  });
});

describe('Session across tabs', () => {
  it('follows a logout in another tab back to the login page', async () => {
    const { location } = renderApp('/patient/dashboard', { signedInAs: 'patient-1' });
    await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' });
    localStorage.removeItem('currentUser'); // what the other tab did
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'currentUser', newValue: null }));
    });
    await waitFor(() => expect(location().pathname).toBe('/'));
  });

  it("puts focus on the dashboard's heading after sign-in, not on the page body", async () => {
    const { user } = renderApp('/');
    await user.type(await screen.findByLabelText('Email'), DEMO_ACCOUNTS.patient); // once the login screen's code is in
    await user.type(screen.getByLabelText('Password'), DEMO_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const heading = await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson', level: 1 });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it("moves focus to the new screen's heading after a menu link is used", async () => {
    const { user } = renderApp('/patient/dashboard', { signedInAs: 'patient-1' });
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    await user.click(within(menu).getByRole('link', { name: 'Upload Documents' }));
    const heading = await screen.findByRole('heading', { name: 'Upload Medical Documents', level: 1 });
    await waitFor(() => expect(heading).toHaveFocus());
  });
});

describe('Shared layout', () => {
  it('shows the product name, Blockchain Secured, the user and the patient menu with the exact labels', async () => {
    renderApp('/patient/dashboard', { signedInAs: 'patient-1' });
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByText('MedLedger')).toBeInTheDocument();
    expect(within(banner).getByText('Blockchain Secured')).toBeInTheDocument();
    expect(within(banner).getByText('Sarah Johnson')).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'My Profile', 'Medical Records', 'Upload Documents', 'Sharing', 'Blockchain Explorer']);
    expect(screen.getByText('Network Active')).toBeInTheDocument();
  });

  it('shows the doctor menu with the exact labels', async () => {
    renderApp('/doctor/dashboard', { signedInAs: 'doctor-1' });
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '/doctor/dashboard',
      '/doctor/profile',
      '/doctor/patients',
      '/doctor/emergency',
      '/doctor/blockchain',
      '/doctor/mining-lab',
    ]);
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'My Profile', 'My Patients', 'SOS Emergency', 'Blockchain Explorer', 'Mining Lab']);
  });

  it.each([
    ['patient-1', '/patient/profile', 'My Profile', 'Health Details'],
    ['patient-1', '/patient/records', 'Medical Records', 'Your Records'],
    ['doctor-1', '/doctor/profile', 'My Profile', 'Professional Details'],
    ['doctor-1', '/doctor/patients', 'My Patients', 'Sarah Johnson'],
  ])('as %s, %s shows the real screen that replaced the placeholder', async (id, route, heading, section) => {
    renderApp(route, { signedInAs: id });
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: section })).toBeInTheDocument();
    expect(screen.queryByText(/coming soon/)).not.toBeInTheDocument();
  });

  it('shows the block height and validity from the worker in the Network Active box', async () => {
    renderApp('/patient/profile', { signedInAs: 'patient-1' });
    const box = await screen.findByRole('region', { name: 'Network status' });
    await waitFor(() => expect(within(box).getByText('Valid')).toBeInTheDocument());
    expect(within(box).getByText('Blocks').nextSibling).toHaveTextContent(/^1$/);
  });
});
