// Records that leave with the patient, in real Chromium: a whole-browser backup made in one browser context restores
// in a fresh one with every record, file (SHA-256) and access-history entry identical and the chain valid; the FHIR
// export, the import of another system's Bundle with its skipped entry, and the printed summary.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Bundle, DocumentReference } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { newPage } from './support/page';
import { settled } from './support/read';
import { goTo, pdfFile, pngFile, uploadRecord } from './support/records';
import { checkScreen } from './support/screens';
import { login, logout } from './support/session';

const PASSWORD = 'backup password 1';

async function downloaded(page: Page, start: () => Promise<void>): Promise<{ path: string; name: string }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), start()]);
  return { path: (await download.path()) ?? '', name: download.suggestedFilename() };
}

async function exportBundle(page: Page): Promise<Bundle> {
  const file = await downloaded(page, () => page.getByRole('button', { name: 'Export (FHIR)' }).click());
  expect(file.name).toMatch(/^medledger-sarah-johnson-\d{4}-\d{2}-\d{2}\.fhir\.json$/);
  await page
    .getByRole('status')
    .filter({ hasText: `Saved ${file.name}` })
    .waitFor();
  return JSON.parse(readFileSync(file.path, 'utf8')) as Bundle;
}

// What must survive a restore: every resource but the Bundle's own id and time, with each file as its SHA-256.
function contentOf(bundle: Bundle) {
  return (bundle.entry ?? []).map(({ resource }) => {
    if (resource?.resourceType !== 'DocumentReference') return resource;
    const document = resource as DocumentReference;
    return {
      ...document,
      content: document.content.map(({ attachment: { data, ...attachment } }) => ({
        ...attachment,
        sha256: data ? createHash('sha256').update(Buffer.from(data, 'base64')).digest('hex') : null,
      })),
    };
  });
}

describe('records that leave with the patient', { timeout: 180_000 }, () => {
  test('a whole-browser backup restores in a fresh browser context, signed in: every record, file and access entry identical, chain valid', async ({
    page,
    browser,
    baseUrl,
  }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Lipid panel', [pdfFile('lipids.pdf'), pngFile('chart.png')], { type: 'Test Report' });
    await logout(page);
    await login(page, 'doctor');
    await goTo(page, 'SOS Emergency', 'SOS Emergency Access');
    await page.getByRole('radio', { name: /Sarah Johnson/ }).check();
    await page.getByLabel('Reason for emergency access').fill('Collapsed at work, allergy check');
    await page.getByRole('button', { name: 'Grant Emergency Access' }).click();
    await page.getByRole('button', { name: 'End Emergency Session' }).click({ timeout: 15_000 });
    await page.getByText('Emergency session for Sarah Johnson ended.').waitFor(); // the end is written before signing out
    await logout(page);
    await login(page, 'patient');
    await goTo(page, 'Medical Records', 'Medical Records');
    const before = await exportBundle(page);
    expect(contentOf(before).filter((resource) => resource?.resourceType === 'AuditEvent').length).toBeGreaterThanOrEqual(2);

    await page.getByRole('button', { name: 'Back up this whole browser' }).click(); // a fresh browser needs every account's keys
    const dialog = page.getByRole('dialog', { name: 'Back up this whole browser' });
    await dialog.getByLabel('Backup password').fill(PASSWORD);
    await dialog.getByLabel('Repeat the password').fill(PASSWORD);
    await checkScreen(page, 'backup-password');
    const backup = await downloaded(page, () => dialog.getByRole('button', { name: 'Download backup' }).click());
    expect(backup.name).toMatch(/\.car$/);

    const fresh = await newPage(browser, baseUrl);
    try {
      const other = fresh.page;
      await login(other, 'patient');
      await goTo(other, 'Medical Records', 'Medical Records');
      await other.getByRole('button', { name: 'Restore backup' }).click();
      const restore = other.getByRole('dialog', { name: 'Restore backup' });
      await restore.getByLabel('Backup file').setInputFiles(backup.path);
      await restore.getByLabel('Backup password').fill('not the password');
      await restore.getByRole('button', { name: 'Check backup' }).click();
      await restore.getByRole('alert').filter({ hasText: 'The password is wrong' }).waitFor();
      await restore.getByLabel('Backup password').fill(PASSWORD);
      await restore.getByRole('button', { name: 'Check backup' }).click();
      // every browser holds the one demo ledger, so the whole backup adds to it: nobody is signed out
      const confirm = other.getByRole('dialog', { name: 'Add the backup’s records?' });
      await confirm.waitFor({ timeout: 30_000 }); // 600,000 PBKDF2 rounds, then every block and content id
      await confirm.getByText('The backup adds').waitFor();
      await checkScreen(other, 'restore-confirm');
      await confirm.getByRole('button', { name: 'Add to this browser' }).click();
      await confirm.waitFor({ state: 'hidden', timeout: 30_000 });
      await other.getByRole('button', { name: 'Logout' }).waitFor();
      await goTo(other, 'Medical Records', 'Medical Records');
      await other.getByRole('heading', { name: 'Lipid panel', level: 3 }).waitFor();
      const after = await exportBundle(other);
      expect(contentOf(after)).toEqual(contentOf(before));
      await other.reload();
      await goTo(other, 'Dashboard', /Welcome/);
      await other.getByText(/Valid/i).first().waitFor(); // the restored chain verifies again at load
      expect(fresh.unexpectedProblems()).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  test("imports another hospital's Bundle and lists the entry it skipped; a bad file is refused with its message", async ({
    page,
  }) => {
    await login(page, 'patient');
    await goTo(page, 'Medical Records', 'Medical Records');
    const foreign: Bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'DiagnosticReport',
            status: 'final',
            code: { text: 'Chest X-ray, St Mary' },
            effectiveDateTime: '2024-11-02',
            presentedForm: [
              { contentType: 'application/pdf', title: 'chest.pdf', data: Buffer.from('%PDF-1.4 x-ray').toString('base64') },
            ],
          },
        },
        { resource: { resourceType: 'Observation', status: 'final', code: { text: 'Heart rate' } } },
      ],
    };
    await page.getByRole('button', { name: 'Import (FHIR)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import (FHIR)' });
    await dialog
      .getByLabel('Bundle file')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"resourceType":') });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The file is not valid JSON.' }).waitFor();
    await dialog
      .getByLabel('Bundle file')
      .setInputFiles({ name: 'st-mary.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(foreign)) });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText('Imported 1 record.').waitFor({ timeout: 15_000 });
    await settled(() => dialog.getByRole('list', { name: 'Not added as records' }).innerText()).toBe(
      'Observation: MedLedger adds only documents and reports as records',
    );
    await checkScreen(page, 'import-result');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('heading', { name: 'Chest X-ray, St Mary', level: 3 }).waitFor();
  });

  test("warns Michael that Sarah's export holds her records, with Cancel focused, and imports them once he confirms", async ({
    page,
  }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Blood work and imaging, March', [pdfFile('bloods.pdf')]);
    await goTo(page, 'Medical Records', 'Medical Records');
    const sarahs = await exportBundle(page);
    await logout(page);
    await login(page, 'patient', 'michael.chen@medledger.demo');
    await goTo(page, 'Medical Records', 'Medical Records');
    await page.getByRole('button', { name: 'Import (FHIR)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import (FHIR)' });
    await dialog
      .getByLabel('Bundle file')
      .setInputFiles({ name: 'sarah.fhir.json', mimeType: 'application/fhir+json', buffer: Buffer.from(JSON.stringify(sarahs)) });
    await dialog.getByRole('button', { name: 'Import' }).click();
    const warning = dialog.getByRole('alert');
    await warning.filter({ hasText: 'This file holds the records of Sarah Johnson (born Apr 12, 1988), not yours.' }).waitFor();
    await expect
      .poll(() => dialog.getByRole('button', { name: 'Cancel' }).evaluate((button) => button === document.activeElement))
      .toBe(true);
    await dialog.getByRole('button', { name: 'Import anyway' }).click();
    await dialog.getByText('Imported 1 record.').waitFor({ timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('heading', { name: 'Blood work and imaging, March', level: 3 }).waitFor();
  });

  test('prints a summary without navigation or buttons', async ({ page }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Metformin', [pdfFile('metformin.pdf')]);
    await goTo(page, 'Medical Records', 'Medical Records');
    await page.evaluate(() => {
      window.print = () => undefined; // headless Chromium has no print dialog: the test looks at print media itself
    });
    await page.getByRole('button', { name: 'Print summary' }).click();
    const summary = page.locator('.print-summary');
    await summary.waitFor({ state: 'attached' });
    await page.emulateMedia({ media: 'print' });
    await settled(() => summary.isVisible()).toBe(true);
    await settled(() => page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(false);
    await settled(() => page.locator('button:visible').count()).toBe(0);
    const text = () => summary.innerText();
    await settled(text).toContain('Health record summary: Sarah Johnson');
    await settled(text).toMatch(/Metformin\s+Prescription\s+.+\s+#\d+\s+[0-9a-f]{8}/);
    await settled(text).toContain('Blood type');
    await page.screenshot({ path: 'test-results/screens/print-summary.png', fullPage: true });
  });
});
