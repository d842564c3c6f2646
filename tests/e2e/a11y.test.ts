// axe-core on every screen and state at 1280x800 and 390x844 with no violation at all, whatever its impact
// (the screens test only holds serious and critical ones to zero).
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { describe, expect, test } from './support/fixtures';
import { formatViolations, scanA11y } from './support/axe';
import { DESKTOP, PHONE } from './support/page';
import { section, shown } from './support/read';
import { tamperDemoBlock7 } from './support/explorer';
import { goTo, openMiningLab, pdfFile, pngFile, recordItem, uploadRecord } from './support/records';
import { login, logout } from './support/session';

// Scans the page at both sizes and returns a report line per size with violations ('' when clean).
async function violationsAtBothSizes(page: Page, state: string): Promise<string[]> {
  const report: string[] = [];
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    // let media queries and the collapsing menu settle after the resize
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const violations = await scanA11y(page);
    if (violations.length > 0) report.push(`${state} at ${size.width}x${size.height}\n${formatViolations(violations)}`);
  }
  await page.setViewportSize(DESKTOP);
  return report;
}

// Collects the report of every state a test visits, and fails once at the end with all of them.
function a11yLog(page: Page) {
  const report: string[] = [];
  return {
    scan: async (state: string) => report.push(...(await violationsAtBothSizes(page, state))),
    expectClean: () => expect(report, `axe violations (any impact):\n${report.join('\n')}`).toEqual([]),
  };
}

describe('no axe violation of any impact on any screen or state, at desktop and phone size', () => {
  test('login: idle, with a wrong password, and with the wrong user type', async ({ page }) => {
    const log = a11yLog(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await log.scan('login');
    await page.getByLabel('Email').fill(DEMO_ACCOUNTS.patient);
    await page.getByLabel('Password').fill(`${DEMO_PASSWORD}x`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await log.scan('login with a wrong password');
    await page.getByLabel('Email').fill(DEMO_ACCOUNTS.doctor);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'registered as a doctor' }).waitFor();
    await log.scan('login with the wrong user type');
    log.expectClean();
  });

  test('patient: dashboard, upload with a rejected file, uploading, success, records with a preview, profile', async ({
    page,
  }) => {
    const log = a11yLog(page);
    await login(page, 'patient');
    await section(page, 'Blockchain Status').getByText('Valid', { exact: true }).waitFor();
    await log.scan('patient dashboard, no uploads');
    await goTo(page, 'Upload Documents', 'Upload Medical Documents');
    await log.scan('upload, empty');
    await page
      .getByLabel('Add files')
      .setInputFiles([
        pdfFile('blood-test.pdf'),
        { name: 'installer.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
      ]);
    await page.getByRole('alert').filter({ hasText: 'installer.exe' }).waitFor();
    await page.getByLabel('Title').fill('Blood test');
    await log.scan('upload with a rejected file');
    await page.getByRole('button', { name: 'Upload Documents' }).click();
    await page.getByRole('heading', { name: 'Upload successful' }).waitFor({ timeout: 15_000 });
    await log.scan('upload success');
    await uploadRecord(page, 'Skin photo', [pngFile('skin.png')]);
    await goTo(page, 'Dashboard', /Welcome back/);
    await page.getByText('Skin photo').first().waitFor();
    await log.scan('patient dashboard with records');
    await goTo(page, 'Medical Records', 'Medical Records');
    const records = section(page, 'Your Records');
    await recordItem(records, 'Skin photo').waitFor();
    await log.scan('medical records');
    await recordItem(records, 'Skin photo').getByRole('button', { name: 'Open skin.png' }).click();
    const preview = page.getByRole('dialog', { name: 'skin.png' });
    await preview.getByRole('img', { name: 'skin.png' }).waitFor();
    await shown(preview);
    await log.scan('medical records, a document preview open');
    await preview.getByRole('button', { name: 'Close', exact: true }).click();
    await preview.waitFor({ state: 'hidden' });
    await goTo(page, 'My Profile', 'My Profile');
    await log.scan('patient profile');
    log.expectClean();
  });

  test('doctor: dashboard, profile, my patients, SOS with a selection, active and ended', async ({ page }) => {
    const log = a11yLog(page);
    await login(page, 'patient');
    await uploadRecord(page, 'Echocardiogram', [pdfFile('echo.pdf')]);
    await logout(page);
    await login(page, 'doctor');
    await page.getByText('Echocardiogram').first().waitFor();
    await log.scan('doctor dashboard');
    await goTo(page, 'My Profile', 'My Profile');
    await log.scan('doctor profile');
    await goTo(page, 'My Patients', 'My Patients');
    await page.getByText('Echocardiogram').first().waitFor();
    await log.scan('my patients');
    await goTo(page, 'SOS Emergency', 'SOS Emergency Access');
    await page.getByRole('radio', { name: /Michael Chen/ }).check();
    await page.getByLabel('Reason for emergency access').fill('Unconscious patient admitted to the ER');
    await log.scan('SOS search with a selection');
    await page.getByRole('button', { name: 'Grant Emergency Access' }).click();
    await page.getByRole('region', { name: 'Emergency Access Active' }).waitFor();
    await log.scan('SOS active');
    await page.getByRole('button', { name: 'End Emergency Session' }).click();
    await page.getByRole('button', { name: 'Grant Emergency Access' }).waitFor();
    await log.scan('SOS after the session ended');
    log.expectClean();
  });

  test('sharing: none, a missing doctor, an active share, the shared records for the doctor, revoked', async ({ page }) => {
    const log = a11yLog(page);
    await login(page, 'patient');
    await uploadRecord(page, 'Holter report', [pdfFile('holter.pdf')]);
    await goTo(page, 'Sharing', 'Sharing');
    await log.scan('sharing, no shares');
    await page.getByRole('button', { name: 'Share records' }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose a doctor to share with.' }).waitFor();
    await log.scan('sharing with a missing doctor');
    await page.getByLabel('Doctor', { exact: true }).selectOption({ label: 'Dr. James Wilson (Emergency Medicine)' });
    await page.getByRole('radio', { name: /Full/ }).check();
    await page.getByLabel(/Note for the doctor/).fill('Second opinion on my palpitations');
    await page.getByRole('button', { name: 'Share records' }).click();
    await page.getByRole('status').filter({ hasText: 'Shared with Dr. James Wilson' }).waitFor({ timeout: 15_000 });
    await log.scan('sharing, a share active');
    await logout(page);
    await login(page, 'doctor', 'james.wilson@medledger.demo');
    await goTo(page, 'My Patients', 'My Patients');
    const shared = section(page, 'Shared with me');
    await shared.getByRole('button', { name: 'Open shared records of Sarah Johnson' }).click();
    await recordItem(section(page, 'Complete History'), 'Holter report').waitFor();
    await log.scan('my patients, shared records open');
    await logout(page);
    await login(page, 'patient');
    await goTo(page, 'Sharing', 'Sharing');
    await page.getByRole('button', { name: 'Revoke the share with Dr. James Wilson' }).click();
    await section(page, 'Past Shares').locator('.share-reads li').first().waitFor({ timeout: 15_000 });
    await log.scan('sharing, revoked with its access log');
    log.expectClean();
  });

  test('explorer (records chain, tamper demo with a broken block) and mining lab (idle, after a run)', async ({ page }) => {
    const log = a11yLog(page);
    await login(page, 'patient');
    await goTo(page, 'Blockchain Explorer', 'Blockchain Explorer');
    await page.getByText('Chain valid.').waitFor();
    await log.scan('explorer, records chain');
    await tamperDemoBlock7(page);
    await log.scan('explorer, tamper demo with block 7 changed');
    await openMiningLab(page);
    await log.scan('mining lab');
    await page.getByLabel('Difficulty (leading zeros)').selectOption('2');
    await page.getByLabel('Blocks', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Start mining' }).click();
    await page.locator('tr[data-place="worker"]').first().waitFor({ timeout: 60_000 });
    await log.scan('mining lab after a run');
    log.expectClean();
  });
});
