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
    document.documentElement.classList.remove('prerender-hidden');
    vi.restoreAllMocks();
  });

  it('hydrates the pre-rendered login without a mismatch: the same nodes stay, disabled until React answers them', async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const root = document.createElement('div');
    root.innerHTML = renderLoginHtml();
    document.body.append(root);
    const prerenderedButton = screen.getByRole('button', { name: 'Sign In' });
    expect(prerenderedButton).toBeDisabled(); // painted before the JavaScript: says it cannot be used yet

    mountApp(root, <App router={AtRoot} service={openLedger().proxy} />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Sign In' })).toBe(prerenderedButton);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Fill Demo Credentials' }));
    expect(screen.getByLabelText('Email')).toHaveValue('sarah.johnson@medledger.demo');
    const rendered = (spy: typeof warn) => spy.mock.calls.flat().map(String).join('\n');
    expect(rendered(warn)).not.toMatch(/rendered again|hydrat/i);
    expect(rendered(error)).not.toMatch(/hydrat|did not match/i);
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
