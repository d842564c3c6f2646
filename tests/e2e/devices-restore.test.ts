// A device reset and given back an older backup of itself comes back in step on its next sync: it takes again every
// block the server holds, and the server drops none (docs/decisions/one-ledger-across-devices.md, "Nothing held is
// dropped"). Reset first, so the device holds only the demo ledger the backup grew from: the restore adds its records.
import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { chainRows, chainVerdict, connect, disconnect, openChain, serverForTest } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';

const PASSWORD = 'backup password 1';

beforeAll(() => buildServer());

async function backUp(page: Page): Promise<string> {
  await goTo(page, 'Medical Records', 'Medical Records');
  await page.getByRole('button', { name: 'Back up this whole browser' }).click();
  const dialog = page.getByRole('dialog', { name: 'Back up this whole browser' });
  await dialog.getByLabel('Backup password').fill(PASSWORD);
  await dialog.getByLabel('Repeat the password').fill(PASSWORD);
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    dialog.getByRole('button', { name: 'Download backup' }).click(),
  ]);
  return (await download.path()) ?? '';
}

async function restore(page: Page, path: string): Promise<void> {
  await goTo(page, 'Medical Records', 'Medical Records');
  await page.getByRole('button', { name: 'Restore backup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Restore backup' });
  await dialog.getByLabel('Backup file').setInputFiles(path);
  await dialog.getByLabel('Backup password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Check backup' }).click();
  const confirm = page.getByRole('dialog', { name: 'Add the backup’s records?' });
  const refused = dialog.getByRole('alert');
  await confirm.or(refused).first().waitFor({ timeout: 60_000 }); // 600,000 PBKDF2 rounds, then every block
  expect(await refused.count(), (await refused.allTextContents()).join(' ')).toBe(0);
  await confirm.getByRole('button', { name: 'Add to this browser' }).click();
  await confirm.waitFor({ state: 'hidden', timeout: 60_000 });
}

describe('restoring an older backup', { timeout: 240_000 }, () => {
  test('a device reset and restored from a backup older than the server comes back in step, every block the server held kept', async ({
    page,
  }) => {
    const server = await serverForTest();
    await login(page, 'patient');
    await connect(page, server, 'patient', 'Laptop');
    await uploadRecord(page, 'In the backup', [pdfFile('kept.pdf')]);
    const backup = await backUp(page);
    await uploadRecord(page, 'Written after the backup', [pdfFile('later.pdf')], { type: 'Test Report' });
    await openChain(page, 'patient');
    const before = await chainRows(page);
    await expect.poll(async () => (await server.info()).height, { timeout: 15_000 }).toBe(before.length);

    // apart from the server, or the reset device would take the ledger straight back and the restore only merge
    await disconnect(page, 'patient');
    await page.getByRole('button', { name: 'Reset demo data' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset demo data?' });
    await reset.getByRole('button', { name: 'Reset demo data' }).click();
    await reset.waitFor({ state: 'detached', timeout: 30_000 });
    await restore(page, backup);
    await page.getByRole('button', { name: 'Logout' }).waitFor(); // the restore kept Sarah signed in
    await connect(page, server, 'patient', 'Laptop');
    await goTo(page, 'Medical Records', 'Medical Records');
    await recordItem(page, 'Written after the backup').waitFor({ timeout: 20_000 });
    await openChain(page, 'patient');
    await expect.poll(() => chainRows(page), { timeout: 15_000 }).toEqual(before);
    await expect.poll(() => chainVerdict(page), { timeout: 30_000 }).toBe('true');
    expect((await server.info()).height).toBe(before.length);
  });
});
