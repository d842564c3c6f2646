import type { Page } from 'playwright-core';
import { describe, test } from './support/fixtures';
import { editTitleUntilInvalid, openSandboxBlock } from './support/explorer';
import { settled } from './support/read';
import { checkScreen } from './support/screens';

async function openExplorerAsPatient(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/patient/dashboard');
  await page.getByRole('link', { name: 'Blockchain Explorer' }).click();
  await page.waitForURL('**/patient/blockchain');
}

const tamperPanel = (page: Page) => page.locator('#explorer-tabs-tabpane-tamper');

// Block indexes of the rendered rows, top to bottom.
function rowIndexes(page: Page, scope = tamperPanel(page)): Promise<number[]> {
  return scope
    .locator('tr[data-block-index]')
    .evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.blockIndex)));
}

// choosing a chain builds it; building a 10,000-block demo chain mines about 2.6 million hashes in the worker: allow a slow machine
async function resetSandbox(page: Page, option: string, expected: string): Promise<void> {
  const panel = tamperPanel(page);
  await panel.getByLabel('Sandbox chain', { exact: true }).selectOption({ label: option }); // choosing it builds it
  await panel.getByText(expected).waitFor({ timeout: 90_000 });
}

describe('Blockchain Explorer', () => {
  test('shows the records chain with its verification result, each hash short with the full value in the tooltip', async ({
    page,
  }) => {
    await openExplorerAsPatient(page);
    const chain = page.locator('#explorer-tabs-tabpane-chain');
    await chain.getByText('Chain valid.').waitFor();
    await settled(() => chain.locator('[data-chain-valid]').textContent()).toContain('All 1 block verified');
    await settled(() => rowIndexes(page, chain)).toEqual([0]);
    const hash = chain.locator('tr[data-block-index="0"] td code').first();
    await settled(() => hash.getAttribute('title')).toMatch(/^00[0-9a-f]{62}$/);
    const full = await hash.getAttribute('title');
    await settled(() => hash.textContent()).toBe(full?.slice(0, 8));
    await checkScreen(page, 'explorer-chain');
  });

  test('the tamper demo names the changed block, then the next link once it is re-mined, on the sandbox only', async ({
    page,
  }) => {
    await openExplorerAsPatient(page);
    await page.getByRole('tab', { name: 'Tamper demo' }).click();
    const panel = tamperPanel(page);
    await resetSandbox(page, 'Demo chain, 20 blocks', 'The sandbox is a demo chain of 20 blocks.');
    await settled(async () => (await rowIndexes(page)).slice(0, 3)).toEqual([19, 18, 17]);

    const editor = await openSandboxBlock(panel, 7);
    const title = await editTitleUntilInvalid(panel, 7, 'Changed after the fact');
    await panel.getByText('Chain invalid at block #7:').waitFor();
    await settled(() => panel.locator('[data-chain-valid="false"]').textContent()).toContain('hash does not meet difficulty 2');
    const row = panel.locator('tr[data-block-index="7"]');
    await settled(() => row.getAttribute('class')).toContain('table-danger');
    await settled(() => row.textContent()).toContain(title);

    await editor.getByRole('button', { name: 'Re-mine', exact: true }).click();
    await panel.getByText('Chain invalid at block #8:').waitFor();
    await settled(() => panel.locator('[data-chain-valid="false"]').textContent()).toContain(
      'previousHash does not match block 7',
    );
    await checkScreen(page, 'explorer-tamper');

    // the real chain was never touched
    await page.getByRole('tab', { name: 'Records chain' }).click();
    await settled(() => page.locator('#explorer-tabs-tabpane-chain [data-chain-valid]').getAttribute('data-chain-valid')).toBe(
      'true',
    );

    await page.getByRole('tab', { name: 'Tamper demo' }).click();
    await resetSandbox(page, 'Demo chain, 20 blocks', 'The sandbox is a demo chain of 20 blocks.');
    await panel.getByText('Chain valid.').waitFor();
  });

  test(
    'a 10,000-block chain keeps only the rows in view in the page and scrolls to the genesis block',
    { timeout: 150_000 },
    async ({ page }) => {
      await openExplorerAsPatient(page);
      await page.getByRole('tab', { name: 'Tamper demo' }).click();
      const panel = tamperPanel(page);
      await panel.getByLabel('Sandbox chain', { exact: true }).selectOption({ label: 'Demo chain, 10,000 blocks' });
      // the build shows how far it is, in blocks, before the chain is there
      await panel.getByText(/^Building the demo chain: [1-9][\d,]* of 10,000 blocks$/).waitFor({ timeout: 90_000 });
      await panel.getByText('The sandbox is a demo chain of 10,000 blocks.').waitFor({ timeout: 90_000 });
      await settled(async () => (await rowIndexes(page))[0]).toBe(9999);
      await settled(() => panel.locator('tbody tr').count()).toBeLessThan(40);

      await panel.getByRole('region', { name: /Sandbox chain/ }).evaluate((viewport) => {
        viewport.scrollTop = viewport.scrollHeight;
      });
      await panel.locator('tr[data-block-index="0"]').waitFor();
      await settled(async () => (await rowIndexes(page)).at(-1)).toBe(0);
      await settled(async () => (await rowIndexes(page)).length).toBeLessThan(40);
    },
  );
});
