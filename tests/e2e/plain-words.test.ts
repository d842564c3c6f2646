// What a new user reads first: each screen opened from the side menu shows its title below the top bar, and the
// sign-in page names the demo accounts and their password before any script runs.
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { USERS } from '../../workers/core/directory';
import { describe, expect, test } from './support/fixtures';
import { DESKTOP, PHONE } from './support/page';
import { login } from './support/session';

// Opens a screen from the side menu as a user would (the phone opens the menu drawer first).
async function openFromMenu(page: Page, label: string, heading: string): Promise<void> {
  // below Bootstrap's lg breakpoint (992 px) the menu is a drawer
  if ((page.viewportSize()?.width ?? DESKTOP.width) < 992) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

// How far the heading's top sits below the top bar's bottom (negative: hidden under the bar).
async function headingClearance(page: Page, heading: string): Promise<number> {
  const title = page.getByRole('heading', { name: heading, level: 1 });
  return title.evaluate((element) => {
    const bar = document.querySelector('.top-bar')?.getBoundingClientRect().bottom ?? 0;
    return element.getBoundingClientRect().top - bar;
  });
}

describe('a screen opened from the side menu', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`shows its title below the top bar at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await login(page, 'patient');
      for (const [label, heading] of [
        ['Upload Documents', 'Upload Medical Documents'],
        ['Medical Records', 'Medical Records'],
        ['Dashboard', 'Welcome back, Sarah Johnson'],
        ['Medical Records', 'Medical Records'],
      ] as const) {
        await openFromMenu(page, label, heading);
        await expect.poll(() => headingClearance(page, heading)).toBeGreaterThanOrEqual(0);
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
      }
    });
  }
});

describe('the sign-in page', () => {
  test('lists every demo account and the password in the pre-rendered page', async ({ browser, baseUrl }) => {
    // the page as served, before any script runs
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/');
      const shown = (await page.getByRole('region', { name: 'Demo accounts' }).textContent()) ?? '';
      for (const user of USERS)
        expect(shown).toContain(`${user.name}${user.role === 'patient' ? 'Patient' : 'Doctor'}${user.email}`);
      expect(shown).toContain(`Password for every account: ${DEMO_PASSWORD}`);
    } finally {
      await context.close();
    }
  });
});
