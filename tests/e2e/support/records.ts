// Steps shared by the records, persistence and emergency browser tests: upload through the form, open a screen
// from the side menu, find a record, and download a file to compare its bytes.
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const pdfFile = (name: string, content = `%PDF-1.4 ${name} ${'x'.repeat(64)}`): UploadFile => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(content),
});

// A real 2x2 PNG, so the preview can prove the browser decoded the decrypted bytes.
function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png2x2(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0); // width
  header.writeUInt32BE(2, 4); // height
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.from([0, 11, 110, 117, 255, 255, 255, 0, 255, 255, 255, 11, 110, 117]); // filter byte + 2 pixels per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const pngFile = (name: string): UploadFile => ({ name, mimeType: 'image/png', buffer: png2x2() });

export async function goTo(page: Page, label: string, heading: string | RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

// The Mining Lab opens from the Blockchain Explorer for both roles (a patient's main menu has no entry for it).
export async function openMiningLab(page: Page): Promise<void> {
  await goTo(page, 'Blockchain Explorer', 'Blockchain Explorer');
  await page.getByRole('main').getByRole('link', { name: 'Mining Lab', exact: true }).click();
  await page.getByRole('heading', { name: 'Mining Lab', level: 1 }).waitFor();
}

export async function uploadRecord(
  page: Page,
  title: string,
  files: UploadFile[],
  { description = '', type = 'Prescription' }: { description?: string; type?: 'Prescription' | 'Test Report' } = {},
): Promise<void> {
  await goTo(page, 'Upload Documents', 'Upload Medical Documents');
  await page.getByLabel('Add files').setInputFiles(files);
  // the toggle's radios are visually hidden behind their labels
  await page.locator(`label[for="record-type-${type === 'Test Report' ? 'test-report' : 'prescription'}"]`).click();
  await page.getByLabel('Title').fill(title);
  if (description) await page.getByLabel(/Description/).fill(description);
  await page.getByRole('button', { name: 'Upload Documents' }).click();
  await page.getByRole('heading', { name: 'Upload successful' }).waitFor({ timeout: 15_000 });
}

// The record of that title in a list of records (Medical Records, My Patients, the emergency view).
export function recordItem(scope: Page | Locator, title: string): Locator {
  return scope
    .locator('li.record-detail')
    .filter({ has: pageOf(scope).getByRole('heading', { name: title, exact: true, level: 3 }) });
}

function pageOf(scope: Page | Locator): Page {
  return typeof (scope as Locator).page === 'function' ? (scope as Locator).page() : (scope as Page);
}

// Clicks the Download button of a file and returns what the browser saved.
export async function downloadFile(scope: Page | Locator, fileName: string): Promise<{ name: string; bytes: Buffer }> {
  const page = pageOf(scope);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    scope.getByRole('button', { name: `Download ${fileName}`, exact: true }).click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}
