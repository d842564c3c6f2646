// SOS Emergency Access: search, select, reason, level, duration, grant, countdown, End Emergency Session.
import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { detail, settled, text } from './support/read';
import { login } from './support/session';

async function openEmergency(page: Page): Promise<void> {
  await login(page, 'doctor');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'SOS Emergency' }).click();
  await page.getByRole('heading', { name: 'SOS Emergency Access', level: 1 }).waitFor();
}

const search = (page: Page) => page.getByRole('searchbox', { name: 'Search patients by name or ID' });
const patientOptions = (page: Page) => page.getByRole('radio', { name: /Chen|Johnson/ });
const grantButton = (page: Page) => page.getByRole('button', { name: /Grant Emergency Access|Granting Access\.\.\./ });

function seconds(mmss: string): number {
  const [minutes, secs] = mmss.split(':').map(Number);
  return minutes * 60 + secs;
}

describe('SOS emergency access', () => {
  test('the patient search is a local filter on name or id', async ({ page }) => {
    await openEmergency(page);
    await patientOptions(page).first().waitFor();
    await settled(() => patientOptions(page).count()).toBe(2);
    await search(page).fill('chen');
    await page.waitForFunction(() => document.querySelectorAll('input[name="patient"]').length === 1);
    await settled(() => text(page.locator('.patient-results'))).toContain('Michael Chen');
    await search(page).fill('patient-1');
    await page.getByRole('radio', { name: /Sarah Johnson/ }).waitFor();
    await settled(() => patientOptions(page).count()).toBe(1);
    await search(page).fill('zzz');
    await page.getByText('No patients match').waitFor();
    await settled(() => patientOptions(page).count()).toBe(0);
  });

  test('a grant needs a patient and a non-blank reason; level defaults to basic and duration to 1 hour', async ({ page }) => {
    await openEmergency(page);
    await settled(() => page.getByRole('radio', { name: /Basic/ }).isChecked()).toBe(true);
    await settled(() => page.getByRole('radio', { name: /Full/ }).isChecked()).toBe(false);
    const duration = page.getByLabel('Duration');
    await settled(() => duration.inputValue()).toBe('60');
    await settled(() => duration.locator('option').allTextContents()).toEqual([
      '15 minutes',
      '30 minutes',
      '1 hour',
      '2 hours',
      '4 hours',
    ]);
    await settled(() => grantButton(page).isDisabled()).toBe(true);
    await page.getByRole('radio', { name: /Michael Chen/ }).check();
    // check() and fill() return after React rendered their event (a discrete event renders at once): still disabled is settled
    await settled(() => grantButton(page).isDisabled()).toBe(true);
    await page.getByLabel('Reason for emergency access').fill('   ');
    await settled(() => grantButton(page).isDisabled()).toBe(true);
    await page.getByLabel('Reason for emergency access').fill('Unconscious in the ER');
    await settled(() => grantButton(page).isEnabled()).toBe(true);
  });

  test('granting shows a busy state, then a live countdown; End Emergency Session returns to the search view', async ({
    page,
  }) => {
    await openEmergency(page);
    await search(page).fill('Michael');
    await page.getByRole('radio', { name: /Michael Chen/ }).check();
    await page.getByLabel('Reason for emergency access').fill('Unconscious patient, allergy check needed');
    await page.getByRole('radio', { name: /Full/ }).check();
    await page.getByLabel('Duration').selectOption({ label: '15 minutes' });
    await grantButton(page).click();
    await page.getByRole('button', { name: 'Granting Access...' }).waitFor();

    const panel = page.getByRole('region', { name: 'Emergency Access Active' });
    await panel.waitFor({ timeout: 10_000 });
    const timer = panel.getByRole('timer');
    await settled(() => text(timer)).toMatch(/^1[45]:\d\d$/);
    const firstAt = Date.now();
    const first = seconds(await text(timer));
    expect(first).toBeGreaterThan(14 * 60);
    expect(first).toBeLessThanOrEqual(15 * 60);
    await settled(() => text(detail(panel, 'Patient'))).toContain('Michael Chen');
    await settled(() => text(detail(panel, 'Access Level'))).toContain('Full');
    await settled(() => text(detail(panel, 'Reason'))).toBe('Unconscious patient, allergy check needed');

    // the countdown runs at the clock's pace: it drops by the seconds that passed, give or take the rounding
    await settled(async () => first - seconds(await text(timer))).toBeGreaterThanOrEqual(2);
    const later = seconds(await text(timer));
    const elapsed = (Date.now() - firstAt) / 1000;
    expect(first - later).toBeGreaterThanOrEqual(1);
    expect(Math.abs(first - later - elapsed)).toBeLessThanOrEqual(1.5);

    await panel.getByRole('button', { name: 'End Emergency Session' }).click();
    await page.getByText('Emergency session for Michael Chen ended.').waitFor();
    await settled(() => panel.count()).toBe(0);
    await search(page).waitFor();
    await settled(() => grantButton(page).isDisabled()).toBe(true);
  });

  test('an active session is still shown after a reload, counting down from its real expiry', async ({ page }) => {
    await openEmergency(page);
    await page.getByRole('radio', { name: /Sarah Johnson/ }).check();
    await page.getByLabel('Reason for emergency access').fill('Chest pain on arrival');
    await grantButton(page).click();
    const panel = page.getByRole('region', { name: 'Emergency Access Active' });
    await panel.waitFor({ timeout: 10_000 });
    await page.reload();
    await panel.waitFor();
    await settled(() => text(panel.getByRole('timer'))).toMatch(/^\d+:\d\d$/);
    const remaining = seconds(await text(panel.getByRole('timer')));
    expect(remaining).toBeGreaterThan(58 * 60);
    expect(remaining).toBeLessThanOrEqual(60 * 60);
    await settled(() => text(detail(panel, 'Access Level'))).toContain('Basic');
  });
});
