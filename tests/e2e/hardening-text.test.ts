// Issue 12 items 7 and 8 in the built app: a file name hiding its direction is refused on screen and by the
// real worker in the same words, an NFD search finds an NFC title, and a file dropped outside the drop zone
// goes to the upload form (on other pages it is refused), with the page never leaving the app.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { describe, expect, test } from './support/fixtures';
import { settled, text } from './support/read';
import { login, pathOf } from './support/session';

const DISGUISED = 'invoice\u202Efdp.pdf';
const REFUSED = '"invoice[U+202E]fdp.pdf" has a hidden control or text-direction character in its name';
const NFC_TITLE = 'R\u00E9sum\u00E9 of care';

async function openUpload(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Upload Documents' }).click();
  await page.getByRole('heading', { name: 'Upload Medical Documents' }).waitFor();
}

const notAdded = (page: Page) => page.getByRole('alert').filter({ hasText: 'Not added:' });
const selectedNames = (page: Page) => page.locator('.selected-file-name').allTextContents();

// An upload sent straight to a second copy of the built worker in comlink's wire format, as any script of the
// origin could: the screen's check is not the only one.
async function uploadThroughWorker(page: Page, fileName: string): Promise<unknown> {
  const workerUrl = page
    .workers()
    .find((worker) => /ledger\.worker/.test(worker.url()))
    ?.url();
  if (!workerUrl) throw new Error('the app did not start its ledger worker');
  return page.evaluate(
    async ({ workerUrl, email, password, fileName }) => {
      const worker = new Worker(workerUrl, { type: 'module' });
      const pending = new Map<string, (data: unknown) => void>();
      worker.addEventListener('message', (event) => pending.get(event.data?.id)?.(event.data));
      const call = (id: string, method: string, args: unknown[]) =>
        new Promise<unknown>((resolve) => {
          pending.set(id, resolve);
          worker.postMessage({
            id,
            type: 'APPLY',
            path: ['ledger', method],
            argumentList: args.map((value) => ({ type: 'RAW', value })),
          });
        });
      await call('signIn', 'signIn', [email, password, 'patient']);
      const bytes = new TextEncoder().encode('%PDF-1.4 invoice').buffer;
      const reply = await call('upload', 'upload', [
        { title: 'Invoice', type: 'test_report', files: [{ name: fileName, type: 'application/pdf', bytes }] },
      ]);
      worker.terminate();
      return reply;
    },
    { workerUrl, email: DEMO_ACCOUNTS.patient, password: DEMO_PASSWORD, fileName },
  );
}

// dragenter, dragover and drop of a DataTransfer holding `names` (PDFs) on what is shown at the middle of
// `locator`: which element that is, and whether dragover and drop were cancelled (a cancelled drop is one the
// browser does not open in the tab).
async function dropOn(page: Page, locator: Locator, names: string[]) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  if (!box) throw new Error('nothing to drop on');
  return page.evaluate(
    ({ point, names }) => {
      const target = document.elementFromPoint(point.x, point.y);
      if (!target) throw new Error(`nothing at ${point.x},${point.y}`);
      const transfer = new DataTransfer();
      for (const name of names) transfer.items.add(new File(['%PDF-1.4 dropped'], name, { type: 'application/pdf' }));
      const cancelled: Record<string, boolean> = {};
      for (const type of ['dragenter', 'dragover', 'drop']) {
        cancelled[type] = !target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
      return {
        target: `${target.tagName.toLowerCase()}.${[...target.classList].join('.')}`,
        inMain: target.closest('main') !== null,
        inZone: target.closest('[data-testid="drop-zone"]') !== null,
        dragover: cancelled.dragover ? 'cancelled' : 'not cancelled',
        drop: cancelled.drop ? 'cancelled' : 'not cancelled',
      };
    },
    { point: { x: box.x + box.width / 2, y: box.y + box.height / 2 }, names },
  );
}

describe('text inputs, one rule on screen and in the worker', () => {
  test('a file name with a right-to-left override is refused on screen and by the worker, in the same words', async ({
    page,
  }) => {
    await login(page, 'patient');
    await openUpload(page);
    await page
      .getByLabel('Add files')
      .setInputFiles({ name: DISGUISED, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await settled(() => notAdded(page).getByRole('listitem').allTextContents()).toEqual([REFUSED]);
    await settled(() => page.locator('.selected-file-name').count()).toBe(0);

    const reply = await uploadThroughWorker(page, DISGUISED);
    expect(reply).toMatchObject({
      type: 'HANDLER',
      name: 'throw',
      value: { isError: true, value: { name: 'ValidationError', message: REFUSED } },
    });
  });

  test('an NFD search finds the NFC title it was typed for', async ({ page }) => {
    await login(page, 'patient');
    await openUpload(page);
    await page
      .getByLabel('Add files')
      .setInputFiles({ name: 'care.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await page.getByLabel('Title').fill(NFC_TITLE);
    await page.getByRole('button', { name: 'Upload Documents' }).click();
    await page.getByRole('status').filter({ hasText: 'Upload successful' }).waitFor();

    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Medical Records' }).click();
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('RE\u0301SUME\u0301'); // decomposed, upper case
    await page.locator('.records-count').filter({ hasText: '1 record' }).waitFor();
    await settled(() => page.locator('.record-detail-title').allTextContents()).toEqual([NFC_TITLE]);
  });
});

describe('a file dropped outside the drop zone', () => {
  test('on the upload page goes to the form with the same checks, and the page stays where it is', async ({ page }) => {
    await login(page, 'patient');
    await openUpload(page);
    const url = page.url();
    const outside = await dropOn(page, page.locator('.page-subtitle'), ['missed-the-zone.pdf', DISGUISED]);
    expect(outside).toEqual({ target: 'p.page-subtitle', inMain: true, inZone: false, dragover: 'cancelled', drop: 'cancelled' });
    await settled(() => selectedNames(page)).toEqual(['missed-the-zone.pdf']);
    await settled(() => notAdded(page).getByRole('listitem').allTextContents()).toEqual([REFUSED]);

    const inside = await dropOn(page, page.locator('.drop-zone-text'), ['in-the-zone.pdf']);
    expect(inside).toMatchObject({ inZone: true, drop: 'cancelled' });
    await settled(() => selectedNames(page)).toEqual(['missed-the-zone.pdf', 'in-the-zone.pdf']);

    // a real drag of a file from disk through Chromium's input pipeline, released on the page title
    const folder = mkdtempSync(join(tmpdir(), 'medledger-drop-'));
    try {
      const path = join(folder, 'from-disk.pdf');
      writeFileSync(path, '%PDF-1.4 from disk');
      const title = await page.getByRole('heading', { name: 'Upload Medical Documents' }).boundingBox();
      if (!title) throw new Error('the page title is not on screen');
      const cdp = await page.context().newCDPSession(page);
      const data = { items: [], files: [path], dragOperationsMask: 1 }; // 1: copy
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
        await cdp.send('Input.dispatchDragEvent', { type, x: title.x + 20, y: title.y + title.height / 2, data });
      }
      await page.locator('.selected-file-name').filter({ hasText: 'from-disk.pdf' }).waitFor();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(page.url()).toBe(url);
  });

  test('on another page is refused: dragover and drop are cancelled, so the browser opens nothing', async ({ page }) => {
    await login(page, 'patient');
    const heading = page.getByRole('heading', { level: 1 });
    const dropped = await dropOn(page, heading, ['stray.pdf']);
    expect(dropped).toMatchObject({ inMain: true, dragover: 'cancelled', drop: 'cancelled' });
    expect(pathOf(page)).toBe('/patient/dashboard');
    await settled(() => text(heading)).not.toBe('');
  });

  test('of text, not files, is left to the browser', async ({ page }) => {
    await login(page, 'patient');
    await openUpload(page);
    const dropped = await page.locator('.page-subtitle').evaluate((element) => {
      const transfer = new DataTransfer();
      transfer.setData('text/plain', 'some text');
      return element.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }));
    });
    expect(dropped).toBe(true); // not cancelled: text drops into fields as usual
  });
});
