import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../workers/core/errors';
import { createClock } from '../support/ledger-fixtures';
import { openLedger, renderApp } from './render-app';
import { PDF_TEXT, captureBlobs, seedRecords } from './record-seeds';

let capture: ReturnType<typeof captureBlobs> | null = null;
afterEach(() => {
  capture?.restore();
  capture = null;
});

const titles = (section: HTMLElement) =>
  within(section)
    .queryAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent);

// patient-2 (not doctor-1's) with seven uploads; doctor-1 asks for access through the SOS form.
async function grantedView(accessLevel: 'basic' | 'full') {
  const clock = createClock(Date.now()); // the worker's clock; the countdown keeps the real one
  const ledger = openLedger({ now: clock.now });
  await seedRecords(
    ledger.service,
    'patient-2',
    ['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7'].map((title) => ({ title })),
  );
  const view = renderApp('/doctor/emergency', { ledger, signedInAs: 'doctor-1' });
  await view.user.click(await screen.findByRole('radio', { name: /Michael Chen/ }));
  await view.user.type(screen.getByLabelText('Reason for emergency access'), 'Collapsed in clinic');
  if (accessLevel === 'full') await view.user.click(screen.getByRole('radio', { name: /Full/ }));
  await view.user.selectOptions(screen.getByLabelText('Duration'), '15');
  await view.user.click(screen.getByRole('button', { name: /Grant Emergency Access/ }));
  await screen.findByRole('region', { name: 'Emergency Access Active' });
  return { ...view, clock };
}

describe('SOS active panel: what the grant allows', { timeout: 15_000 }, () => {
  it('basic access shows the profile, health overview and the 5 newest records, without their files', async () => {
    await grantedView('basic');
    const profile = await screen.findByRole('region', { name: 'Patient Profile' });
    expect(within(profile).getByText('Blood Type').nextElementSibling).toHaveTextContent('A-');
    expect(within(profile).getByText('Allergies').nextElementSibling).toHaveTextContent('Latex');
    const recent = screen.getByRole('region', { name: 'Recent Records' });
    expect(titles(recent)).toEqual(['R7', 'R6', 'R5', 'R4', 'R3']);
    expect(within(recent).getAllByText('1 file: documents need full access.')).toHaveLength(5);
    expect(within(recent).queryByRole('button', { name: /Open|Download/ })).not.toBeInTheDocument();
  });

  it('full access shows the complete history and its files open with the uploaded bytes', async () => {
    capture = captureBlobs();
    const { user } = await grantedView('full');
    const history = await screen.findByRole('region', { name: 'Complete History' });
    expect(titles(history)).toEqual(['R7', 'R6', 'R5', 'R4', 'R3', 'R2', 'R1']);
    await user.click(within(history).getByRole('button', { name: 'Download r1.pdf' }));
    await waitFor(() => expect(capture?.downloads.map((download) => download.name)).toEqual(['r1.pdf']));
    expect(await capture.text(0)).toBe(PDF_TEXT);
  });

  it('once the worker clock passes the expiry a read is refused with the access denied message', async () => {
    capture = captureBlobs();
    const { user, clock } = await grantedView('full');
    const history = await screen.findByRole('region', { name: 'Complete History' });
    clock.advance(15 * 60_000 + 1); // the worker's clock only: the page still shows the panel
    await user.click(within(history).getByRole('button', { name: 'Download r7.pdf' }));
    // the refused read, then the refreshed view: both say access is denied, and no bytes arrive
    expect((await screen.findAllByText(MESSAGES.accessDenied)).length).toBeGreaterThan(0);
    expect(capture.blobs).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Complete History' })).not.toBeInTheDocument());
  });

  it('replaces what was shown with the access denied message when the grant ends elsewhere', async () => {
    const { ledger } = await grantedView('basic');
    await screen.findByRole('region', { name: 'Recent Records' });
    const [grant] = await ledger.service.activeGrants();
    await ledger.service.endEmergencyAccess(grant.id); // another tab of the same doctor
    expect(await screen.findByText(MESSAGES.accessDenied)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Recent Records' })).not.toBeInTheDocument();
    expect(screen.queryByText('R7')).not.toBeInTheDocument();
  });
});
