// Stored data the chain cannot vouch for, in the real browser: a block IndexedDB accepts but JSON cannot hold,
// and a database of the earlier MedLedger. Each is named in the banner, sign-in still works, Reset starts over.
import type { Page } from 'playwright-core';
import { describe, test } from './support/fixtures';
import { detail, section, settled, text } from './support/read';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';
import { readStoredLedger, storeBlocks } from './support/stored-ledger';

const banner = (page: Page) => page.getByRole('status').filter({ hasText: 'The stored chain failed verification' });

// Puts a BigInt into block #index's record: IndexedDB stores it, JSON (and so the data hash) cannot.
async function storeBigIntInBlock(page: Page, index: number): Promise<void> {
  const block = (await readStoredLedger(page)).blocks[index];
  await storeBlocks(page, [{ ...block, data: { ...block.data, title: 10n as unknown as string } }]); // Playwright passes a BigInt as one
}

async function resetDemoData(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Reset demo data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset demo data?' });
  await dialog.getByRole('button', { name: 'Reset demo data' }).click();
  await banner(page).waitFor({ state: 'detached' });
}

describe('stored data the chain cannot hold', () => {
  test('a block holding a BigInt is named after a reload, sign-in still works, and Reset demo data starts over', async ({
    page,
  }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Genuine record', [pdfFile('genuine.pdf')]);
    await storeBigIntInBlock(page, 1);
    await page.reload();
    await banner(page).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await login(page, 'patient'); // the worker loads the stored ledger again: sign-in must not fail on it

    await banner(page).waitFor();
    await settled(() => text(banner(page))).toContain(
      'Block #1 failed a check: block is malformed (its record holds a value JSON cannot hold).',
    );
    await goTo(page, 'Medical Records', 'Medical Records');
    await recordItem(section(page, 'Your Records'), 'Initial health assessment').waitFor();

    await resetDemoData(page);
    await goTo(page, 'Dashboard', /Welcome back/);
    const status = section(page, 'Blockchain Status');
    await status.getByText('Valid', { exact: true }).waitFor();
    await settled(() => text(detail(status, 'Total Blocks'))).toBe('1');
  });

  test('a database of the earlier MedLedger is recognised and named, and Reset demo data starts over', async ({ page }) => {
    // a blank page of the app's origin: the app (and its worker, which would create version 2) must not run first
    await page.route('**/blank', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }),
    );
    await page.goto('/blank');
    await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('medledger', 1);
        request.onupgradeneeded = () => {
          for (const name of ['blocks', 'contents', 'meta']) request.result.createObjectStore(name);
          for (const name of ['documents', 'grants']) request.result.createObjectStore(name, { keyPath: 'id' });
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(['blocks', 'grants', 'meta'], 'readwrite');
        tx.objectStore('blocks').put(
          {
            id: '0',
            hash: 'h',
            previousHash: '0'.repeat(64),
            timestamp: '2026-01-01T00:00:00.000Z',
            dataHash: 'd',
            data: { title: 'Old' },
            nonce: 1,
          },
          0,
        );
        tx.objectStore('grants').put({ id: 'g', isActive: true, accessLevel: 'full' });
        tx.objectStore('meta').put(3, 'revision');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    });
    await login(page, 'doctor');
    await banner(page).waitFor();
    await settled(() => text(banner(page))).toContain('stored by an earlier version of MedLedger');
    await resetDemoData(page);
    await settled(() => banner(page).count()).toBe(0);
  });
});
