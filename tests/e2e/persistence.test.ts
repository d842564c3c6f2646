// docs/decisions/persistence.md in the built app: records and documents survive a reload (bytes compared), deletion keeps the record,
// a stored chain changed at rest is named and read-only until Reset demo data, and two tabs stay in step.
import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { detail, section, settled, text } from './support/read';
import { downloadFile, goTo, pdfFile, pngFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';
import { readStoredLedger, storeBlocks } from './support/stored-ledger';

const records = (page: Page) => section(page, 'Your Records');

// Changes one stored block's title in IndexedDB, as any script of the origin could, without re-mining it.
async function forgeStoredTitle(page: Page, index: number, title: string): Promise<void> {
  const block = (await readStoredLedger(page)).blocks[index];
  await storeBlocks(page, [{ ...block, data: { ...block.data, title } }]);
}

describe('records survive a reload', () => {
  test('an uploaded record and its files are still there after a reload, and open with the uploaded bytes', async ({ page }) => {
    const report = pdfFile('lab-report.pdf', `%PDF-1.4 potassium 4.1 mmol/L ${'k'.repeat(2000)}`);
    const scan = pngFile('rash-photo.png');
    await login(page, 'patient');
    await uploadRecord(page, 'Dermatology visit', [report, scan], {
      description: 'Rash on the left forearm',
      type: 'Test Report',
    });
    await goTo(page, 'Medical Records', 'Medical Records');
    await recordItem(records(page), 'Dermatology visit').waitFor();

    await page.reload();
    const item = recordItem(records(page), 'Dermatology visit');
    await item.waitFor();
    await settled(() => text(item)).toContain('Rash on the left forearm');
    await settled(() => text(item)).toContain('Test Report');
    await settled(() => item.getByText('Block #1', { exact: true }).count()).toBe(1);

    const saved = await downloadFile(item, 'lab-report.pdf');
    expect(saved.name).toBe('lab-report.pdf');
    expect(saved.bytes.equals(report.buffer)).toBe(true);

    await item.getByRole('button', { name: 'Open rash-photo.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'rash-photo.png' });
    const image = dialog.getByRole('img', { name: 'rash-photo.png' });
    await image.waitFor();
    // the browser decoded the decrypted bytes: a 2x2 picture, not a broken image
    await page.waitForFunction((element) => (element as HTMLImageElement).complete, await image.elementHandle());
    await settled(() => image.evaluate((element: HTMLImageElement) => [element.naturalWidth, element.naturalHeight])).toEqual([
      2, 2,
    ]);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  test('a deleted file stays deleted after a reload while its record keeps its block', async ({ page }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Old referral', [pdfFile('referral.pdf'), pdfFile('cover-letter.pdf')]);
    await goTo(page, 'Medical Records', 'Medical Records');
    const item = recordItem(records(page), 'Old referral');
    await item.getByRole('button', { name: 'Delete referral.pdf' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this file?' });
    await dialog.getByRole('button', { name: 'Delete file' }).click();
    await page.getByText('“referral.pdf” was deleted.', { exact: false }).waitFor();

    await page.reload();
    await item.waitFor();
    // a sealed file's name went with its key: the row says 'Deleted file', and the name is nowhere in the record
    const deleted = item.locator('li', { hasText: 'Deleted file' }).filter({ hasNotText: 'cover-letter' });
    await deleted.getByText('file deleted').waitFor();
    await settled(() => item.locator('li', { hasText: 'Deleted file' }).count()).toBe(1);
    expect(await text(item)).not.toContain('referral.pdf');
    await settled(() => deleted.getByRole('button').count()).toBe(0);
    await settled(() => item.getByText('Block #1', { exact: true }).count()).toBe(1);
    // the other file of the record is untouched
    const other = await downloadFile(item, 'cover-letter.pdf');
    expect(other.bytes.equals(pdfFile('cover-letter.pdf').buffer)).toBe(true);
  });

  test('a block changed at rest is named with its check, the app turns read-only, and Reset demo data starts over', async ({
    page,
  }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Genuine record', [pdfFile('genuine.pdf')]);
    await uploadRecord(page, 'Second record', [pdfFile('second.pdf')]);
    await forgeStoredTitle(page, 1, 'Forged record');
    await page.reload();

    const banner = page.getByRole('status').filter({ hasText: 'The stored chain failed verification' });
    await banner.waitFor();
    const said = () => text(banner);
    await settled(said).toMatch(/Block #1 failed a check: .+\./);
    await settled(said).toContain('MedLedger is read-only');
    await settled(said).toContain('Block #0 verified and can be read.');
    await goTo(page, 'Medical Records', 'Medical Records');
    await recordItem(records(page), 'Initial health assessment').waitFor(); // the oldest, listed last: the list is whole
    expect(await recordItem(records(page), 'Forged record').count()).toBe(0);
    expect(await recordItem(records(page), 'Genuine record').count()).toBe(0);

    await page.getByRole('button', { name: 'Reset demo data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset demo data?' });
    await dialog.getByRole('button', { name: 'Reset demo data' }).click();
    await page.waitForURL('**/patient/dashboard');
    await banner.waitFor({ state: 'detached' });
    const status = section(page, 'Blockchain Status');
    await status.getByText('Valid', { exact: true }).waitFor();
    await settled(() => text(detail(status, 'Total Blocks'))).toBe('1');
  });
});

describe('two tabs of one browser', () => {
  test('an upload in one tab and a deletion in the other show in both without a reload', async ({ page, recorded }) => {
    await login(page, 'patient');
    const other = await recorded.context.newPage();
    other.on('pageerror', (error) => recorded.problems.push(`second tab: ${error.message}`));
    other.on('console', (message) => message.type() === 'error' && recorded.problems.push(`second tab: ${message.text()}`));
    await other.goto('/patient/records');
    await recordItem(records(other), 'Initial health assessment').waitFor();

    await uploadRecord(page, 'Sent from the first tab', [pdfFile('first-tab.pdf')]);
    const arrived = recordItem(records(other), 'Sent from the first tab');
    await arrived.waitFor({ timeout: 10_000 });
    await settled(() => text(records(other).locator('.records-count'))).toBe('2 records');

    await goTo(page, 'Medical Records', 'Medical Records');
    await arrived.getByRole('button', { name: 'Delete first-tab.pdf' }).click();
    await other.getByRole('dialog', { name: 'Delete this file?' }).getByRole('button', { name: 'Delete file' }).click();
    await recordItem(records(page), 'Sent from the first tab').getByText('file deleted').waitFor({ timeout: 10_000 });
  });
});
