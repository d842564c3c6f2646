// A connected device that resets its demo data comes back in step (docs/decisions/one-ledger-across-devices.md,
// "Nothing held is dropped"): it takes the server's ledger again, which signs its user out (their key was unlocked
// from the keys the reset replaced); signed in again, they see every record.
import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { serverWith } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';

beforeAll(() => buildServer());

async function uploadThenReset(page: Page): Promise<void> {
  await serverWith(page, 'patient', 'Laptop');
  await uploadRecord(page, 'Kept by the server', [pdfFile('kept.pdf')]);
  await page.getByRole('button', { name: 'Reset demo data' }).click();
  const reset = page.getByRole('dialog', { name: 'Reset demo data?' });
  await reset.getByRole('button', { name: 'Reset demo data' }).click();
  await reset.waitFor({ state: 'detached', timeout: 30_000 });
}

describe('resetting a connected device', { timeout: 180_000 }, () => {
  test('a connected device that is reset takes the ledger back: signed in again, its user sees the record', async ({ page }) => {
    await uploadThenReset(page);
    // the device takes the server's ledger back and signs her out: the open app follows to the sign-in screen
    await page.getByRole('button', { name: 'Sign In' }).waitFor({ timeout: 30_000 });
    await login(page, 'patient');
    await goTo(page, 'Medical Records', 'Medical Records');
    await recordItem(page, 'Kept by the server').waitFor({ timeout: 20_000 });
  });

  // the worker signed her out when the device took the server's ledger back: the open app follows, and says why
  test('right after the reset, the open app asks to sign in again and says why, never "Access denied"', async ({ page }) => {
    await uploadThenReset(page);
    await page.getByRole('button', { name: 'Sign In' }).waitFor({ timeout: 30_000 });
    await page.getByText("This device now holds the sync server's ledger").waitFor();
    expect(await page.getByText('Access denied: Insufficient permissions').count()).toBe(0);
  });
});
