// A returning user's first screen asked for before React renders, and a screen shown again from its kept answer:
// neither shows a spinner, neither shows what a change made old, and no answer reaches another user.
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/app/app';
import { ledgerChanges } from '../../src/ledger/ledger-changes';
import type { LedgerConnection } from '../../src/ledger/ledger-worker';
import { versionOf } from '../../src/ledger/ledger-versions';
import { PATIENT_OVERVIEW } from '../../src/ledger/shared-queries';
import { askFirstData } from '../../src/start/first-data';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { MICHAEL, SARAH, signInAs, uploadOf } from '../support/ledger-fixtures';
import { memoryRouterAt, openLedger, renderApp, withOverrides } from './render-app';

const statValue = (label: string) => screen.getByText(label).nextElementSibling;

// Every text the page ever showed, so a test can say what never appeared.
function watchTexts() {
  const seen = new Set<string>();
  const note = () => seen.add(document.body.textContent ?? '');
  const observer = new MutationObserver(note);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  return { ever: (text: RegExp) => [...seen].some((shown) => text.test(shown)), stop: () => observer.disconnect() };
}

// A connection as src/ledger/ledger-worker.ts makes one, over the test's ledger, its calls counted.
function connectionOver(service: ReturnType<typeof openLedger>['proxy']) {
  const calls: string[] = [];
  const counted = withOverrides(service, {
    resumeSession: (id: string) => (calls.push('resumeSession'), service.resumeSession(id)),
    patientOverview: () => (calls.push('patientOverview'), service.patientOverview()),
  });
  const changes = ledgerChanges(counted);
  const stop = changes.follow();
  const connection: LedgerConnection = {
    service: counted,
    changes,
    failure: () => null,
    onFailure: () => () => undefined,
    fail: () => undefined,
    close: stop,
  };
  return { connection, calls };
}

describe('answers asked for early and kept', () => {
  it("shows a returning patient's dashboard with its data at once when it was asked for before React rendered", async () => {
    const ledger = openLedger();
    await signInAs(ledger.service, SARAH); // the stored session of an earlier visit
    localStorage.setItem('currentUser', JSON.stringify({ id: SARAH.id }));
    const { connection, calls } = connectionOver(ledger.proxy);
    askFirstData(connection, SARAH.id, [PATIENT_OVERVIEW]);
    const version = versionOf(connection.changes!.versions.versions(), PATIENT_OVERVIEW.kinds);
    await waitFor(() => expect(connection.changes!.answers.settled(PATIENT_OVERVIEW.key, version)).toBeDefined());
    const texts = watchTexts();
    const { router } = memoryRouterAt('/patient/dashboard');
    render(<App router={router} connect={() => connection} />);
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
    expect(statValue('Total Records')).toHaveTextContent(/^1$/);
    // asked again behind the shown answer (it may depend on the time), the same answer renders nothing new
    await waitFor(() => expect(calls.filter((call) => call === 'patientOverview')).toHaveLength(2));
    texts.stop();
    expect(calls.filter((call) => call === 'resumeSession')).toHaveLength(1); // the session provider took the early one
    expect(texts.ever(/Loading your dashboard|Restoring your session/)).toBe(false);
    connection.close();
  });

  it('shows a screen again from its kept answer, with no spinner, and asks again behind it', async () => {
    const ledger = openLedger();
    const { user } = renderApp('/patient/dashboard', { ledger, signedInAs: SARAH.id });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'My Profile' }));
    expect(await screen.findByRole('heading', { name: 'My Profile' })).toBeInTheDocument();
    const texts = watchTexts();
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
    expect(statValue('Total Records')).toHaveTextContent(/^1$/);
    texts.stop();
    expect(texts.ever(/Loading your dashboard/)).toBe(false);
  });

  it('does not show a kept answer that a change made old', async () => {
    const ledger = openLedger();
    const { user } = renderApp('/patient/dashboard', { ledger, signedInAs: SARAH.id });
    expect(await screen.findByText('Total Records')).toBeInTheDocument();
    await waitFor(() => expect(statValue('Total Records')).toHaveTextContent(/^1$/));
    await user.click(screen.getByRole('link', { name: 'My Profile' }));
    expect(await screen.findByRole('heading', { name: 'My Profile' })).toBeInTheDocument();
    await act(async () => void (await ledger.service.upload(uploadOf('Blood panel')))); // this tab's worker, a change notice
    const texts = watchTexts();
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(statValue('Total Records')).toHaveTextContent(/^2$/));
    texts.stop();
    expect(texts.ever(/Total Records\s*1(?!\d)/)).toBe(false);
  });

  it("never shows one user's kept answer to the next user of the browser", async () => {
    const ledger = openLedger();
    const { user } = renderApp('/patient/dashboard', { ledger, signedInAs: SARAH.id });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sarah Johnson' })).toBeInTheDocument();
    await act(async () => void (await ledger.service.upload(uploadOf('Blood panel')))); // Sarah has 2 records now
    await waitFor(() => expect(statValue('Total Records')).toHaveTextContent(/^2$/));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await user.type(await screen.findByLabelText('Email'), MICHAEL.email);
    await user.type(screen.getByLabelText('Password'), DEMO_PASSWORD);
    const texts = watchTexts();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back, Michael Chen' })).toBeInTheDocument();
    await waitFor(() => expect(statValue('Total Records')).toHaveTextContent(/^0$/)); // his are on no block of this ledger
    texts.stop();
    // her dashboard, not for a moment (the login before it lists every demo account)
    expect(texts.ever(/Welcome back, Sarah Johnson|Welcome back[\s\S]*Total Records\s*2(?!\d)/)).toBe(false);
  });
});
