// The login screen pre-rendered at build time (vite.config.ts, prerenderLogin): painted before any JavaScript runs and
// usable then (a Sign In pressed before the app runs is held, public/start-app.js), hidden where the app will show
// another screen, and hydrated in place (the same nodes, no mismatch).
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { describe, expect, test } from './support/fixtures';
import { DESKTOP } from './support/page';
import { settled, stat, text } from './support/read';
import { login } from './support/session';

const hydrationProblems = (messages: string[]) =>
  messages.filter((message) => /pre-rendered|hydrat|#418|#423|did not match/i.test(message));

describe('pre-rendered login screen', () => {
  test('is on screen without JavaScript, its form posted if sent, never put in the address', async ({ browser, baseUrl }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/');
      expect(await page.locator('h1').textContent()).toBe('Sign in');
      expect(await page.locator('#login-email').isEditable()).toBe(true);
      expect(await page.getByRole('button', { name: 'Sign In' }).isEnabled()).toBe(true);
      expect(await page.locator('form').getAttribute('method')).toBe('post');
      expect(await page.getByRole('button', { name: 'Fill Demo Credentials' }).isDisabled()).toBe(true); // needs the app
    } finally {
      await context.close();
    }
  });

  test('a Sign In pressed before the app runs says "Signing in...", and signs in once the app is here', async ({
    browser,
    baseUrl,
  }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    try {
      // the app's entry waits until the form has been sent
      let release = () => {};
      const sent = new Promise<void>((done) => (release = done));
      await context.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
        await sent;
        await route.continue();
      });
      const page = await context.newPage();
      await page.goto('/', { waitUntil: 'commit' });
      await page.locator('label[for="role-patient"]').click();
      await page.getByLabel('Email').fill(DEMO_ACCOUNTS.patient);
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.evaluate(() => ((window as unknown as { before: boolean }).before = true)); // gone if the page loads again
      await page.getByRole('button', { name: 'Sign In' }).click();
      const signingIn = page.getByRole('button', { name: 'Signing in...' });
      await signingIn.waitFor();
      expect(await signingIn.isDisabled()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.classList.contains('app-running'))).toBe(false);
      release();
      await page.waitForURL('**/patient/dashboard');
      await settled(() => text(stat(page, 'Total Records'))).toMatch(/^\d+$/);
      // the browser never sent the form: the same document, no field in the address
      expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before)).toBe(true);
      expect(new URL(page.url()).search).toBe('');
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
    await settled(() => page.getByRole('button', { name: 'Fill Demo Credentials' }).isEnabled()).toBe(true); // hydrated
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
    await settled(() => page.getByRole('button', { name: 'Fill Demo Credentials' }).isEnabled()).toBe(true);
    // what src/ledger's session provider leaves when the worker signed the user out for the server's ledger
    await page.evaluate(() =>
      sessionStorage.setItem(
        'medledger-sign-in-notice',
        "This device now holds the sync server's ledger. Sign in again: its records are signed with the server's keys.",
      ),
    );
    await page.reload();
    await page.getByText("This device now holds the sync server's ledger").waitFor();
    await settled(() => page.getByRole('button', { name: 'Fill Demo Credentials' }).isEnabled()).toBe(true);
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
