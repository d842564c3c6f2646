// The emergency access, persistence and records screens with real data, at 1280x800 and 390x844: a screenshot in test-results/screens,
// an axe-core scan with no serious or critical violation, and nothing sticking out of its card.
import type { Page } from 'playwright-core';
import { describe, test } from './support/fixtures';
import { section, settled, shown, text } from './support/read';
import { goTo, pdfFile, pngFile, recordItem, uploadRecord } from './support/records';
import { checkScreen } from './support/screens';
import { login, logout } from './support/session';
import { readStoredLedger, storeBlocks } from './support/stored-ledger';

const MICHAEL = 'michael.chen@medledger.demo';

async function grant(page: Page, level: 'Basic' | 'Full'): Promise<void> {
  await goTo(page, 'SOS Emergency', 'SOS Emergency Access');
  await page.getByRole('radio', { name: /Michael Chen/ }).check();
  await page.getByLabel('Reason for emergency access').fill('Found unresponsive, medication history needed');
  await page.getByRole('radio', { name: new RegExp(level) }).check();
  await page.getByRole('button', { name: 'Grant Emergency Access' }).click();
  await page.getByRole('region', { name: 'Emergency Access Active' }).waitFor({ timeout: 10_000 });
}

// each test walks several screens at two sizes with an axe scan each: allow for a busy machine
describe('records, patients, profile and emergency screens look right and pass axe', { timeout: 120_000 }, () => {
  test('Medical Records with files, a deleted file, filters, the access history, and its dialogs', async ({ page }) => {
    await login(page, 'patient', MICHAEL);
    await uploadRecord(
      page,
      'Cardiology follow-up with a long title that has to wrap on a phone screen',
      [pdfFile('echocardiogram-report-march-2026-final-version.pdf'), pngFile('ecg-strip.png')],
      { description: 'Ejection fraction 58%. Continue current medication and review in three months.', type: 'Test Report' },
    );
    await uploadRecord(page, 'Metformin prescription', [pdfFile('metformin.pdf'), pdfFile('dosage-notes.pdf')]);
    await logout(page);
    await login(page, 'doctor');
    await grant(page, 'Basic');
    await page.getByRole('button', { name: 'End Emergency Session' }).click();
    await page.getByText('Emergency session for Michael Chen ended.').waitFor();
    await logout(page);

    await login(page, 'patient', MICHAEL);
    await goTo(page, 'Medical Records', 'Medical Records');
    const records = section(page, 'Your Records');
    const prescription = recordItem(records, 'Metformin prescription');
    await prescription.getByRole('button', { name: 'Delete dosage-notes.pdf' }).click();
    await shown(page.getByRole('dialog', { name: 'Delete this file?' }));
    await checkScreen(page, 'records-delete-dialog');
    await page.getByRole('button', { name: 'Delete file' }).click();
    await prescription.getByText('file deleted').waitFor();
    await section(page, 'Emergency Access History').locator('li.access-entry').waitFor();
    await checkScreen(page, 'records');

    await records.getByRole('button', { name: 'Open ecg-strip.png' }).click();
    await page.getByRole('dialog', { name: 'ecg-strip.png' }).getByRole('img').waitFor();
    await shown(page.getByRole('dialog', { name: 'ecg-strip.png' }));
    await checkScreen(page, 'records-preview-dialog');
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    await records.getByRole('searchbox', { name: 'Search' }).fill('no such record');
    await records.getByText('No records match.').waitFor();
    await checkScreen(page, 'records-no-match');
  });

  test('My Patients and the SOS active panel at basic and full level', async ({ page }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Holter monitor 24h', [pdfFile('holter-24h.pdf')], { type: 'Test Report' });
    await logout(page);
    await login(page, 'patient', MICHAEL);
    await uploadRecord(page, 'Insulin prescription', [pdfFile('insulin.pdf')]);
    await logout(page);

    await login(page, 'doctor');
    await goTo(page, 'My Patients', 'My Patients');
    await recordItem(section(page, 'Sarah Johnson'), 'Holter monitor 24h').waitFor();
    await checkScreen(page, 'my-patients');

    await grant(page, 'Basic');
    await recordItem(section(page, 'Recent Records'), 'Insulin prescription')
      .getByText('1 file: documents need full access.')
      .waitFor();
    await checkScreen(page, 'emergency-active-basic');
    await page.getByRole('button', { name: 'End Emergency Session' }).click();
    await page.getByText('Emergency session for Michael Chen ended.').waitFor();

    await grant(page, 'Full');
    await recordItem(section(page, 'Complete History'), 'Insulin prescription')
      .getByRole('button', { name: 'Download insulin.pdf' })
      .waitFor();
    await checkScreen(page, 'emergency-active-full');
  });

  test('My Profile for both roles, the Reset demo data dialog and the read-only banner', async ({ page }) => {
    await login(page, 'doctor');
    await goTo(page, 'My Profile', 'My Profile');
    await section(page, 'Professional Details').waitFor();
    await checkScreen(page, 'profile-doctor');
    await logout(page);

    await login(page, 'patient');
    await goTo(page, 'My Profile', 'My Profile');
    await section(page, 'Health Details').waitFor();
    await checkScreen(page, 'profile-patient');

    await page.getByRole('button', { name: 'Reset demo data' }).click();
    await shown(page.getByRole('dialog', { name: 'Reset demo data?' }));
    await checkScreen(page, 'reset-dialog');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await uploadRecord(page, 'Record to forge', [pdfFile('forge.pdf')]);
    const forged = (await readStoredLedger(page)).blocks[1];
    await storeBlocks(page, [{ ...forged, nonce: forged.nonce + 1 }]); // a header change: the stored hash no longer matches
    await page.reload();
    const banner = page.getByRole('status').filter({ hasText: 'The stored chain failed verification' });
    await banner.waitFor();
    await settled(() => text(banner)).toContain('Block #1 failed a check');
    await goTo(page, 'Medical Records', 'Medical Records');
    await checkScreen(page, 'records-read-only');
  });
});
