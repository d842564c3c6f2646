// A stored block changed directly in IndexedDB (same origin, database 'medledger') is found when the ledger
// loads: the screen names the block and the failed check, writes are refused, and what verified is still shown.
import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { detail, section, settled, text } from './support/read';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';
import { readStoredLedger, storeBlocks } from './support/stored-ledger';

type BlockEdit = 'record-title' | 'nonce';

// Rewrites one field of a stored block in place, as any script of the origin (or a user with DevTools) could.
async function editStoredBlock(page: Page, index: number, edit: BlockEdit): Promise<void> {
  const block = (await readStoredLedger(page)).blocks[index];
  await storeBlocks(page, [
    edit === 'record-title'
      ? { ...block, data: { ...block.data, title: 'Forged diagnosis' } }
      : { ...block, nonce: block.nonce + 1 },
  ]);
}

// How many blocks and documents the page's IndexedDB holds right now.
async function storedCounts(page: Page): Promise<{ blocks: number; documents: number }> {
  const { blocks, keyIds } = await readStoredLedger(page);
  return { blocks: blocks.length, documents: keyIds.length };
}

const records = (page: Page) => section(page, 'Your Records');

const CASES = [
  { edit: 'record-title', index: 1, reason: 'record data was changed (data hash mismatch)' },
  { edit: 'nonce', index: 2, reason: 'hash does not match the block header' },
] as const;

describe('a block changed at rest in IndexedDB', () => {
  test.for(CASES)(
    'block #$index changed at rest ($edit) is named with its failed check after a reload, and the app turns read-only',
    async ({ edit, index, reason }, { page, recorded }) => {
      await login(page, 'patient');
      const titles = ['Lipid panel', 'ECG report', 'Thyroid panel'];
      for (const title of titles) await uploadRecord(page, title, [pdfFile(`${title.toLowerCase().replace(' ', '-')}.pdf`)]);
      await editStoredBlock(page, index, edit);
      await page.reload();

      // named on every screen: the block, and the check it failed
      const banner = page.getByRole('status').filter({ hasText: 'The stored chain failed verification' });
      await banner.waitFor();
      await settled(() => text(banner)).toContain(`Block #${index} failed a check: ${reason}.`);
      await goTo(page, 'Dashboard', /Welcome back/);
      const status = section(page, 'Blockchain Status');
      await settled(() => text(detail(status, 'Chain Status'))).toBe('Invalid');
      await settled(() => text(detail(status, 'First Bad Block'))).toBe(`#${index}: ${reason}`);

      // what verified (blocks before the bad one) is shown; the bad block and everything after it are not
      await goTo(page, 'Medical Records', 'Medical Records');
      await recordItem(records(page), 'Initial health assessment').waitFor(); // the oldest, listed last: the list is whole
      for (const [i, title] of titles.entries()) {
        await settled(() => recordItem(records(page), title).count(), `${title} in block #${i + 1}`).toBe(i + 1 < index ? 1 : 0);
      }
      expect(await page.getByText('Forged diagnosis').count()).toBe(0);

      // writes are refused with a message that names the block, and nothing is stored
      const before = await storedCounts(page);
      recorded.allowProblem(/MedLedger: upload failed/);
      await goTo(page, 'Upload Documents', 'Upload Medical Documents');
      await page.getByLabel('Add files').setInputFiles(pdfFile('after-tamper.pdf'));
      await page.getByLabel('Title').fill('Written after the tamper');
      await page.getByRole('button', { name: 'Upload Documents' }).click();
      const refused = page.getByRole('alert').filter({ hasText: 'failed verification' });
      await refused.waitFor({ timeout: 15_000 });
      await settled(() => text(refused)).toContain(
        `failed verification at block ${index} (${reason}), so changes are turned off`,
      );
      expect(await page.getByRole('heading', { name: 'Upload successful' }).count()).toBe(0);
      await settled(() => page.getByLabel('Title').inputValue()).toBe('Written after the tamper');
      expect(await storedCounts(page)).toEqual(before);
    },
  );
});
