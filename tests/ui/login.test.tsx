import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RESTORED_NOTICE, SERVER_LEDGER_NOTICE, leaveSignInNotice, peekSignInNotice } from '../../src/components/sign-in-notice';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { deferred, openLedger, renderApp, withOverrides } from './render-app';

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

// The login screen is code-split like the others: its form is there once its code has loaded.
async function renderLogin() {
  const rendered = renderApp('/');
  await screen.findByRole('button', { name: 'Sign In' });
  return rendered;
}

describe('Login', () => {
  it('has a required email field of email type and a required password field', async () => {
    await renderLogin();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('region', { name: 'Demo accounts' })).toHaveTextContent(
      `Password for every account: ${DEMO_PASSWORD}`,
    );
  });

  it('does not sign in while the email or the password is missing', async () => {
    const { user, location } = await renderLogin();
    await user.type(screen.getByLabelText('Email'), DEMO_ACCOUNTS.patient);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(location().pathname).toBe('/');
    expect(localStorage.getItem('currentUser')).toBeNull();
  });

  it('says why the user was signed out when a restore left a word, through a remount, until the next sign-in', async () => {
    leaveSignInNotice(RESTORED_NOTICE);
    const first = await renderLogin();
    expect(screen.getByRole('status')).toHaveTextContent(RESTORED_NOTICE);
    first.unmount();
    const { user } = await renderLogin();
    expect(screen.getByRole('status')).toHaveTextContent(RESTORED_NOTICE); // a second render does not lose it
    await fillAndSubmit(user, DEMO_ACCOUNTS.patient, DEMO_PASSWORD);
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(peekSignInNotice()).toBeNull();
  });

  it('shows a word left after the login screen rendered, as when the worker signs the user out on Connect', async () => {
    await renderLogin();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    act(() => leaveSignInNotice(SERVER_LEDGER_NOTICE));
    expect(await screen.findByRole('status')).toHaveTextContent(SERVER_LEDGER_NOTICE);
  });

  it('says "Invalid email or password" for a wrong password and moves focus to the message', async () => {
    const { user } = await renderLogin();
    await fillAndSubmit(user, DEMO_ACCOUNTS.patient, 'wrong-password');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^Invalid email or password$/);
    expect(alert).toHaveFocus();
  });

  it('says "Invalid email or password" for an unknown email', async () => {
    const { user } = await renderLogin();
    await fillAndSubmit(user, 'nobody@medledger.demo', DEMO_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid email or password$/);
  });

  it('names the registered role when the toggle does not match the account', async () => {
    const { user } = await renderLogin();
    await fillAndSubmit(user, DEMO_ACCOUNTS.doctor, DEMO_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Please select the correct user type\. This account is registered as a doctor\.$/,
    );
  });

  it('says "Login failed. Please try again." when the ledger fails unexpectedly', async () => {
    const ledger = openLedger();
    const proxy = withOverrides(ledger.proxy, {
      signIn: () => Promise.reject(new TypeError('port closed')),
    });
    const { user } = renderApp('/', { ledger, proxy });
    await fillAndSubmit(user, DEMO_ACCOUNTS.patient, DEMO_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Login failed\. Please try again\.$/);
  });

  it('reads "Signing in..." and is disabled while the sign-in is pending', async () => {
    const ledger = openLedger();
    const pending = deferred<never>();
    const proxy = withOverrides(ledger.proxy, { signIn: () => pending.promise });
    const { user } = renderApp('/', { ledger, proxy });
    await fillAndSubmit(user, DEMO_ACCOUNTS.patient, DEMO_PASSWORD);
    expect(screen.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    pending.reject(new Error('stop'));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('fills the demo credentials of the chosen role', async () => {
    const { user } = await renderLogin();
    await user.click(screen.getByRole('button', { name: 'Fill Demo Credentials' }));
    expect(screen.getByLabelText('Email')).toHaveValue(DEMO_ACCOUNTS.patient);
    expect(screen.getByLabelText('Password')).toHaveValue(DEMO_PASSWORD);
    await user.click(screen.getByRole('radio', { name: /Doctor/ }));
    await user.click(screen.getByRole('button', { name: 'Fill Demo Credentials' }));
    expect(screen.getByLabelText('Email')).toHaveValue(DEMO_ACCOUNTS.doctor);
  });

  it('sends a patient to /patient/dashboard and keeps the user in currentUser', async () => {
    const { user, location } = await renderLogin();
    await user.click(screen.getByRole('button', { name: 'Fill Demo Credentials' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(location().pathname).toBe('/patient/dashboard'));
    expect(JSON.parse(localStorage.getItem('currentUser') ?? '{}')).toMatchObject({ id: 'patient-1', role: 'patient' });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
  });

  it('sends a doctor to /doctor/dashboard', async () => {
    const { user, location } = await renderLogin();
    await user.click(screen.getByRole('radio', { name: /Doctor/ }));
    await user.click(screen.getByRole('button', { name: 'Fill Demo Credentials' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(location().pathname).toBe('/doctor/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Welcome, Dr. Emily Carter' })).toBeInTheDocument();
  });
});
