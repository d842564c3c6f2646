// The e2e `test`: one Chromium per test file, a fresh recorded page per test that fails the test on any
// console error or page error the test did not declare.
import type { Browser, Page } from 'playwright-core';
import { test as base, inject } from 'vitest';
import { launch } from './chromium';
import { newPage, type RecordedPage } from './page';

interface FileFixtures {
  browser: Browser;
}

interface TestFixtures {
  recorded: RecordedPage;
  page: Page;
  baseUrl: string;
}

export const test = base.extend<TestFixtures & FileFixtures>({
  browser: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
    async ({}, run) => {
      const browser = await launch(inject('chromiumPath'));
      await run(browser);
      await browser.close();
    },
    { scope: 'file' },
  ],
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
  baseUrl: async ({}, run) => run(inject('baseUrl')),
  recorded: async ({ browser, baseUrl }, run) => {
    const recorded = await newPage(browser, baseUrl);
    await run(recorded);
    const unexpected = recorded.unexpectedProblems();
    await recorded.context.close();
    if (unexpected.length > 0) {
      throw new Error(`The page reported ${unexpected.length} error(s):\n${unexpected.map((p) => `  - ${p}`).join('\n')}`);
    }
  },
  page: async ({ recorded }, run) => run(recorded.page),
});

export { describe, expect } from 'vitest';
