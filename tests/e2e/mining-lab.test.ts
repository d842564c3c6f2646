import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { settled } from './support/read';
import { openMiningLab } from './support/records';
import { checkScreen } from './support/screens';

const CANCEL_BOUND_MS = 500;

async function openLabAsPatient(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/patient/dashboard');
  await openMiningLab(page);
  await page.getByRole('button', { name: 'Start mining' }).waitFor();
}

async function setUp(page: Page, difficulty: number, blocks: number, mainThread: boolean, parallel = false): Promise<void> {
  await page.getByLabel('Difficulty (leading zeros)').selectOption(String(difficulty));
  await page.getByLabel('Blocks', { exact: true }).fill(String(blocks));
  await page.getByLabel('Mine on the main thread instead (the page freezes)').setChecked(mainThread);
  await page.getByLabel(/^Split the nonce search across \d+ workers/).setChecked(parallel);
}

const status = (page: Page) => page.getByTestId('lab-status');

async function runRow(page: Page, place: 'worker' | 'parallel' | 'main') {
  const row = page.locator(`tr[data-place="${place}"]`).first();
  await row.waitFor({ timeout: 60_000 });
  return row.evaluate((tr) => ({ ...(tr as HTMLElement).dataset }));
}

describe('Mining Lab', () => {
  test('mines blocks into the sandbox in the worker and records the run', async ({ page }) => {
    await openLabAsPatient(page);
    await setUp(page, 2, 3, false);
    await page.getByRole('button', { name: 'Start mining' }).click();
    const row = await runRow(page, 'worker');
    expect(row.blocksMined).toBe('3');
    expect(Number(row.attempts)).toBeGreaterThan(0);
    expect(row.cancelled).toBe('false');
    await settled(() => status(page).textContent()).toMatch(/^Mined 3 blocks in the worker in \d+\.\d\d s\.$/);
    await settled(() => page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  });

  test('Cancel stops worker mining within half a second, and the same worker mines again after it', async ({ page }) => {
    await openLabAsPatient(page);
    await setUp(page, 6, 5, false);
    await page.getByRole('button', { name: 'Start mining' }).click();
    // wait for live progress: the job is hashing in the worker
    await page.waitForFunction(() => /[1-9]/.test(document.querySelector('[data-testid="lab-hash-rate"]')?.textContent ?? ''));
    // time it in the page: from the click event to the status saying it was cancelled
    const timing = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let clickedAt = 0;
          document.addEventListener('click', () => (clickedAt = performance.now()), { capture: true, once: true });
          const target = document.querySelector('[data-testid="lab-status"]') as HTMLElement;
          new MutationObserver((_, observer) => {
            if (clickedAt > 0 && target.textContent?.startsWith('Cancelled')) {
              observer.disconnect();
              resolve(performance.now() - clickedAt);
            }
          }).observe(target, { childList: true, characterData: true, subtree: true });
        }),
    );
    await page.getByRole('button', { name: 'Cancel' }).click();
    const latency = await timing;
    expect(latency).toBeLessThanOrEqual(CANCEL_BOUND_MS);
    await settled(() => status(page).textContent()).toMatch(
      /^Cancelled after [0-4] of 5 blocks in the worker: mining stopped \d+ ms after Cancel\.$/,
    );
    const cancelled = await runRow(page, 'worker');
    expect(cancelled.cancelled).toBe('true');

    await setUp(page, 1, 2, false);
    await page.getByRole('button', { name: 'Start mining' }).click();
    await page.locator('tr[data-place="worker"][data-cancelled="false"]').waitFor();
    await settled(() => status(page).textContent()).toMatch(/^Mined 2 blocks in the worker/);
  });

  test('the main-thread switch runs the same mining on the main thread and records it beside the worker run', async ({
    page,
  }) => {
    await openLabAsPatient(page);
    await setUp(page, 3, 2, true);
    await page.getByRole('button', { name: 'Start mining' }).click();
    const row = await runRow(page, 'main');
    expect(row.blocksMined).toBe('2');
    expect(Number(row.attempts)).toBeGreaterThanOrEqual(2);
    await settled(() => status(page).textContent()).toMatch(/^Mined 2 blocks on the main thread/);
    await settled(() => page.getByRole('row', { name: /Main thread/ }).count()).toBe(1);
    await checkScreen(page, 'mining-lab');
  });

  test('several workers split the nonce search: the run mines every block, and Cancel stops them all', async ({ page }) => {
    await openLabAsPatient(page);
    await setUp(page, 3, 4, false, true);
    await page.getByRole('button', { name: 'Start mining' }).click();
    const row = await runRow(page, 'parallel');
    expect(row.blocksMined).toBe('4');
    expect(row.cancelled).toBe('false');
    await settled(() => status(page).textContent()).toMatch(/^Mined 4 blocks in parallel workers/);

    await setUp(page, 6, 3, false, true);
    await page.getByRole('button', { name: 'Start mining' }).click();
    await page.waitForFunction(() => /[1-9]/.test(document.querySelector('[data-testid="lab-hash-rate"]')?.textContent ?? ''));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('tr[data-place="parallel"][data-cancelled="true"]').waitFor();
    await settled(() => status(page).textContent()).toMatch(/^Cancelled after [0-2] of 3 blocks in parallel workers/);
  });

  test('at 390 px the limit under Blocks reads on one line, Cancel stays beside Start mining, and no runs header takes three lines', async ({
    page,
  }) => {
    await openLabAsPatient(page);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(
      await page.getByRole('heading', { level: 1, name: 'Mining Lab' }).evaluate((h) => getComputedStyle(h).fontWeight),
    ).toBe('700');
    await page.getByLabel('Blocks', { exact: true }).fill('500');
    const limit = page.getByText('From 1 to 100');
    await limit.waitFor();
    const lineHeight = await limit.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await limit.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
    const start = (await page.getByRole('button', { name: 'Start mining' }).boundingBox())!;
    const cancel = (await page.getByRole('button', { name: 'Cancel' }).boundingBox())!;
    expect(Math.abs(cancel.y - start.y)).toBeLessThan(2);
    const box = (await page.getByLabel('Blocks', { exact: true }).boundingBox())!;
    expect(Math.abs(start.y + start.height - (box.y + box.height))).toBeLessThan(2); // level with the box

    await setUp(page, 1, 1, false);
    await page.getByRole('button', { name: 'Start mining' }).click();
    await runRow(page, 'worker');
    const heights = await page
      .locator('table.table thead th')
      .evaluateAll((cells) =>
        cells.filter((cell) => (cell as HTMLElement).offsetParent !== null).map((cell) => cell.getBoundingClientRect().height),
      );
    const one = await page
      .locator('table.table thead th')
      .first()
      .evaluate((cell) => parseFloat(getComputedStyle(cell).lineHeight));
    expect(Math.max(...heights)).toBeLessThan(one * 2.5 + 10); // two lines at most, and the padding
  });
});
