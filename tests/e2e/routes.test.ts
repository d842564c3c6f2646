// Every route of the app (profile, records and patients are real screens, docs/decisions/real-screens.md): every route, the fallback
// to /, the session guard and the role guard.
import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { settled, text } from './support/read';
import { login, pathOf } from './support/session';

const PATIENT_SCREENS = [
  { path: '/patient/dashboard', heading: /^Welcome back, Sarah Johnson$/, region: 'Recent Medical Records' },
  { path: '/patient/profile', heading: /^My Profile$/, region: 'Health Details' },
  { path: '/patient/records', heading: /^Medical Records$/, region: 'Your Records' },
  { path: '/patient/upload', heading: /^Upload Medical Documents$/, form: 'Upload medical documents' },
  { path: '/patient/sharing', heading: /^Sharing$/, form: 'Share records' },
];

const DOCTOR_SCREENS = [
  { path: '/doctor/dashboard', heading: /^Welcome, Dr\. Emily Carter$/, region: "Today's Schedule" },
  { path: '/doctor/profile', heading: /^My Profile$/, region: 'Professional Details' },
  { path: '/doctor/patients', heading: /^My Patients$/, region: 'Sarah Johnson' }, // Dr. Carter's own patient
  { path: '/doctor/emergency', heading: /^SOS Emergency Access$/, form: 'Request emergency access' },
];

const PROTECTED = [...PATIENT_SCREENS, ...DOCTOR_SCREENS].map((screen) => screen.path);

async function expectLoginScreen(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  expect(pathOf(page)).toBe('/');
}

// Each screen shows its own content, not only its title.
async function expectContent(page: Page, screen: { region?: string; form?: string }): Promise<void> {
  if (screen.region) await page.getByRole('region', { name: screen.region, exact: true }).waitFor();
  if (screen.form) await page.getByRole('form', { name: screen.form }).waitFor();
  expect(await page.getByText(/coming soon/).count()).toBe(0);
}

async function visit(page: Page, path: string, expectedPath: string): Promise<void> {
  await page.goto(path);
  await page.waitForURL((url) => url.pathname === expectedPath);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

describe('routes and guards', () => {
  test('a visitor with no session is sent from every screen to the login page', async ({ page }) => {
    for (const path of PROTECTED) {
      await page.goto(path);
      await expectLoginScreen(page);
    }
  });

  test('any other path redirects a visitor to /', async ({ page }) => {
    for (const path of ['/nowhere', '/patient', '/doctor/dashboard/extra', '/patient/upload/../../admin']) {
      await page.goto(path);
      await expectLoginScreen(page);
    }
  });

  test('a patient reaches each patient screen by URL and by the side menu, showing its own content', async ({ page }) => {
    await login(page, 'patient');
    for (const screen of PATIENT_SCREENS) {
      await visit(page, screen.path, screen.path);
      await settled(() => text(page.getByRole('heading', { level: 1 }))).toMatch(screen.heading);
      await expectContent(page, screen);
    }
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    for (const [label, path] of [
      ['Dashboard', '/patient/dashboard'],
      ['My Profile', '/patient/profile'],
      ['Medical Records', '/patient/records'],
      ['Upload Documents', '/patient/upload'],
      ['Sharing', '/patient/sharing'],
    ]) {
      await menu.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
    }
  });

  test('a doctor reaches each doctor screen by URL and by the side menu, showing its own content', async ({ page }) => {
    await login(page, 'doctor');
    for (const screen of DOCTOR_SCREENS) {
      await visit(page, screen.path, screen.path);
      await settled(() => text(page.getByRole('heading', { level: 1 }))).toMatch(screen.heading);
      await expectContent(page, screen);
    }
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    for (const [label, path] of [
      ['Dashboard', '/doctor/dashboard'],
      ['My Profile', '/doctor/profile'],
      ['My Patients', '/doctor/patients'],
      ['SOS Emergency', '/doctor/emergency'],
    ]) {
      await menu.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
    }
  });

  test('a patient opening a doctor screen lands on the patient dashboard', async ({ page }) => {
    await login(page, 'patient');
    for (const screen of DOCTOR_SCREENS) {
      await visit(page, screen.path, '/patient/dashboard');
      await settled(() => text(page.getByRole('heading', { level: 1 }))).toBe('Welcome back, Sarah Johnson');
    }
  });

  test('a doctor opening a patient screen lands on the doctor dashboard', async ({ page }) => {
    await login(page, 'doctor');
    for (const screen of PATIENT_SCREENS) {
      await visit(page, screen.path, '/doctor/dashboard');
      await settled(() => text(page.getByRole('heading', { level: 1 }))).toBe('Welcome, Dr. Emily Carter');
    }
  });

  test('a signed-in user on / or an unknown path goes to their own dashboard', async ({ page }) => {
    await login(page, 'doctor');
    await visit(page, '/', '/doctor/dashboard');
    await visit(page, '/no/such/screen', '/doctor/dashboard');
  });
});
