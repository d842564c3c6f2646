import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createLedgerBackend } from '../../workers/service';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { writeClearUpload } from '../support/clear-upload';
import { SARAH, signInAs } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';
import { openLedger, renderApp } from './render-app';

// A ledger of an earlier version: one upload of Sarah's stored with its text in clear.
async function storageWithClearUpload() {
  const storage = createMemoryStorage();
  const backend = createLedgerBackend(testDeps({ storage }));
  await signInAs(backend.service, SARAH);
  await writeClearUpload(backend.store, SARAH, { title: 'Old blood test', fileName: 'old.pdf' });
  return storage;
}

describe('records written in clear before sealing', () => {
  it('are offered to the patient to seal, and once sealed the offer says what happened and goes', async () => {
    const ledger = openLedger({ storage: await storageWithClearUpload() });
    const { user } = renderApp('/patient/records', { ledger, signedInAs: SARAH.id });
    expect(await screen.findByText(/1 of your records was written before MedLedger sealed record text/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Seal them' }));
    expect(await screen.findByText(/Sealed 1 record: their text now travels sealed/)).toHaveAttribute('role', 'status');
    await waitFor(() => expect(ledger.service.clearRecordCount()).resolves.toBe(0));
    await user.click(screen.getByRole('button', { name: 'Close alert' }));
    expect(screen.queryByRole('button', { name: 'Seal them' })).not.toBeInTheDocument();
  });

  it('are not mentioned on a ledger whose records were all sealed when written', async () => {
    const ledger = openLedger();
    renderApp('/patient/records', { ledger, signedInAs: SARAH.id });
    expect(await screen.findByRole('heading', { name: 'Initial health assessment' })).toBeInTheDocument();
    expect(await ledger.service.clearRecordCount()).toBe(0);
    expect(screen.queryByText(/written before MedLedger sealed/)).not.toBeInTheDocument();
  });
});
