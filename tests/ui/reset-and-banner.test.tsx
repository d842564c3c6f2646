import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestLedgerService } from '../support/test-ledger';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { openLedger, renderApp } from './render-app';
import { seedRecords } from './record-seeds';
import { signInById } from '../support/ledger-fixtures';

const blocks = () => within(screen.getByRole('region', { name: 'Network status' })).getByText('Blocks').nextElementSibling;

describe('Reset demo data', { timeout: 15_000 }, () => {
  it('asks first; Cancel keeps everything, confirming starts a fresh chain and goes to the dashboard', async () => {
    const ledger = openLedger();
    await seedRecords(ledger.service, 'patient-1', [{ title: 'Kept until reset' }]);
    const { user, location } = renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    expect(await screen.findByRole('heading', { name: 'Kept until reset' })).toBeInTheDocument();
    await waitFor(() => expect(blocks()).toHaveTextContent(/^2$/));

    await user.click(screen.getByRole('button', { name: 'Reset demo data' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reset demo data?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect((await ledger.service.chainStatus()).height).toBe(2);

    await user.click(screen.getByRole('button', { name: 'Reset demo data' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset demo data?' });
    const confirm = within(dialog).getByRole('button', { name: 'Reset demo data' });
    await waitFor(() => expect(confirm).toBeEnabled()); // once the worker said this user may reset
    await user.click(confirm);
    await waitFor(() => expect(location().pathname).toBe('/patient/dashboard'));
    await waitFor(() => expect(blocks()).toHaveTextContent(/^1$/));
    expect((await ledger.service.listRecords('patient-1')).records.map((record) => record.title)).toEqual([
      'Initial health assessment',
    ]);
  });

  it('says why a reset is refused when it would erase what someone else wrote, and offers no way to do it', async () => {
    const ledger = openLedger();
    await seedRecords(ledger.service, 'patient-1', [{ title: 'Sarah’s record' }]);
    await signInById(ledger.service, 'doctor-1');
    await ledger.service.requestEmergencyAccess({
      patientId: 'patient-1',
      reason: 'Chest pain',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    const { user } = renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    await user.click(await screen.findByRole('button', { name: 'Reset demo data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset demo data?' });
    expect(await within(dialog).findByText(/written by Dr\. Emily Carter/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Reset demo data' })).toBeDisabled();
    expect((await ledger.service.listRecords('patient-1')).records.map((record) => record.title)).toContain('Sarah’s record');
  });
});

describe('Read-only banner', () => {
  it('names the block and the failed check when the stored chain fails verification', async () => {
    const storage = createMemoryStorage();
    const writer = createTestLedgerService({ storage });
    await seedRecords(writer, 'patient-1', [{ title: 'First' }, { title: 'Second' }]);
    const [stored] = (await storage.load()).blocks.slice(2);
    await storage.commit({ blocks: [{ ...stored, data: { ...stored.data, title: 'Forged' } }] }); // changed at rest

    const ledger = openLedger({ storage });
    await signInById(ledger.service, 'patient-1');
    const { firstInvalid } = await ledger.service.chainStatus();
    expect(firstInvalid?.index).toBe(2);

    renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const banner = await screen.findByRole('status', { name: 'The stored chain failed verification: MedLedger is read-only' });
    expect(banner).toHaveTextContent(`Block #2 failed a check: ${firstInvalid?.reason}.`);
    expect(banner).toHaveTextContent('Blocks #0 to #1 verified and can be read.');
    expect(banner).toHaveTextContent('Uploads, deletions and emergency access are turned off.');
    // what verified is still listed; the forged block is not
    expect(await screen.findByRole('heading', { name: 'First' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Forged' })).not.toBeInTheDocument();
  });

  it('names a stored key that no block names, as a stored item', async () => {
    const storage = createMemoryStorage();
    const writer = createTestLedgerService({ storage });
    await seedRecords(writer, 'patient-1', [{ title: 'First' }]);
    await storage.commit({ documents: [{ id: 'planted', encryptionKey: 'a'.repeat(64) }] }); // beside the chain, named by no block

    renderApp('/patient/records', { ledger: openLedger({ storage }), signedInAs: 'patient-1' });
    const banner = await screen.findByRole('status', { name: 'The stored chain failed verification: MedLedger is read-only' });
    expect(banner).toHaveTextContent('Stored document key planted failed a check: no block names it as a stored file.');
    expect(banner).toHaveTextContent('Blocks #0 to #1 verified and can be read.');
    expect(await screen.findByRole('heading', { name: 'First' })).toBeInTheDocument();
  });

  it('is absent while the chain verifies', async () => {
    renderApp('/patient/records', { signedInAs: 'patient-1' });
    await screen.findByRole('heading', { name: 'Initial health assessment' });
    await waitFor(() => expect(blocks()).toHaveTextContent(/^1$/));
    expect(screen.queryByText(/failed verification/)).not.toBeInTheDocument();
  });
});

describe('A stored ledger that cannot be loaded', () => {
  it('offers Reset local data on the sign-in screen, and after it the demo account signs in', async () => {
    // stored data the worker cannot read until a reset clears it, as a damaged database would be
    const inner = createMemoryStorage();
    let damaged = true;
    const storage: LedgerStorage = {
      load: () => (damaged ? Promise.reject(new Error('damaged database')) : inner.load()),
      readMeta: (key) => inner.readMeta(key),
      readContent: (id) => inner.readContent(id),
      commit: async (write) => {
        await inner.commit(write);
        if (write.clear) damaged = false;
      },
    };
    const { user } = renderApp('/', { ledger: openLedger({ storage }) });
    await user.click(await screen.findByRole('button', { name: 'Fill Demo Credentials' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Login failed. Please try again.');
    await user.click(await screen.findByRole('button', { name: 'Reset local data' })); // asks first
    await user.click(screen.getByRole('button', { name: 'Reset local data' }));
    expect(await screen.findByText(/The local data was reset/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: /Welcome back/ })).toBeInTheDocument();
  });
});
