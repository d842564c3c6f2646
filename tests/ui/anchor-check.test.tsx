// Check anchor on a records chain that fails verification: the screen never says unchanged, and says where and why.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChainRecord } from '../../workers/core/types';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { SARAH, createClock, signInAs, uploadOf } from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';
import { openLedger, renderApp } from './render-app';

// Sarah's chain of 4 uploads and an anchor of it; then block 3's title is edited at rest, its hash kept.
async function anchoredThenEdited() {
  const storage = createMemoryStorage();
  const clock = createClock();
  const service = createTestLedgerService({ storage, now: clock.now });
  await signInAs(service, SARAH);
  for (let i = 1; i <= 4; i++) {
    clock.advance(60_000);
    await service.upload(uploadOf(`Report ${i}`));
  }
  const anchor = JSON.stringify(await service.saveAnchor());
  const { blocks } = await storage.load();
  await storage.commit({ blocks: [{ ...blocks[3], data: { ...blocks[3].data, title: 'Edited at rest' } as ChainRecord }] });
  return { storage, clock, anchor };
}

describe('check anchor on a chain that fails verification', () => {
  it('says the chain is not verified from the edited block, with the reason, and never unchanged', async () => {
    const { storage, clock, anchor } = await anchoredThenEdited();
    const { user } = renderApp('/patient/blockchain', {
      ledger: openLedger({ storage, now: clock.now }),
      signedInAs: 'patient-1',
    });
    await user.click(await screen.findByRole('tab', { name: 'Anchor' }));
    await user.click(screen.getByLabelText("Or paste the anchor's JSON"));
    await user.paste(anchor);
    await user.click(screen.getByRole('button', { name: 'Check anchor' }));

    expect(await screen.findByText('Not verified from block #3.')).toBeInTheDocument();
    const result = document.querySelector('[data-anchor-result]');
    expect(result).toHaveAttribute('data-anchor-result', 'unverified');
    expect(result).toHaveTextContent('fails verification (record data was changed (data hash mismatch))');
    expect(screen.queryByText(/^Unchanged up to/)).not.toBeInTheDocument();
  });
});
