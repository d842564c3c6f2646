import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LedgerService } from '../../workers/api';
import { SARAH, WILSON, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { joined, ledgerWithHistory } from '../support/portability-fixtures';
import { openLedger, renderApp } from './render-app';

const PASSWORD = 'backup password 1';

async function backupOf(service: LedgerService, scope: 'mine' | 'browser'): Promise<File> {
  const file = await service.downloadBackup(crypto.randomUUID(), PASSWORD, scope);
  if (!file) throw new Error('the backup was cancelled');
  return new File([joined(file)], 'backup.car', { type: 'application/vnd.ipld.car' });
}

// Medical Records of Sarah in browser B, which holds the ledger of browser A (restored from A's whole backup).
async function secondBrowser() {
  const { service: a } = await ledgerWithHistory();
  const b = openLedger();
  await signInAs(b.service, SARAH);
  const whole = new Uint8Array(await (await backupOf(a, 'browser')).arrayBuffer());
  await b.service.confirmRestore((await b.service.prepareRestore(whole.buffer, PASSWORD)).planId);
  return { a, b };
}

async function checkBackup(user: ReturnType<typeof renderApp>['user'], file: File) {
  await user.click(await screen.findByRole('button', { name: 'Restore backup' }));
  const dialog = await screen.findByRole('dialog', { name: 'Restore backup' });
  await user.upload(within(dialog).getByLabelText('Backup file'), file);
  await user.type(within(dialog).getByLabelText('Backup password'), PASSWORD);
  await user.click(within(dialog).getByRole('button', { name: 'Check backup' }));
}

describe('backup and restore on Medical Records', () => {
  it('offers a patient their own backup and, named apart, a backup of the whole browser', async () => {
    const { b } = await secondBrowser();
    const { user } = renderApp('/patient/records', { ledger: b, signedInAs: SARAH.id });
    await user.click(await screen.findByRole('button', { name: 'Back up this whole browser' }));
    const dialog = await screen.findByRole('dialog', { name: 'Back up this whole browser' });
    expect(dialog).toHaveTextContent('every account’s records');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Download my backup' }));
    expect(await screen.findByRole('dialog', { name: 'Download my backup' })).toHaveTextContent('your own key');
  });

  it('says what a newer backup adds before it is added, then adds it and keeps the patient signed in', async () => {
    const { a, b } = await secondBrowser();
    await a.upload(uploadOf('Thyroid panel', [fileInput('tsh.pdf', 'tsh bytes')]));
    const newer = await backupOf(a, 'mine');
    const { user } = renderApp('/patient/records', { ledger: b, signedInAs: SARAH.id });
    await checkBackup(user, newer);
    const confirm = await screen.findByRole('dialog', { name: 'Add the backup’s records?' }, { timeout: 10_000 });
    expect(confirm).toHaveTextContent('The backup adds1 block, 1 medical record, 1 file, 0 access events');
    expect(confirm).toHaveTextContent('Nothing this browser holds is dropped, and you stay signed in.');
    await user.click(within(confirm).getByRole('button', { name: 'Add to this browser' }));
    expect(await screen.findByText('Added 1 block from the backup. Nothing this browser held was dropped.')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Thyroid panel', level: 3 })).toBeVisible();
  });

  it('says an older backup adds nothing and offers no confirmation', async () => {
    const { a, b } = await secondBrowser();
    const older = await backupOf(a, 'mine');
    await signInAs(b.service, WILSON);
    await b.service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'Chest pain',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    const { user } = renderApp('/patient/records', { ledger: b, signedInAs: SARAH.id });
    await checkBackup(user, older);
    const dialog = await screen.findByRole('dialog', { name: 'Add the backup’s records?' }, { timeout: 10_000 });
    expect(dialog).toHaveTextContent('This browser already holds every record of the backup.');
    expect(within(dialog).queryByRole('button', { name: /Add to this browser|Replace and restore/ })).toBeNull();
  });
});
