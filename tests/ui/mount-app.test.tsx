import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/app/app';
import { mountApp } from '../../src/start/mount-app';
import { renderLoginHtml } from '../../src/start/prerender-login';
import { openLedger } from './render-app';

const AtRoot = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={['/']}>{children}</MemoryRouter>;

describe('Mounting the app (src/start/mount-app.tsx)', () => {
  afterEach(() => {
    document.body.replaceChildren();
    document.documentElement.classList.remove('prerender-hidden', 'sign-in-held', 'app-running');
    vi.restoreAllMocks();
  });

  it('hydrates the pre-rendered login without a mismatch: the same nodes stay, keeping what was typed before', async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const root = document.createElement('div');
    root.innerHTML = renderLoginHtml();
    document.body.append(root);
    const prerenderedButton = screen.getByRole('button', { name: 'Sign In' });
    // painted before the JavaScript: the form takes input, Fill Demo Credentials says it waits for the app
    expect(prerenderedButton).toBeEnabled();
    expect(screen.getByLabelText('Email')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Fill Demo Credentials' })).toBeDisabled();
    (screen.getByLabelText('Email') as HTMLInputElement).value = 'typed@medledger.demo';
    (screen.getByRole('radio', { name: /Doctor/ }) as HTMLInputElement).checked = true;

    mountApp(root, <App router={AtRoot} service={openLedger().proxy} />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Fill Demo Credentials' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Sign In' })).toBe(prerenderedButton);
    expect(screen.getByLabelText('Email')).toHaveValue('typed@medledger.demo');
    expect(screen.getByRole('radio', { name: /Doctor/ })).toBeChecked();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Fill Demo Credentials' }));
    expect(screen.getByLabelText('Email')).toHaveValue('emily.carter@medledger.demo'); // the role chosen before
    const rendered = (spy: typeof warn) => spy.mock.calls.flat().map(String).join('\n');
    expect(rendered(warn)).not.toMatch(/rendered again|hydrat/i);
    expect(rendered(error)).not.toMatch(/hydrat|did not match/i);
  });

  it('signs in with the fields of a Sign In held before the app ran, rendering the login afresh', async () => {
    const root = document.createElement('div');
    root.innerHTML = renderLoginHtml();
    document.body.append(root);
    const prerenderedButton = screen.getByRole('button', { name: 'Sign In' });
    (screen.getByLabelText('Email') as HTMLInputElement).value = 'sarah.johnson@medledger.demo';
    (screen.getByLabelText('Password') as HTMLInputElement).value = 'demo123';
    document.documentElement.classList.add('sign-in-held'); // what public/start-app.js does on the submit

    mountApp(root, <App router={AtRoot} service={openLedger().proxy} />);
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
    expect(prerenderedButton).not.toBeInTheDocument();
    expect(document.documentElement).not.toHaveClass('sign-in-held');
  });

  it('shows why a held Sign In failed, with its fields kept', async () => {
    const root = document.createElement('div');
    root.innerHTML = renderLoginHtml();
    document.body.append(root);
    (screen.getByLabelText('Email') as HTMLInputElement).value = 'sarah.johnson@medledger.demo';
    (screen.getByLabelText('Password') as HTMLInputElement).value = 'wrong-password';
    document.documentElement.classList.add('sign-in-held');

    mountApp(root, <App router={AtRoot} service={openLedger().proxy} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid email or password$/);
    expect(screen.getByLabelText('Email')).toHaveValue('sarah.johnson@medledger.demo');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('renders afresh where the pre-rendered login is not the first screen, and shows #root again', async () => {
    document.documentElement.classList.add('prerender-hidden');
    const root = document.createElement('div');
    root.innerHTML = renderLoginHtml();
    document.body.append(root);
    const prerenderedButton = screen.getByRole('button', { name: 'Sign In' });
    mountApp(root, <h1>Dashboard</h1>);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(prerenderedButton).not.toBeInTheDocument();
    expect(document.documentElement).not.toHaveClass('prerender-hidden');
  });
});
