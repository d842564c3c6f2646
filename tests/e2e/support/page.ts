import type { Browser, BrowserContext, Page } from 'playwright-core';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export interface RecordedPage {
  page: Page;
  context: BrowserContext;
  // console errors and uncaught page errors seen so far, in order
  problems: string[];
  // a test that provokes an error on purpose declares it, so only the unexpected ones fail it
  allowProblem(pattern: RegExp): void;
  unexpectedProblems(): string[];
}

// A fresh context (own localStorage and IndexedDB) per page, recording every console error and page error.
// The service worker is blocked unless asked for: a test's page.route must see every request, and only the
// offline tests (offline.test.ts) are about the worker.
export async function newPage(
  browser: Browser,
  baseUrl: string,
  { serviceWorkers = 'block' }: { serviceWorkers?: 'allow' | 'block' } = {},
): Promise<RecordedPage> {
  // reduced motion, which Bootstrap honours: checks see the settled screen, never a dialog caught mid-fade
  const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, reducedMotion: 'reduce', serviceWorkers });
  // fail fast: every screen answers within a few seconds; waits that need longer pass their own timeout
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems: string[] = [];
  const allowed: RegExp[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url, lineNumber } = message.location();
    problems.push(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.name}: ${error.message}`));
  // worker errors surface as console errors of the page in Chromium; a crash is a problem of its own
  page.on('crash', () => problems.push('page crashed'));
  return {
    page,
    context,
    problems,
    allowProblem: (pattern) => allowed.push(pattern),
    unexpectedProblems: () => problems.filter((problem) => !allowed.some((pattern) => pattern.test(problem))),
  };
}
