// The Upload screen with every file stored and types and 10 MB enforced, in the built app
// (docs/decisions/every-file-stored.md, upload-checks.md).
import type { Page } from 'playwright-core';
import { MAX_FILE_BYTES, SUCCESS_RESET_MS } from '../../workers/core/constants';
import { describe, expect, test } from './support/fixtures';
import { detail, section, settled, stat, text } from './support/read';
import { login } from './support/session';

interface DashboardFigures {
  height: number;
  totalBlocks: number;
  totalRecords: number;
  chain: string;
}

async function openDashboard(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await page.waitForURL('**/patient/dashboard');
  await detail(section(page, 'Blockchain Status'), 'Total Blocks').waitFor();
}

// What the dashboard shows now: its records and its chain status load apart, so read it with settled().
async function dashboardFigures(page: Page): Promise<DashboardFigures> {
  const status = section(page, 'Blockchain Status');
  return {
    height: Number(await text(page.locator('.page-subtitle strong'))),
    totalBlocks: Number(await text(detail(status, 'Total Blocks'))),
    totalRecords: Number(await text(stat(page, 'Total Records'))),
    chain: await text(detail(status, 'Chain Status')),
  };
}

const pdf = (name: string, content = `%PDF-1.4 ${name}`) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(content) });

async function openUpload(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Upload Documents' }).click();
  await page.getByRole('heading', { name: 'Upload Medical Documents' }).waitFor();
}

function uploadButton(page: Page) {
  return page.getByRole('button', { name: /Upload Documents|Uploading\.\.\./ });
}

function selectedFiles(page: Page) {
  return page.getByRole('list', { name: 'Selected files' }).getByRole('listitem');
}

// Drops files on the drop zone the way the browser does: dragenter, dragover, drop with a DataTransfer.
async function dropFiles(page: Page, files: { name: string; type: string; content: string }[]): Promise<void> {
  await page.getByTestId('drop-zone').evaluate((zone, list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([file.content], file.name, { type: file.type }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }
  }, files);
}

describe('upload', () => {
  test('an uploaded document appears on the dashboard with the block height one higher and the chain valid', async ({ page }) => {
    await login(page, 'patient');
    await openDashboard(page);
    await settled(async () => (await dashboardFigures(page)).chain).toBe('Valid');
    const before = await dashboardFigures(page); // the first figures of a fresh sign-in: nothing can change them meanwhile
    await settled(() => text(stat(page, 'Last Upload'))).toBe('None');

    await openUpload(page);
    await page.getByLabel('Add files').setInputFiles(pdf('cholesterol-panel.pdf'));
    await page.getByLabel('Title').fill('  Cholesterol panel  ');
    await page.getByLabel(/Description/).fill('Fasting sample, March');
    await uploadButton(page).click();
    await page.getByRole('progressbar', { name: 'Upload in progress' }).waitFor();
    const success = page.getByRole('status').filter({ hasText: 'Upload successful' });
    await success.waitFor();
    await settled(() => text(success)).toContain('Cholesterol panel (1 file) is secured in block #');
    await settled(() => text(detail(success, 'Block'))).toBe(`#${before.height}`);

    await openDashboard(page);
    await settled(() => dashboardFigures(page)).toEqual({
      height: before.height + 1,
      totalBlocks: before.totalBlocks + 1,
      totalRecords: before.totalRecords + 1,
      chain: 'Valid',
    });
    await settled(() => text(stat(page, 'Last Upload'))).not.toBe('None');
    const newest = section(page, 'Recent Medical Records').getByRole('listitem').first();
    await settled(() => text(newest)).toContain('Cholesterol panel');
    await settled(() => text(newest)).toContain(`Block #${before.height}`);
  });

  test('a rejected file gets a message naming it and is not added; accepted files in the same pick are', async ({ page }) => {
    await login(page, 'patient');
    await openUpload(page);
    await page
      .getByLabel('Add files')
      .setInputFiles([
        { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
        { name: 'huge-scan.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(MAX_FILE_BYTES + 1, 1) },
        pdf('referral.pdf'),
      ]);
    const rejected = page.getByRole('alert').filter({ hasText: 'Not added:' });
    await rejected.waitFor();
    const message = () => text(rejected);
    await settled(message).toContain('"setup.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)');
    await settled(message).toContain('"huge-scan.pdf" is larger than 10 MB');
    await settled(() => selectedFiles(page).allTextContents()).toEqual([expect.stringContaining('referral.pdf')]);
    await settled(() => page.getByLabel('Add files').getAttribute('accept')).toBe('.pdf,.jpg,.jpeg,.png,.doc,.docx');
  });

  test('files are added by drag and drop and removed; Upload stays disabled until a file and a non-blank title', async ({
    page,
  }) => {
    await login(page, 'patient');
    await openUpload(page);
    await settled(() => page.getByText('maximum 10MB each').count()).toBe(1);
    await settled(() => uploadButton(page).isDisabled()).toBe(true);

    await dropFiles(page, [
      { name: 'xray.png', type: 'image/png', content: 'png bytes' },
      {
        name: 'notes.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        content: 'docx bytes',
      },
    ]);
    await settled(() => selectedFiles(page).count()).toBe(2);
    await settled(() => text(selectedFiles(page).first())).toMatch(/xray\.png\s*9 B/);

    await page.getByLabel('Title').fill('   ');
    await settled(() => uploadButton(page).isDisabled()).toBe(true);
    await page.getByLabel('Title').fill('Knee X-ray');
    await settled(() => uploadButton(page).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Remove xray.png' }).click();
    await settled(() => selectedFiles(page).allTextContents()).toEqual([expect.stringContaining('notes.docx')]);
    await page.getByRole('button', { name: 'Remove notes.docx' }).click();
    await settled(() => selectedFiles(page).count()).toBe(0);
    await settled(() => uploadButton(page).isDisabled()).toBe(true);
  });

  test('every file of an upload is stored, and the success panel gives way to an empty form after 5 seconds', async ({
    page,
  }) => {
    await login(page, 'patient');
    await openUpload(page);
    await page.getByLabel('Add files').setInputFiles([pdf('page-1.pdf'), pdf('page-2.pdf')]);
    await page.getByRole('radio', { name: 'Test Report' }).locator('xpath=following-sibling::label[1]').click();
    await page.getByLabel('Title').fill('MRI report');
    await uploadButton(page).click();
    const success = page.getByRole('status').filter({ hasText: 'Upload successful' });
    await success.waitFor();
    await settled(() => text(success)).toContain('MRI report (2 files)');
    const shownAt = Date.now();

    await page.getByLabel('Title').waitFor({ timeout: SUCCESS_RESET_MS + 5_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(SUCCESS_RESET_MS - 1_000);
    await settled(() => page.getByLabel('Title').inputValue()).toBe('');
    await settled(() => selectedFiles(page).count()).toBe(0);

    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    const newest = section(page, 'Recent Medical Records').getByRole('listitem').first();
    await newest.waitFor();
    await settled(() => text(newest)).toMatch(/MRI report.*Test Report.*2 files/);
  });
});
