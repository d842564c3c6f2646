// The login screen pre-rendered at build time (vite.config.ts, prerenderScreens): painted before any JavaScript
// runs, hidden where the app will show another screen, and taken over by React in place (hydrated, same nodes).
// A returning user's dashboard frame, pre-rendered the same way: shown before the app runs, replaced once its data is in.
import { describe, expect, test } from './support/fixtures';
import { DESKTOP } from './support/page';
import { settled, stat, text } from './support/read';
import { login, logout } from './support/session';

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

  test('a login screen with a word for the user (this device took the sync server ledger) is rendered afresh, not hydrated: no hydration error', async ({
    page,
    recorded,
  }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto('/');
    await page.locator('form:not([inert])').waitFor();
    // what src/ledger's session provider leaves when the worker signed the user out for the server's ledger
    await page.evaluate(() =>
      sessionStorage.setItem(
        'medledger-sign-in-notice',
        "This device now holds the sync server's ledger. Sign in again: its records are signed with the server's keys.",
      ),
    );
    await page.reload();
    await page.getByText("This device now holds the sync server's ledger").waitFor();
    await page.locator('form:not([inert])').waitFor();
    await settled(() => page.locator('#login-email').isVisible()).toBe(true);
    expect(warnings.filter((warning) => /pre-rendered|Hydration|#418/.test(warning))).toEqual([]);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });

  test('a returning user sees their dashboard frame before the app runs: from the user list, inert, saying the records are being checked', async ({
    browser,
    baseUrl,
  }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    try {
      // public/start-app.js runs, the app's entry never arrives: what shows is the pre-rendered frame alone
      await context.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
      const page = await context.newPage();
      await page.goto('/');
      // only the id picks the frame: a name stored beside it is never shown
      await page.evaluate(() => localStorage.setItem('currentUser', JSON.stringify({ id: 'doctor-1', name: 'Someone Else' })));
      await page.goto('/doctor/dashboard');
      const frame = page.locator('#prerendered-shell');
      await settled(() => frame.locator('h1').textContent()).toBe('Welcome, Dr. Emily Carter');
      expect(await frame.getAttribute('inert')).toBe('');
      const shown = (await frame.textContent()) ?? '';
      expect(shown).toContain('Checking your records on this device...');
      expect(shown).not.toContain('Someone Else');
      expect(await page.locator('#root').isVisible()).toBe(false);
      // the app renders beneath the frame, out of the accessibility tree until it shows
      expect(await page.locator('#root').getAttribute('aria-hidden')).toBe('true');
      // the same user at another role's dashboard, or an unknown id: no frame, nothing painted until the app runs
      await page.goto('/patient/dashboard');
      await settled(() => page.locator('#prerendered-shell').count()).toBe(0);
      await page.evaluate(() => localStorage.setItem('currentUser', JSON.stringify({ id: 'nobody' })));
      await page.goto('/');
      await settled(() => page.locator('#prerendered-shell').count()).toBe(0);
      // no frame to replace it: the login is laid out again (public/start-app.js's shell-pending is gone), still hidden,
      // for the app to render over
      await settled(() => page.evaluate(() => document.getElementById('login-email')?.getClientRects().length)).toBe(1);
      expect(await page.locator('#login-email').isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });

  test("the app's dashboard takes the frame's place once its data is in, with focus on its heading", async ({
    page,
    recorded,
  }) => {
    await login(page, 'patient');
    await page.reload();
    await settled(() => page.locator('#prerendered-shell').count()).toBe(0);
    const heading = page.getByRole('heading', { level: 1, name: 'Welcome back, Sarah Johnson' });
    await heading.waitFor();
    await settled(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await text(stat(page, 'Total Records'))).not.toBe('...');
    expect(await page.locator('.page-spinner').count()).toBe(0);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });

  test("the login a returning user's frame replaces is not laid out before the frame shows", async ({ browser, baseUrl }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    type Seen = { pendingWhileParsed?: boolean };
    try {
      await context.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort()); // the frame alone, as above
      // the page is parsed, the frame not yet shown (public/start-app.js shows it on DOMContentLoaded, after this)
      await context.addInitScript(() =>
        document.addEventListener('readystatechange', () => {
          if (document.readyState !== 'interactive') return;
          (window as Seen).pendingWhileParsed = document.documentElement.classList.contains('shell-pending');
        }),
      );
      const page = await context.newPage();
      await page.goto('/');
      await page.evaluate(() => localStorage.setItem('currentUser', JSON.stringify({ id: 'patient-1' })));
      await page.goto('/patient/dashboard');
      await page.locator('#prerendered-shell h1').waitFor();
      expect(await page.evaluate(() => (window as Seen).pendingWhileParsed)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.classList.contains('shell-pending'))).toBe(false);
      // what that class does (src/app/prerender.css): #root, the login in it, has no box at all
      const display = () =>
        page.evaluate(() => {
          document.documentElement.classList.add('shell-pending');
          return getComputedStyle(document.getElementById('root') as HTMLElement).display;
        });
      expect(await display()).toBe('none');
    } finally {
      await context.close();
    }
  });

  test("a returning user's dashboard code is requested with the start's, and the first render adds no link of its own", async ({
    page,
    recorded,
  }) => {
    await login(page, 'doctor');
    await page.reload();
    // the app's screen has taken the frame's place: its first render and every preload of start-app.js are done
    await settled(() => page.locator('#prerendered-shell').count()).toBe(0);
    await page.getByRole('heading', { level: 1, name: 'Welcome, Dr. Emily Carter' }).waitFor();
    const listed = async (name: string) =>
      ((await page.locator('script[data-preload]').getAttribute(name)) ?? '').split(' ').filter(Boolean);
    const doctor = await listed('data-preload-doctor');
    expect(doctor.some((path) => path.includes('doctor-dashboard-page'))).toBe(true);
    // public/start-app.js's links carry no `as`; Vite's preload helper, which a lazy screen's import goes through, adds
    // as="script" to the links it inserts
    const links = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('link[rel=modulepreload]')].map((link) => ({
          path: new URL((link as HTMLLinkElement).href).pathname,
          as: link.getAttribute('as'),
        })),
      );
    const inserted = await links();
    for (const path of doctor) expect(inserted.filter((link) => link.path === path)).toEqual([{ path, as: null }]);
    // the other role's dashboard is not fetched
    const patient = (await listed('data-preload-patient')).find((path) => path.includes('patient-dashboard-page'));
    expect(patient).toBeTruthy();
    expect(inserted.some((link) => link.path === patient)).toBe(false);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });

  // vite.config.ts, compileFirstScreensEagerly: Chromium compiles all of their functions while they stream in
  test("the first screens' code asks to be compiled as it loads; a screen fetched ahead for later does not", async ({
    page,
    recorded,
  }) => {
    const code = (path: string) => page.evaluate(async (url) => (await fetch(url)).text(), path);
    const firstLine = async (path: string) => (await code(path)).split('\n')[0];
    await page.goto('/');
    const starter = page.locator('script[data-preload]');
    const listed = async (name: string) => ((await starter.getAttribute(name)) ?? '').split(' ').filter(Boolean);
    let withCode = 0; // not the few re-exports and the bundler's 600-byte runtime
    for (const path of [...(await listed('data-preload')), ...(await listed('data-preload-guest'))]) {
      const text = await code(path);
      if (text.length <= 1000) continue;
      withCode += 1;
      expect(`${path}: ${text.split('\n')[0]}`).toBe(`${path}: //# allFunctionsCalledOnLoad`);
    }
    expect(withCode).toBeGreaterThan(5);
    await login(page, 'patient');
    // PrefetchScreens fetches the records screen once the dashboard is shown and the browser idle
    const later = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .find((path) => /\/records-page-[\w-]+\.js$/.test(path)),
      );
    await settled(later).toBeTruthy();
    expect(await firstLine((await later()) ?? '')).not.toContain('allFunctionsCalledOnLoad');
    expect(recorded.unexpectedProblems()).toEqual([]);
  });

  test("the login screen's code comes for a visitor, and not before a returning user's dashboard shows its data", async ({
    page,
    recorded,
  }) => {
    // the login screen's chunks, as the build lists them for public/start-app.js
    const loginChunks = async () =>
      ((await page.locator('script[data-preload-guest]').getAttribute('data-preload-guest')) ?? '').split(' ').filter(Boolean);
    // the app's requests up to its first screen with data (src/app/mount-app.tsx marks it)
    const requestedBeforeFirstScreen = () =>
      page.evaluate(async () => {
        while (performance.getEntriesByName('medledger:first-screen').length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const shown = performance.getEntriesByName('medledger:first-screen')[0].startTime;
        return performance
          .getEntriesByType('resource')
          .filter((entry) => entry.startTime <= shown)
          .map((entry) => new URL(entry.name).pathname);
      });
    await page.goto('/');
    const chunks = await loginChunks();
    expect(chunks.length).toBeGreaterThan(0);
    await page.locator('form:not([inert])').waitFor(); // the login screen's code has run: its chunks are in
    const requested = () =>
      page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname));
    expect(await requested()).toEqual(expect.arrayContaining(chunks));
    await login(page, 'patient');
    await page.reload();
    const beforeData = await requestedBeforeFirstScreen();
    expect(beforeData.some((path) => path.includes('patient-dashboard-page'))).toBe(true);
    expect(beforeData.filter((path) => chunks.includes(path))).toEqual([]);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });
  test("the login and both dashboards show their first screen without starting Intl (ICU's start is a long task)", async ({
    page,
    recorded,
  }) => {
    // every Intl service and locale-aware method the app could reach, noted as it is called
    await page.addInitScript(() => {
      const calls: string[] = [];
      (window as unknown as { intlCalls: string[] }).intlCalls = calls;
      for (const name of [
        'DateTimeFormat',
        'NumberFormat',
        'Collator',
        'PluralRules',
        'RelativeTimeFormat',
        'ListFormat',
      ] as const) {
        const service = Intl[name] as unknown as new (...args: unknown[]) => object;
        Object.defineProperty(Intl, name, {
          value: new Proxy(service, {
            construct(target, args) {
              calls.push(name);
              return Reflect.construct(target, args);
            },
            apply(target, self, args) {
              calls.push(name);
              return Reflect.apply(target, self, args);
            },
          }),
        });
      }
      const methods = [
        [Number.prototype, 'toLocaleString'],
        [Date.prototype, 'toLocaleString'],
        [Date.prototype, 'toLocaleDateString'],
        [Date.prototype, 'toLocaleTimeString'],
        [String.prototype, 'localeCompare'],
      ] as const;
      for (const [prototype, name] of methods) {
        const method = (prototype as unknown as Record<string, (...args: unknown[]) => unknown>)[name];
        Object.defineProperty(prototype, name, {
          value: function (this: unknown, ...args: unknown[]) {
            calls.push(name);
            return method.apply(this, args);
          },
        });
      }
    });
    const intlCalls = () => page.evaluate(() => (window as unknown as { intlCalls: string[] }).intlCalls);
    const firstScreen = () => page.waitForFunction(() => performance.getEntriesByName('medledger:first-screen').length > 0);
    await page.goto('/');
    await page.locator('form:not([inert])').waitFor();
    await firstScreen();
    expect(await intlCalls()).toEqual([]);
    for (const role of ['patient', 'doctor'] as const) {
      await login(page, role);
      await page.reload();
      await firstScreen();
      await settled(() => page.locator('#prerendered-shell').count()).toBe(0);
      expect(await intlCalls()).toEqual([]);
      await logout(page);
    }
    // the watch itself works: a call is noted
    await page.evaluate(() => (1234).toLocaleString('en-US'));
    expect(await intlCalls()).toEqual(['toLocaleString']);
    expect(recorded.unexpectedProblems()).toEqual([]);
  });
});
