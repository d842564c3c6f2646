import type { Page } from 'playwright-core';

// On the explorer: a 20-block demo sandbox with block 7's data changed, waiting until verification names it.
export async function tamperDemoBlock7(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Tamper demo' }).click();
  const panel = page.locator('#explorer-tabs-tabpane-tamper');
  await panel.getByLabel('Sandbox chain', { exact: true }).selectOption({ label: 'Demo chain, 20 blocks' });
  await panel.getByRole('button', { name: 'Reset sandbox' }).click();
  await panel.getByText('The sandbox is a demo chain of 20 blocks.').waitFor({ timeout: 30_000 });
  await panel.getByLabel('Block number').fill('7');
  await panel.getByLabel('New record title').fill('Changed after the fact');
  await panel.getByRole('button', { name: 'Change block data' }).click();
  await panel.getByText('Chain invalid at block #7:').waitFor();
}
