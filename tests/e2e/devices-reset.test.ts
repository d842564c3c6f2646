// A connected device that resets its demo data comes back in step (docs/decisions/one-ledger-across-devices.md,
// "Nothing held is dropped"): a reset gives it the demo ledger every device holds (docs/decisions/one-demo-ledger.md),
// so it takes the server's blocks again and its user, whose key the ledger still enrols, stays signed in.
import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { serverWith } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';

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
  test('a connected device that is reset takes the ledger back: its user, still signed in, sees the record', async ({ page }) => {
    await uploadThenReset(page);
    await goTo(page, 'Medical Records', 'Medical Records');
    await recordItem(page, 'Kept by the server').waitFor({ timeout: 20_000 });
  });

  test('right after the reset, the open app stays signed in and never says "Access denied"', async ({ page }) => {
    await uploadThenReset(page);
    await goTo(page, 'Medical Records', 'Medical Records');
    await recordItem(page, 'Kept by the server').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Sign In' }).count()).toBe(0);
    expect(await page.getByText("This device now holds the sync server's ledger").count()).toBe(0);
    expect(await page.getByText('Access denied: Insufficient permissions').count()).toBe(0);
  });
});
