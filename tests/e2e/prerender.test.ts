// The login screen pre-rendered at build time (vite.config.ts, prerenderLogin): painted before any JavaScript runs,
// disabled until React has hydrated it, hidden where the app will show another screen, and hydrated in place (the
// same nodes, no mismatch).
import { describe, expect, test } from './support/fixtures';
import { DESKTOP } from './support/page';
import { settled, stat, text } from './support/read';
import { login } from './support/session';

const hydrationProblems = (messages: string[]) =>
  messages.filter((message) => /pre-rendered|hydrat|#418|#423|did not match/i.test(message));

describe('pre-rendered login screen', () => {
  test('is on screen without JavaScript, its form disabled and busy until the app runs', async ({ browser, baseUrl }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/');
      expect(await page.locator('h1').textContent()).toBe('Sign in');
      expect(await page.locator('#login-email').isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Sign In' }).isDisabled()).toBe(true);
      expect(await page.locator('#login-email').isDisabled()).toBe(true);
      expect(await page.locator('form').getAttribute('aria-busy')).toBe('true');
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

  test('React hydrates the same nodes with no mismatch, and the form goes live', async ({ page, recorded }) => {
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto('/');
    await page.evaluate(() => {
      (window as unknown as { firstButton: Element | null }).firstButton = document.querySelector('button[type=submit]');
    });
    await page.locator('form[aria-busy="false"]').waitFor();
    await settled(() => page.getByRole('button', { name: 'Sign In' }).isEnabled()).toBe(true);
    await settled(() =>
      page.evaluate(
        () =>
          (window as unknown as { firstButton: Element | null }).firstButton === document.querySelector('button[type=submit]'),
      ),
    ).toBe(true);
    await page.getByLabel('Email').fill('someone@example.com');
    await settled(() => page.getByLabel('Email').inputValue()).toBe('someone@example.com');
    expect(hydrationProblems(messages)).toEqual([]);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });

  test('a login screen with a word for the user is hydrated too, and then shows the word', async ({ page, recorded }) => {
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto('/');
    await page.locator('form[aria-busy="false"]').waitFor();
    // what src/ledger's session provider leaves when the worker signed the user out for the server's ledger
    await page.evaluate(() =>
      sessionStorage.setItem(
        'medledger-sign-in-notice',
        "This device now holds the sync server's ledger. Sign in again: its records are signed with the server's keys.",
      ),
    );
    await page.reload();
    await page.getByText("This device now holds the sync server's ledger").waitFor();
    await page.locator('form[aria-busy="false"]').waitFor();
    expect(hydrationProblems(messages)).toEqual([]);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });

  test("a returning user's dashboard shows its data, with focus on its heading", async ({ page, recorded }) => {
    await login(page, 'patient');
    await page.reload();
    const heading = page.getByRole('heading', { level: 1, name: 'Welcome back, Sarah Johnson' });
    await heading.waitFor();
    await settled(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
    await settled(() => text(stat(page, 'Total Records'))).toMatch(/^\d+$/);
    expect(await page.locator('#login-email').count()).toBe(0);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });

  test("the app's code and the login's are requested with the page, not after the entry has run", async ({ page }) => {
    await page.goto('/');
    const preloaded = await page
      .locator('link[rel=modulepreload]')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
    expect(preloaded.some((path) => /\/start-app-[\w-]+\.js$/.test(path))).toBe(true);
    expect(preloaded.some((path) => /\/base-[\w-]+\.js$/.test(path))).toBe(true); // React, the router, the shared code
    expect(preloaded.some((path) => /\/login-page-[\w-]+\.js$/.test(path))).toBe(true);
  });
});
