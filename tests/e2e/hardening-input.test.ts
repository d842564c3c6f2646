// Issue 5, bad input in the built app (real worker, real IndexedDB): hostile names, file checks, limits,
// double clicks and tampered sessions. What was stored is read back from IndexedDB, not from the screens.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD, MAX_TITLE_LENGTH } from '../../workers/core/constants';
import { describe, expect, test } from './support/fixtures';
import { DESKTOP, PHONE } from './support/page';
import { section, settled, text } from './support/read';
import { overflowProblems } from './support/screens';
import { login, pathOf } from './support/session';
import { orphans, readStoredLedger } from './support/stored-ledger';
import { documentIdsOf, emergencyOf } from '../support/chain-records';

const NAMES = {
  html: '<img src=x onerror=alert(1)>.pdf',
  rtl: 'تقرير الدم – בדיקת דם.pdf',
  emoji: '🩺 blood 🧪 test 👩🏽‍⚕️.jpg',
  long: `${'very-long-scan-name-'.repeat(12)}${'x'.repeat(11)}.pdf`, // 255: the longest name accepted (issue 12)
};
const MARKUP_TITLE = `<b onmouseover=alert(1)>Bold</b>&"q"🫀${'w'.repeat(150)}`; // one long word, under the limit

const payload = (name: string, size = 64, mimeType = 'application/pdf') => ({ name, mimeType, buffer: Buffer.alloc(size, 7) });

async function openUpload(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Upload Documents' }).click();
  await page.getByRole('heading', { name: 'Upload Medical Documents' }).waitFor();
}

const uploadButton = (page: Page) => page.getByRole('button', { name: /Upload Documents|Uploading\.\.\./ });
const selectedNames = (page: Page) => page.locator('.selected-file-name').allTextContents();
const notAdded = (page: Page) => page.getByRole('alert').filter({ hasText: 'Not added:' });
const success = (page: Page) => page.getByRole('status').filter({ hasText: 'Upload successful' });

// Any alert() a name managed to run, and any element a name managed to create.
function watchForInjection(page: Page): () => Promise<string[]> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return async () => [
    ...dialogs,
    ...(await page.evaluate(() =>
      [...document.querySelectorAll('img[src="x"], b[onmouseover], script:not([src]):not([type])')].map(
        (element) => `element: ${element.outerHTML}`,
      ),
    )),
  ];
}

// The outermost elements that reach past the viewport's right edge outside any scrolling box: what widens the page.
function widerThanViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const scrolls = (element: Element) => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(element).overflowX);
    const found: string[] = [];
    const visit = (element: Element) => {
      if (element.getBoundingClientRect().right > window.innerWidth + 1) {
        found.push(
          `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} reaches ${Math.round(element.getBoundingClientRect().right)}px`,
        );
        return;
      }
      if (!scrolls(element)) for (const child of element.children) visit(child);
    };
    for (const child of document.body.children) visit(child);
    return found;
  });
}

async function layoutAtBothSizes(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    problems.push(...(await overflowProblems(page)).map((problem) => `${size.width}px: ${problem}`));
    problems.push(...(await widerThanViewport(page)).map((problem) => `${size.width}px: ${problem}`));
  }
  await page.setViewportSize(DESKTOP);
  return problems;
}

async function upload(page: Page, title: string): Promise<void> {
  await page.getByLabel('Title').fill(title);
  await uploadButton(page).click();
  await success(page).waitFor();
}

describe('names with markup, right-to-left text, emoji and 255 characters', () => {
  test('show as plain text on upload, success, dashboard, records and explorer, run nothing, fit phone and desktop, and are stored intact', async ({
    page,
  }) => {
    const injected = watchForInjection(page);
    await login(page, 'patient');
    await openUpload(page);

    await page.getByLabel('Add files').setInputFiles(payload('<img src=x onerror=alert(2)>.exe', 64, 'application/x-msdownload'));
    await settled(() => text(notAdded(page))).toContain('"<img src=x onerror=alert(2)>.exe" is not an accepted file type');

    await page
      .getByLabel('Add files')
      .setInputFiles([payload(NAMES.html), payload(NAMES.rtl), payload(NAMES.emoji, 64, 'image/jpeg'), payload(NAMES.long)]);
    await settled(() => selectedNames(page)).toEqual(Object.values(NAMES));
    await settled(() => page.locator('.selected-file-name').nth(3).getAttribute('title')).toBe(NAMES.long);
    await page.getByLabel('Title').fill(MARKUP_TITLE);
    await settled(() => layoutAtBothSizes(page)).toEqual([]);

    await uploadButton(page).click();
    await success(page).waitFor();
    await settled(() => text(success(page))).toContain(`${MARKUP_TITLE} (4 files)`);
    await settled(() => layoutAtBothSizes(page)).toEqual([]);

    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    const newest = section(page, 'Recent Medical Records').getByRole('listitem').first();
    await newest.waitFor();
    await settled(() => text(newest.locator('.record-title'))).toBe(MARKUP_TITLE);
    await settled(() => newest.locator('.record-title').getAttribute('title')).toBe(MARKUP_TITLE); // shown cut short: the tooltip has it all
    await settled(() => layoutAtBothSizes(page)).toEqual([]);

    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Medical Records' }).click();
    const listed = page.locator('.record-detail').first();
    await listed.waitFor();
    await settled(() => text(listed.locator('.record-detail-title'))).toBe(MARKUP_TITLE);
    await settled(() => listed.locator('.document-name').allTextContents()).toEqual(Object.values(NAMES));
    await settled(() => layoutAtBothSizes(page)).toEqual([]);

    await page.getByRole('link', { name: 'Blockchain Explorer' }).click();
    const row = page.locator('#explorer-tabs-tabpane-chain tr[data-block-index="1"] .explorer-title');
    await row.waitFor();
    await settled(() => text(row)).toBe(MARKUP_TITLE);
    await settled(() => row.getAttribute('title')).toBe(MARKUP_TITLE);
    // the cell clips the long word at its 30rem (480 px) width (explorer.css); the tooltip holds the rest
    await settled(() => row.evaluate((cell) => cell.getBoundingClientRect().width)).toBeLessThanOrEqual(490);
    await settled(() => layoutAtBothSizes(page)).toEqual([]);

    const stored = await readStoredLedger(page);
    expect(stored.blocks[1].data.title).toBe(''); // sealed: the text travels only under the patient's key
    const block = stored.opened[1];
    expect(block.data.title).toBe(MARKUP_TITLE);
    expect(stored.documents.find((document) => document.id === documentIdsOf(block.data)[0])?.fileName).toBe(NAMES.html);
    const byId = new Map(stored.documents.map((document) => [document.id, document.fileName]));
    expect(documentIdsOf(block.data).map((id) => byId.get(id))).toEqual(Object.values(NAMES));
    expect(await injected()).toEqual([]);
  });
});

describe('file checks', () => {
  test('.PDF and exactly 10 MB are uploaded; 0 bytes, 10 MB + 1, report.pdf.exe and a disagreeing type are named and left out', async ({
    page,
  }) => {
    await login(page, 'patient');
    await openUpload(page);
    // the two 10 MB files are made in the page and dropped: 20 MB through the test's pipe takes longer than the test
    await page.getByTestId('drop-zone').evaluate((zone, megabyte) => {
      const transfer = new DataTransfer();
      const file = (name: string, size: number, type: string) => new File([new Uint8Array(size).fill(1)], name, { type });
      transfer.items.add(file('EMPTY.pdf', 0, 'application/pdf'));
      transfer.items.add(file('SCAN.PDF', 64, 'application/pdf'));
      transfer.items.add(file('over.png', 10 * megabyte + 1, 'image/png'));
      transfer.items.add(file('exact.png', 10 * megabyte, 'image/png'));
      transfer.items.add(file('report.pdf.exe', 64, 'application/x-msdownload'));
      transfer.items.add(file('photo.pdf', 64, 'image/png'));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
    }, 1024 * 1024);
    await settled(() => notAdded(page).getByRole('listitem').allTextContents()).toEqual([
      '"EMPTY.pdf" is empty',
      '"over.png" is larger than 10 MB',
      '"report.pdf.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)',
      '"photo.pdf" is named .pdf but its type is image/png',
    ]);
    await settled(() => selectedNames(page)).toEqual(['SCAN.PDF', 'exact.png']);
    await upload(page, 'Scans');

    const stored = await readStoredLedger(page);
    expect(stored.documents.map((document) => [document.fileName, document.fileSize])).toEqual(
      expect.arrayContaining([
        ['SCAN.PDF', 64],
        ['exact.png', MAX_FILE_BYTES],
      ]),
    );
    expect(stored.documents).toHaveLength(2);
    expect(orphans(stored)).toEqual([]);
  });

  test('the same file on disk picked twice is listed once and stored once', async ({ page }) => {
    const folder = mkdtempSync(join(tmpdir(), 'medledger-'));
    try {
      const path = join(folder, 'discharge-letter.pdf');
      writeFileSync(path, '%PDF-1.4 discharge letter');
      await login(page, 'patient');
      await openUpload(page);
      await page.getByLabel('Add files').setInputFiles(path);
      await page.getByLabel('Add files').setInputFiles([path]);
      await settled(() => selectedNames(page)).toEqual(['discharge-letter.pdf']);
      await upload(page, 'Discharge letter');
      const stored = await readStoredLedger(page);
      expect(stored.documents.map((document) => document.fileName)).toEqual(['discharge-letter.pdf']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test(`${MAX_FILES_PER_UPLOAD} files at once are all listed and stored in one block; one more is named as over the maximum`, async ({
    page,
  }) => {
    await login(page, 'patient');
    await openUpload(page);
    const names = Array.from({ length: MAX_FILES_PER_UPLOAD }, (_, i) => `page-${String(i + 1).padStart(2, '0')}.pdf`);
    await page.getByLabel('Add files').setInputFiles(names.map((name, i) => payload(name, 1000 + i)));
    await settled(() => selectedNames(page)).toEqual(names);
    await page.getByLabel('Add files').setInputFiles(payload('page-51.pdf'));
    await settled(() => text(notAdded(page))).toContain(
      `"page-51.pdf" was not added: an upload holds at most ${MAX_FILES_PER_UPLOAD} files`,
    );
    await settled(() => page.locator('.selected-file-name').count()).toBe(MAX_FILES_PER_UPLOAD);

    await upload(page, 'Full scan');
    await settled(() => text(success(page))).toContain(`Full scan (${MAX_FILES_PER_UPLOAD} files)`);
    const stored = await readStoredLedger(page);
    expect(stored.blocks).toHaveLength(2);
    const byId = new Map(stored.documents.map((document) => [document.id, document]));
    expect(documentIdsOf(stored.blocks[1].data).map((id) => byId.get(id)?.fileName)).toEqual(names);
    expect(documentIdsOf(stored.blocks[1].data).map((id) => byId.get(id)?.fileSize)).toEqual(names.map((_, i) => 1000 + i));
    expect(orphans(stored)).toEqual([]);
  });
});

describe('title limits', () => {
  test('a 10,000-character title is kept whole, the limit is stated, and Upload waits until it is shortened', async ({
    page,
  }) => {
    await login(page, 'patient');
    await openUpload(page);
    await page.getByLabel('Add files').setInputFiles(payload('scan.pdf'));
    await page.getByLabel('Title').fill('x'.repeat(10_000));
    await settled(() => page.getByLabel('Title').inputValue()).toHaveLength(10_000);
    await page.getByText(`The title is longer than ${MAX_TITLE_LENGTH} characters.`).waitFor();
    await settled(() => page.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    await settled(() => uploadButton(page).isDisabled()).toBe(true);
    await settled(() => layoutAtBothSizes(page)).toEqual([]);
    await page.getByLabel('Title').fill('x'.repeat(MAX_TITLE_LENGTH));
    await settled(() => uploadButton(page).isEnabled()).toBe(true);
  });
});

describe('double clicks', () => {
  test('a double click on Upload makes one record', async ({ page }) => {
    await login(page, 'patient');
    await openUpload(page);
    const before = await readStoredLedger(page);
    await page.getByLabel('Add files').setInputFiles(payload('once.pdf'));
    await page.getByLabel('Title').fill('Once');
    await uploadButton(page).dblclick();
    await success(page).waitFor();
    // a later upload proves it: the worker writes in turn, so a second "Once" sent by the double click comes before it
    await page.getByRole('button', { name: 'Upload another document' }).click();
    await page.getByLabel('Add files').setInputFiles(payload('later.pdf'));
    await upload(page, 'Later');
    const after = await readStoredLedger(page);
    expect(after.blocks.length - before.blocks.length).toBe(2);
    expect(after.documents.map((document) => document.fileName)).toEqual(['once.pdf', 'later.pdf']);
  });

  test('a double click on Grant makes one grant and one granted block', async ({ page }) => {
    await login(page, 'doctor');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'SOS Emergency' }).click();
    await page.getByRole('radio', { name: /Michael Chen/ }).check();
    await page.getByLabel('Reason for emergency access').fill('Unconscious in the ER');
    const grant = page.getByRole('button', { name: /Grant Emergency Access|Granting Access\.\.\./ });
    await grant.dblclick();
    // ending the session proves it: the worker writes in turn, so a second grant sent by the double click comes before it
    await page.getByRole('button', { name: 'End Emergency Session' }).click();
    await page.getByText('Emergency session for Michael Chen ended.').waitFor();
    const stored = await readStoredLedger(page);
    expect(stored.grants).toHaveLength(1);
    expect(stored.blocks.filter((block) => emergencyOf(block.data)?.event === 'granted')).toHaveLength(1);
  });
});

describe('a tampered currentUser', () => {
  // a few in the real browser; tests/ui/hardening-session.test.tsx goes through many more
  const values = ['{not json', '[{"id":"patient-1"}]', '{"id":"__proto__","role":"doctor"}'];

  test('that is not JSON, not an object, or names no known id signs out cleanly, with no error', async ({ page }) => {
    for (const value of values) {
      await page.goto('/');
      await page.evaluate((stored) => localStorage.setItem('currentUser', stored), value);
      await page.goto('/doctor/dashboard');
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      expect(pathOf(page), value).toBe('/');
      await settled(() => page.evaluate(() => localStorage.getItem('currentUser')), value).toBeNull();
    }
  });
});
