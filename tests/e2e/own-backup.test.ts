// A person's own backup ("Download my backup") made in one browser context restores into a fresh one, since every
// browser holds the same demo ledger: the records and both files byte for byte, merged, and the person stays signed
// in throughout (docs/decisions/one-demo-ledger.md). The same for a doctor's own backup of a record shared with him.
import type { Locator, Page } from 'playwright-core';
import { newDevice } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { section } from './support/read';
import { downloadFile, goTo, pdfFile, pngFile, recordItem, uploadRecord, type UploadFile } from './support/records';
import { login, logout } from './support/session';

const PASSWORD = 'backup password 1';
const FILES = [pdfFile('scan-report.pdf'), pngFile('scan-image.png')];

async function downloadBackup(page: Page, where: Page | Locator): Promise<string> {
  await where.getByRole('button', { name: 'Download my backup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download my backup' });
  await dialog.getByLabel('Backup password').fill(PASSWORD);
  await dialog.getByLabel('Repeat the password').fill(PASSWORD);
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    dialog.getByRole('button', { name: 'Download backup' }).click(),
  ]);
  return (await download.path()) ?? '';
}

// Restores the backup and waits for the merge's notice; fails on a refusal, with its words.
async function restoreMerged(page: Page, where: Page | Locator, path: string): Promise<void> {
  await where.getByRole('button', { name: 'Restore backup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Restore backup' });
  await dialog.getByLabel('Backup file').setInputFiles(path);
  await dialog.getByLabel('Backup password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Check backup' }).click();
  const merge = page.getByRole('dialog', { name: 'Add the backup’s records?' });
  const refused = dialog.getByRole('alert');
  await merge.or(refused).first().waitFor({ timeout: 60_000 }); // 600,000 PBKDF2 rounds, then every block
  expect(await refused.count(), (await refused.allTextContents()).join(' ')).toBe(0);
  await merge.getByText('Nothing this browser holds is dropped, and you stay signed in.').waitFor();
  await merge.getByRole('button', { name: 'Add to this browser' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^Added \d+ blocks? from the backup/ })
    .waitFor({ timeout: 30_000 });
}

// Every path the page goes to from now on: a sign-out would show as the login screen's '/'.
function pathsFrom(page: Page): string[] {
  const paths: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
  });
  return paths;
}

async function expectFiles(record: Locator, files: UploadFile[]): Promise<void> {
  for (const file of files) {
    const saved = await downloadFile(record, file.name);
    expect(saved.bytes.equals(file.buffer), `${file.name} byte for byte`).toBe(true);
  }
}

describe("a person's own backup in a fresh browser", { timeout: 240_000 }, () => {
  test("a patient's own backup restores into a fresh context: the record and both files byte for byte, signed in throughout", async ({
    page,
    browser,
    baseUrl,
  }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Knee scans', FILES);
    await goTo(page, 'Medical Records', 'Medical Records');
    const backup = await downloadBackup(page, page);

    const fresh = (await newDevice(browser, baseUrl)).page;
    await login(fresh, 'patient');
    const paths = pathsFrom(fresh);
    await goTo(fresh, 'Medical Records', 'Medical Records');
    await restoreMerged(fresh, fresh, backup);
    const record = recordItem(fresh, 'Knee scans');
    await record.waitFor({ timeout: 15_000 });
    await expectFiles(record, FILES);
    await fresh.reload();
    await recordItem(fresh, 'Knee scans').waitFor({ timeout: 15_000 });
    expect(paths).not.toContain('/');
    await fresh.getByRole('button', { name: 'Logout' }).waitFor();
  });

  test("a doctor's own backup restores into a fresh context: the shared record and both files byte for byte, signed in throughout", async ({
    page,
    browser,
    baseUrl,
  }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Shared scans', FILES);
    await goTo(page, 'Sharing', 'Sharing');
    const form = page.getByRole('form', { name: 'Share records' });
    await form.getByLabel('Doctor', { exact: true }).selectOption({ label: 'Dr. Emily Carter (Cardiology)' });
    await form.getByRole('radio', { name: /Full/ }).check();
    await form.getByLabel('Duration').selectOption({ label: 'Until revoked' });
    await form.getByRole('button', { name: 'Share records' }).click();
    await page.getByText(/^Shared with Dr. Emily Carter/).waitFor({ timeout: 15_000 });
    await logout(page);
    await login(page, 'doctor');
    await page.goto('/doctor/profile');
    const backup = await downloadBackup(page, page.getByRole('region', { name: 'Your backup' }));

    const fresh = (await newDevice(browser, baseUrl)).page;
    await login(fresh, 'doctor');
    const paths = pathsFrom(fresh);
    await fresh.goto('/doctor/profile');
    await restoreMerged(fresh, fresh.getByRole('region', { name: 'Your backup' }), backup);
    await goTo(fresh, 'My Patients', 'My Patients');
    const shared = section(fresh, 'Shared with me').getByRole('listitem').filter({ hasText: 'Sarah Johnson' });
    await shared.getByRole('button', { name: 'Open shared records of Sarah Johnson' }).click();
    const record = recordItem(section(fresh, 'Complete History'), 'Shared scans');
    await record.waitFor({ timeout: 15_000 });
    await expectFiles(record, FILES);
    expect(paths).not.toContain('/');
    await fresh.getByRole('button', { name: 'Logout' }).waitFor();
  });
});
