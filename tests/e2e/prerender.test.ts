// The login screen pre-rendered at build time (vite.config.ts, prerenderLogin): painted before any JavaScript
// runs, hidden where the app will show another screen, and taken over by React in place (hydrated, same nodes).
import { describe, expect, test } from './support/fixtures';
import { DESKTOP } from './support/page';
import { settled } from './support/read';

describe('pre-rendered login screen', () => {
  test('is on screen without JavaScript, inert and read-only until the app runs', async ({ browser, baseUrl }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/');
      expect(await page.locator('h1').textContent()).toBe('Sign in');
      expect(await page.locator('#login-email').isVisible()).toBe(true);
      expect(await page.locator('form').getAttribute('inert')).toBe('');
      expect(await page.locator('#login-email').getAttribute('readonly')).toBe('');
    } finally {
      await context.close();
    }
  });

  test('is hidden, while the app loads, at any other path and for a stored session', async ({ browser, baseUrl }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    try {
      // public/start-app.js runs, the app's entry never arrives: what shows is the pre-rendered page alone
      await context.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
      const page = await context.newPage();
      await page.goto('/');
      await settled(() => page.locator('#login-email').isVisible()).toBe(true);
      await page.goto('/patient/dashboard');
      await settled(() => page.locator('#login-email').count()).toBe(1);
      await settled(() => page.locator('#login-email').isVisible()).toBe(false);
      await page.evaluate(() => localStorage.setItem('currentUser', JSON.stringify({ id: 'patient-1' })));
      await page.goto('/');
      await settled(() => page.locator('#login-email').isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });

  test('the app takes over the same nodes: no second render, and the form is live', async ({ page, recorded }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto('/');
    await page.evaluate(() => {
      (window as unknown as { firstHeading: Element | null }).firstHeading = document.querySelector('h1');
    });
    await page.locator('form:not([inert])').waitFor();
    await settled(() =>
      page.evaluate(() => (window as unknown as { firstHeading: Element | null }).firstHeading?.isConnected),
    ).toBe(true);
    await settled(() => page.locator('[data-prerendered]').count()).toBe(0);
    await page.getByLabel('Email').fill('someone@example.com');
    await settled(() => page.getByLabel('Email').inputValue()).toBe('someone@example.com');
    expect(warnings.filter((warning) => warning.includes('pre-rendered'))).toEqual([]);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });
});
