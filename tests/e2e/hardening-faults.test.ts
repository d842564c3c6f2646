// Issue 5, faults in the built app: the worker dies or throws, IndexedDB refuses a write, the user leaves
// mid-upload. Faults are injected from outside the product, with no test hook in it: Playwright runs code
// in the worker, or a route serves a broken worker script.
import type { Page, Worker } from 'playwright-core';
import { formatViolations, scanA11y } from './support/axe';
import { describe, expect, test } from './support/fixtures';
import { detail, section, settled, stat, text } from './support/read';
import { login, pathOf } from './support/session';
import { orphans, readStoredLedger } from './support/stored-ledger';
import { documentIdsOf } from '../support/chain-records';

const WORKER_SCRIPT = '**/assets/ledger.worker-*.js';

async function ledgerWorker(page: Page): Promise<Worker> {
  const found = page.workers().find((worker) => /ledger\.worker/.test(worker.url()));
  if (found) return found;
  return page.waitForEvent('worker', { predicate: (worker) => /ledger\.worker/.test(worker.url()) });
}

async function openUpload(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Upload Documents' }).click();
  await page.getByRole('heading', { name: 'Upload Medical Documents' }).waitFor();
}

async function uploadThroughForm(page: Page, title: string, bytes = 64): Promise<void> {
  await openUpload(page);
  await page
    .getByLabel('Add files')
    .setInputFiles({ name: `${title}.pdf`, mimeType: 'application/pdf', buffer: Buffer.alloc(bytes, 3) });
  await page.getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Upload Documents' }).click();
}

// Puts a file of `megabytes` MB on the form without shipping it through the test pipe: made in the page, dropped.
async function dropGeneratedFile(page: Page, name: string, megabytes: number): Promise<void> {
  await page.getByTestId('drop-zone').evaluate(
    (zone, { name, megabytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(megabytes * 1024 * 1024).fill(5)], name, { type: 'application/pdf' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
    },
    { name, megabytes },
  );
}

const success = (page: Page) => page.getByRole('status').filter({ hasText: 'Upload successful' });
const failureScreen = (page: Page) => page.getByRole('heading', { name: 'The records service stopped' });

async function openDashboard(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
  await page.waitForURL('**/patient/dashboard');
  await detail(section(page, 'Blockchain Status'), 'Total Blocks').waitFor();
}

// What the dashboard shows now: its record list and chain status load apart, so read it with settled().
async function figures(page: Page): Promise<{ totalRecords: number; totalBlocks: number; chain: string; titles: string[] }> {
  const status = section(page, 'Blockchain Status');
  return {
    totalRecords: Number(await text(stat(page, 'Total Records'))),
    totalBlocks: Number(await text(detail(status, 'Total Blocks'))),
    chain: await text(detail(status, 'Chain Status')),
    titles: await section(page, 'Recent Medical Records').locator('.record-title').allTextContents(),
  };
}

describe('the worker dies or throws', () => {
  test('a worker that closes itself mid-session gives the error screen; Restart brings every saved record back', async ({
    page,
  }) => {
    await login(page, 'patient');
    for (const title of ['Before the fault 1', 'Before the fault 2']) {
      await uploadThroughForm(page, title);
      await success(page).waitFor();
    }
    const storedBefore = await readStoredLedger(page);
    await openDashboard(page);
    await settled(async () => (await figures(page)).totalBlocks).toBe(storedBefore.blocks.length);
    await settled(async () => (await figures(page)).titles.slice(0, 2)).toEqual(['Before the fault 2', 'Before the fault 1']);
    const before = await figures(page);

    await (await ledgerWorker(page)).evaluate(() => self.close()); // the worker stops; it will never answer again
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Blockchain Explorer' }).click();
    await failureScreen(page).waitFor({ timeout: 20_000 });
    await settled(() => page.evaluate(() => document.activeElement?.textContent)).toBe('The records service stopped');
    await settled(() => text(page.getByRole('alert'))).toContain('The records service stopped answering.');
    await settled(() => page.getByRole('button', { name: 'Reload the page' }).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Restart the records service' }).click();
    await page.locator('#explorer-tabs-tabpane-chain').getByText('Chain valid.').waitFor();
    expect(pathOf(page)).toBe('/patient/blockchain');
    await openDashboard(page);
    await settled(() => figures(page)).toEqual(before);
    const storedAfter = await readStoredLedger(page);
    expect(storedAfter.blocks.map((block) => block.hash)).toEqual(storedBefore.blocks.map((block) => block.hash));
    expect(storedAfter.documents).toHaveLength(2);

    await uploadThroughForm(page, 'After the restart');
    await success(page).waitFor();
    await openDashboard(page);
    await settled(async () => (await figures(page)).totalBlocks).toBe(before.totalBlocks + 1);
  });

  test('an uncaught error thrown in the worker gives the error screen at once; Restart works', async ({ page, recorded }) => {
    recorded.allowProblem(/simulated worker fault/);
    await login(page, 'patient');
    await uploadThroughForm(page, 'Saved first');
    await success(page).waitFor();
    const worker = await ledgerWorker(page);
    await worker.evaluate(() => {
      setTimeout(() => {
        throw new Error('simulated worker fault');
      });
    });
    await failureScreen(page).waitFor({ timeout: 5_000 });
    await settled(() => text(page.getByRole('alert'))).toContain('The records service failed');
    await page.getByRole('button', { name: 'Restart the records service' }).click();
    await openDashboard(page);
    await settled(async () => (await figures(page)).titles[0]).toBe('Saved first');
    await settled(async () => (await figures(page)).chain).toBe('Valid');
  });

  test('a worker script that throws as it starts gives the error screen, not a blank page; Restart loads a good one', async ({
    page,
    recorded,
  }) => {
    recorded.allowProblem(/simulated start failure/);
    await page.route(WORKER_SCRIPT, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: "throw new Error('simulated start failure');" }),
    );
    await page.goto('/');
    await failureScreen(page).waitFor({ timeout: 10_000 });
    await settled(() => page.getByRole('button', { name: 'Restart the records service' }).isVisible()).toBe(true);
    const violations = await scanA11y(page);
    expect(violations, formatViolations(violations)).toEqual([]);

    await page.unroute(WORKER_SCRIPT);
    await page.getByRole('button', { name: 'Restart the records service' }).click();
    await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/patient/dashboard');
    await openDashboard(page);
    await settled(async () => (await figures(page)).chain).toBe('Valid');
  });
});

describe('IndexedDB refuses a write', () => {
  // A full disk, from inside the worker: storing the encrypted bytes throws QuotaExceededError, after the
  // block and the document metadata were already put in the same transaction. (The DevTools quota override
  // has no effect on Playwright's off-the-record contexts, so the refusal is made where the write happens.)
  async function refuseContentWrites(worker: Worker, refuse: boolean): Promise<void> {
    await worker.evaluate((on) => {
      const proto = IDBObjectStore.prototype as IDBObjectStore & { realPut?: IDBObjectStore['put'] };
      proto.realPut ??= proto.put;
      proto.put = on
        ? function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
            if (this.name === 'contents') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
            return proto.realPut!.apply(this, args);
          }
        : proto.realPut;
    }, refuse);
  }

  test('a refused write fails the upload with a message, stores nothing, keeps the form and earlier data', async ({
    page,
    recorded,
  }) => {
    recorded.allowProblem(/upload failed/);
    await login(page, 'patient');
    await uploadThroughForm(page, 'Earlier record');
    await success(page).waitFor();
    const before = await readStoredLedger(page);

    const worker = await ledgerWorker(page);
    await refuseContentWrites(worker, true);
    await openUpload(page);
    await dropGeneratedFile(page, 'mri-series.pdf', 4);
    await page.getByLabel('Title').fill('MRI series');
    await page.getByLabel(/Description/).fill('Too big for what is left');
    await page.getByRole('button', { name: 'Upload Documents' }).click();

    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 20_000 });
    await settled(() => text(alert)).toBe(
      'The upload was not saved: this device has no room left for MedLedger. Free some space (or delete files you no longer need), then try again.',
    );
    await settled(() => alert.evaluate((element) => element === document.activeElement)).toBe(true);
    await settled(() => page.getByLabel('Title').inputValue()).toBe('MRI series');
    await settled(() => page.getByLabel(/Description/).inputValue()).toBe('Too big for what is left');
    await settled(() => page.locator('.selected-file-name').allTextContents()).toEqual(['mri-series.pdf']);
    const refused = await readStoredLedger(page); // read after the refusal above: the failed write is over
    expect(refused.blocks.map((block) => block.hash)).toEqual(before.blocks.map((block) => block.hash));
    expect(refused.documents.map((document) => document.id)).toEqual(before.documents.map((document) => document.id));
    expect(orphans(refused)).toEqual([]);

    await refuseContentWrites(worker, false); // the disk has room again
    await page.getByRole('button', { name: 'Upload Documents' }).click();
    await success(page).waitFor({ timeout: 20_000 });
    await openDashboard(page);
    await settled(async () => (await figures(page)).titles.slice(0, 2)).toEqual(['MRI series', 'Earlier record']);
    await settled(async () => (await figures(page)).chain).toBe('Valid');
    expect(orphans(await readStoredLedger(page))).toEqual([]);
  });
});

describe('leaving the page mid-upload', () => {
  test('never leaves a half-written record, whenever the page goes away', async ({ page }) => {
    await login(page, 'patient');
    const start = async (i: number) => {
      await page.goto('/patient/upload');
      await dropGeneratedFile(page, `scan-${i}.pdf`, 10);
      await page.getByLabel('Title').fill(`Interrupted ${i}`);
      await page.getByRole('button', { name: 'Upload Documents' }).click();
      return Date.now();
    };
    // one whole upload of 10 MB first: the leave times below are fractions of it, so they reach into the
    // encryption and the IndexedDB write (its last part) on a fast machine and a slow one alike
    const clicked = await start(0);
    await success(page).waitFor({ timeout: 20_000 });
    const wholeMs = Date.now() - clicked;
    let blocks = (await readStoredLedger(page)).blocks.length;
    const outcomes: string[] = [];
    for (const [i, fraction] of [0.3, 0.8, 0.88, 0.94, 1].entries()) {
      const wait = Math.round(wholeMs * fraction);
      await start(i + 1);
      await page.waitForTimeout(wait); // a moment to leave at, not a wait for a state
      await page.goto('/patient/dashboard'); // unloads the page and with it the worker

      const stored = await readStoredLedger(page);
      expect(orphans(stored), `left after ${wait} ms`).toEqual([]);
      const added = stored.blocks.length - blocks;
      expect([0, 1], `left after ${wait} ms`).toContain(added);
      if (added === 1) {
        const record = stored.opened.at(-1)!.data; // as stored, sealed; opened with the keys stored beside it
        expect(record.title).toBe(`Interrupted ${i + 1}`);
        expect(stored.documents.find((document) => document.id === documentIdsOf(record)[0])?.fileSize).toBe(10 * 1024 * 1024);
      }
      outcomes.push(`${wait} ms: ${added === 1 ? 'stored whole' : 'not stored'}`);
      blocks = stored.blocks.length;
      await openDashboard(page);
      await settled(async () => (await figures(page)).chain).toBe('Valid');
      await settled(async () => (await figures(page)).totalBlocks).toBe(blocks);
    }
    console.log(`[leaving mid-upload] a whole upload took ${wholeMs} ms; left after ${outcomes.join('; ')}`);
  });
});
