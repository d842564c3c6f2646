// Offline and updates (docs/decisions/offline-app.md): the service worker precaches the built app, so after
// one visit it works with the network off; a new version waits for the user's Reload, never under an open
// emergency session.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, serveBuild, type ServedBuild } from './support/build';
import { describe, expect, test } from './support/fixtures';
import { NEXT_VERSION_ASSET, NEXT_VERSION_TEXT } from './support/next-version.config';
import { newPage, type RecordedPage } from './support/page';
import { settled } from './support/read';
import { goTo, openMiningLab, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';

const root = resolve(import.meta.dirname, '../..');

// A page whose service worker runs (the other tests block it), failing the test on any unexpected console error.
async function withServiceWorker(browser: Browser, baseUrl: string, run: (recorded: RecordedPage) => Promise<void>) {
  const recorded = await newPage(browser, baseUrl, { serviceWorkers: 'allow' });
  try {
    await run(recorded);
    expect(recorded.unexpectedProblems()).toEqual([]);
  } finally {
    await recorded.context.close();
  }
}

// Resolves once a service worker controls the page: it has precached every file of the build.
async function serviceWorkerActive(page: Page): Promise<string> {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((claimed) => navigator.serviceWorker.addEventListener('controllerchange', claimed, { once: true }));
    }
    const worker = navigator.serviceWorker.controller;
    if (worker?.state === 'activating') {
      await new Promise((activated) => worker.addEventListener('statechange', activated, { once: true }));
    }
    return worker?.state ?? 'none';
  });
}

async function waitingWorker(page: Page): Promise<boolean> {
  return page.evaluate(async () => (await navigator.serviceWorker.ready).waiting !== null);
}

async function fetchStatus(page: Page, path: string): Promise<string> {
  return page.evaluate(
    (url) =>
      fetch(url, { cache: 'no-store' }).then(
        (response) => `${response.status} ${response.statusText}`,
        (error: unknown) => `failed: ${String(error)}`,
      ),
    path,
  );
}

describe('offline', () => {
  test('after one visit, with the network off, the app reloads, signs in, uploads and shows the record', async ({
    browser,
    baseUrl,
  }) => {
    await withServiceWorker(browser, baseUrl, async ({ page, context, allowProblem }) => {
      const origins = new Set<string>(); // of every request, the service worker's precaching included
      context.on('request', (request) => origins.add(new URL(request.url()).origin));
      await page.goto('/');
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      expect(await serviceWorkerActive(page)).toBe('activated');

      await context.setOffline(true);
      allowProblem(/ERR_INTERNET_DISCONNECTED/); // the probe below
      expect(await fetchStatus(page, '/not-precached.txt')).toMatch(/^failed/);

      await page.reload();
      await login(page, 'patient');
      await uploadRecord(page, 'Offline prescription', [pdfFile('offline-prescription.pdf')]);
      await goTo(page, 'Medical Records', 'Medical Records');
      await recordItem(page, 'Offline prescription').waitFor();
      await openMiningLab(page); // through the explorer, which it shows first
      expect(await fetchStatus(page, '/not-precached.txt')).toMatch(/^failed/); // still offline throughout
      expect([...origins]).toEqual([baseUrl]);
    });
  });
});

describe('update prompt', () => {
  let firstDir = '';
  let nextDir = '';
  let served: ServedBuild | undefined;

  beforeAll(async () => {
    firstDir = mkdtempSync(join(tmpdir(), 'medledger-first-'));
    nextDir = mkdtempSync(join(tmpdir(), 'medledger-next-'));
    cpSync(join(root, 'dist'), firstDir, { recursive: true });
    await buildApp(['--config', 'tests/e2e/support/next-version.config.ts', '--outDir', nextDir, '--emptyOutDir']);
  }, 180_000);

  afterAll(async () => {
    await served?.server.close();
    rmSync(firstDir, { recursive: true, force: true });
    rmSync(nextDir, { recursive: true, force: true });
  });

  test('a new version shows "Update available" with Reload, held while an emergency session is open', async ({ browser }) => {
    served = await serveBuild(firstDir);
    const { port, url } = served;
    await withServiceWorker(browser, url, async ({ page }) => {
      await login(page, 'doctor');
      expect(await serviceWorkerActive(page)).toBe('activated');
      await goTo(page, 'SOS Emergency', 'SOS Emergency Access');
      await page.getByRole('radio', { name: /Michael Chen/ }).check();
      await page.getByLabel('Reason for emergency access').fill('Unconscious in the ER');
      await page.getByRole('button', { name: 'Grant Emergency Access' }).click();
      const session = page.getByRole('region', { name: 'Emergency Access Active' });
      await session.waitFor();

      // the next version goes live on the same origin; the browser finds it on its next update check
      await served?.server.close();
      served = await serveBuild(nextDir, port);
      await page.evaluate(async () => (await navigator.serviceWorker.ready).update());

      const prompt = page.getByRole('status').filter({ hasText: 'Update available' });
      const reload = prompt.getByRole('button', { name: 'Reload' });
      await prompt.waitFor();
      await settled(() => reload.isDisabled()).toBe(true);
      await settled(() => prompt.textContent()).toContain('End the emergency session first.');
      await settled(() => waitingWorker(page)).toBe(true); // installed, not in charge: the page still runs the first version

      await session.getByRole('button', { name: 'End Emergency Session' }).click();
      await page.getByText('Emergency session for Michael Chen ended.').waitFor();
      await settled(() => reload.isEnabled()).toBe(true);
      await Promise.all([page.waitForEvent('load'), reload.click()]);
      await settled(() => waitingWorker(page)).toBe(false);
      await settled(() => prompt.count()).toBe(0);
      // with the server gone, the new version's own file still answers: the page runs the next version
      await served?.server.close();
      served = undefined;
      const text = await page.evaluate((path) => fetch(path).then((response) => response.text()), `/${NEXT_VERSION_ASSET}`);
      expect(text).toBe(NEXT_VERSION_TEXT);
    });
  }, 120_000);
});
