// Issue 2 in the browser: the built app runs the real ledger worker, which mines and persists blocks.
import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { detail, section, settled, text } from './support/read';
import { login } from './support/session';

async function chainStatus(page: Page): Promise<{ blocks: string; chain: string }> {
  const status = section(page, 'Blockchain Status');
  await detail(status, 'Total Blocks').waitFor();
  return { blocks: await text(detail(status, 'Total Blocks')), chain: await text(detail(status, 'Chain Status')) };
}

async function uploadOneFile(page: Page, title: string): Promise<void> {
  await page.getByRole('link', { name: 'Upload Documents' }).click();
  await page
    .getByLabel('Add files')
    .setInputFiles({ name: 'lab-result.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 lab result') });
  await page.getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Upload Documents' }).click();
  await page.getByRole('heading', { name: 'Upload successful' }).waitFor();
}

describe('the ledger worker in the built app', () => {
  test('starts in a real Web Worker and shows the fresh chain (the genesis block) as valid', async ({ page }) => {
    await login(page, 'patient');
    expect(
      page
        .workers()
        .map((worker) => worker.url())
        .some((url) => /ledger\.worker/.test(url)),
    ).toBe(true);
    await settled(() => chainStatus(page)).toEqual({ blocks: '1', chain: 'Valid' });
  });

  test('mines an uploaded record into a block whose SHA-256 hash starts with two zeros, and the chain stays valid', async ({
    page,
  }) => {
    await login(page, 'patient');
    await uploadOneFile(page, 'Blood panel');
    const success = page.getByRole('status').filter({ hasText: 'Upload successful' });
    await settled(() => text(detail(success, 'Block'))).toBe('#1');
    await settled(() => success.locator('code').getAttribute('title')).toMatch(/^00[0-9a-f]{62}$/);

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await settled(() => chainStatus(page)).toEqual({ blocks: '2', chain: 'Valid' });
  });

  test('keeps the mined block in IndexedDB: after a reload the chain still has it and verifies', async ({ page }) => {
    await login(page, 'patient');
    await uploadOneFile(page, 'Chest X-ray report');
    await page.reload();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await settled(() => chainStatus(page)).toEqual({ blocks: '2', chain: 'Valid' });
    await settled(() => section(page, 'Recent Medical Records').getByText('Chest X-ray report').count()).toBe(1);
  });
});
