// What a new user reads first: each screen opened from the side menu shows its title below the top bar, and the
// sign-in page names the demo accounts and their password before any script runs.
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { USERS } from '../../workers/core/directory';
import { describe, expect, test } from './support/fixtures';
import { DESKTOP, PHONE } from './support/page';
import { login } from './support/session';

// Opens a screen from the side menu as a user would (the phone opens the menu drawer first).
async function openFromMenu(page: Page, label: string): Promise<void> {
  // below Bootstrap's lg breakpoint (992 px) the menu is a drawer
  if ((page.viewportSize()?.width ?? DESKTOP.width) < 992) await page.getByRole('button', { name: 'Open menu' }).click();
  const link = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label, exact: true });
  const path = await link.getAttribute('href');
  await link.click();
  await page.waitForURL((url) => url.pathname === path);
  await page.locator('main h1').first().waitFor();
}

// How far the page title's top sits below the top bar's bottom (negative: hidden under the bar).
function headingClearance(page: Page): Promise<number> {
  return page
    .locator('main h1')
    .first()
    .evaluate((element) => {
      const bar = document.querySelector('.top-bar')?.getBoundingClientRect().bottom ?? 0;
      return element.getBoundingClientRect().top - bar;
    });
}

describe('every screen opened from the side menu', () => {
  for (const role of ['patient', 'doctor'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`shows its title below the top bar, for a ${role} at ${viewport.width} px`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await login(page, role);
        if (viewport.width < 992) await page.getByRole('button', { name: 'Open menu' }).click();
        const links = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link');
        await expect.poll(() => links.count()).toBeGreaterThan(3); // the menu renders once the session is read
        const labels = await links.allTextContents();
        if (viewport.width < 992) await page.getByRole('button', { name: 'Close menu' }).click();
        // every screen, then the two long ones again after a screen that was scrolled: the page starts at its top
        for (const label of [...labels, labels[0], labels[2]].map((text) => text.trim())) {
          await openFromMenu(page, label);
          await expect.poll(() => headingClearance(page)).toBeGreaterThanOrEqual(0);
          await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
        }
      });
    }
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
