// Every screen at 1280x800 and 390x844: a screenshot in test-results/screens and an axe-core scan with
// no serious or critical violation.
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { describe, expect, test } from './support/fixtures';
import { formatViolations, scanA11y, seriousViolations } from './support/axe';
import { PHONE } from './support/page';
import { settled, shown } from './support/read';
import { checkScreen, screenshot } from './support/screens';
import { login, logout } from './support/session';

async function go(page: Page, label: string, heading: string | RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

async function uploadRecord(page: Page, title: string): Promise<void> {
  await go(page, 'Upload Documents', 'Upload Medical Documents');
  await page
    .getByLabel('Add files')
    .setInputFiles({ name: 'blood-test.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
  await page.getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Upload Documents' }).click();
  await page.getByRole('heading', { name: 'Upload successful' }).waitFor();
}

describe('every screen looks right and passes axe at desktop and phone size', () => {
  test('login, idle and with an error', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await checkScreen(page, 'login');
    await page.getByLabel('Email').fill(DEMO_ACCOUNTS.patient);
    await page.getByLabel('Password').fill(`${DEMO_PASSWORD}x`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').waitFor();
    await checkScreen(page, 'login-error');
  });

  test('patient dashboard (empty and with a record), My Profile and Medical Records', async ({ page }) => {
    await login(page, 'patient');
    await page.getByRole('region', { name: 'Blockchain Status' }).getByText('Valid').waitFor();
    await checkScreen(page, 'patient-dashboard-empty');
    await uploadRecord(page, 'Complete blood count');
    await go(page, 'Dashboard', /Welcome back/);
    await page.getByText('Complete blood count').waitFor();
    await checkScreen(page, 'patient-dashboard');
    await go(page, 'My Profile', 'My Profile');
    await checkScreen(page, 'patient-profile');
    await go(page, 'Medical Records', 'Medical Records');
    await checkScreen(page, 'patient-records');
  });

  test('upload form with files and a rejected file, uploading, and the success panel', async ({ page }) => {
    await login(page, 'patient');
    await go(page, 'Upload Documents', 'Upload Medical Documents');
    await checkScreen(page, 'upload-empty');
    await page.getByLabel('Add files').setInputFiles([
      { name: 'blood-test-results-march.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(180_000, 1) },
      { name: 'chest-xray.png', mimeType: 'image/png', buffer: Buffer.alloc(2_400_000, 1) },
      { name: 'installer.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ]);
    await page.getByLabel('Title').fill('Blood test and chest X-ray');
    await page.getByLabel(/Description/).fill('Annual check-up, fasting sample.');
    await checkScreen(page, 'upload-filled');
    await page.getByRole('button', { name: 'Upload Documents' }).click();
    await page.getByRole('progressbar', { name: 'Upload in progress' }).waitFor();
    await screenshot(page, 'upload-uploading');
    await page.getByRole('heading', { name: 'Upload successful' }).waitFor();
    await checkScreen(page, 'upload-success');
  });

  test('doctor dashboard with patient activity, My Profile and My Patients', async ({ page }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Echocardiogram report');
    await logout(page);
    await login(page, 'doctor');
    await page.getByText('Echocardiogram report').first().waitFor();
    await checkScreen(page, 'doctor-dashboard');
    await go(page, 'My Profile', 'My Profile');
    await checkScreen(page, 'doctor-profile');
    await go(page, 'My Patients', 'My Patients');
    await checkScreen(page, 'doctor-patients');
  });

  test('SOS emergency search with a selection, and the active session', async ({ page }) => {
    await login(page, 'doctor');
    await go(page, 'SOS Emergency', 'SOS Emergency Access');
    await page.getByRole('radio', { name: /Michael Chen/ }).check();
    await page.getByLabel('Reason for emergency access').fill('Unconscious patient admitted to the ER');
    await checkScreen(page, 'emergency-search');
    await page.getByRole('button', { name: 'Grant Emergency Access' }).click();
    await page.getByRole('region', { name: 'Emergency Access Active' }).waitFor();
    await checkScreen(page, 'emergency-active');
  });

  test('on a phone the side menu opens from the top bar as an accessible panel', async ({ page }) => {
    await login(page, 'patient');
    await page.setViewportSize(PHONE);
    const open = page.getByRole('button', { name: 'Open menu' });
    await settled(() => page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(false);
    await open.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await shown(menu);
    await screenshot(page, 'phone-menu-open', { fullPage: false });
    const serious = seriousViolations(await scanA11y(page));
    expect(serious, formatViolations(serious)).toEqual([]);
    await settled(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await menu.getByRole('link', { name: 'Upload Documents' }).click();
    await page.getByRole('heading', { name: 'Upload Medical Documents', level: 1 }).waitFor();
    await menu.waitFor({ state: 'hidden' });
  });
});
