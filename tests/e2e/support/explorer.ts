import type { Locator, Page } from 'playwright-core';

export type SandboxTab = 'tamper' | 'peers';

export const sandboxPanel = (page: Page, tab: SandboxTab = 'tamper'): Locator => page.locator(`#explorer-tabs-tabpane-${tab}`);

// Builds a demo chain in the sandbox (all three peers): choosing it builds it. Building 10,000 blocks mines about
// 2.6 million hashes in the worker: a slow machine gets time.
export async function resetDemoSandbox(panel: Locator, blocks: 20 | 1000 | 10000): Promise<void> {
  const label = `Demo chain, ${blocks.toLocaleString('en-US')} blocks`;
  await panel.getByLabel('Sandbox chain', { exact: true }).selectOption({ label });
  await panel.getByText(`The sandbox is a demo chain of ${blocks.toLocaleString('en-US')} blocks.`).waitFor({ timeout: 120_000 });
}

export async function openSandboxBlock(panel: Locator, index: number): Promise<Locator> {
  await panel.getByLabel('Block number').fill(String(index));
  await panel.getByRole('button', { name: 'Open block', exact: true }).click();
  const editor = panel.locator(`[data-editor-index="${index}"]`);
  await editor.waitFor();
  return editor;
}

// Types `title` into the open block's editor and waits for the worker's answer in the table. A changed block
// keeps its nonce, so its new hash meets difficulty 2 by chance once in 256 edits: then one more character.
export async function editTitleUntilInvalid(panel: Locator, index: number, title: string): Promise<string> {
  const editor = panel.locator(`[data-editor-index="${index}"]`);
  for (let text = title; text.length < title.length + 5; text += '!') {
    await editor.getByLabel('Title').fill(text);
    await panel.locator(`tr[data-block-index="${index}"] td.explorer-title[title="${text}"]`).waitFor();
    if ((await editor.getAttribute('data-valid')) === 'false') return text;
  }
  throw new Error(`block ${index} stayed valid after 5 edits`);
}

// On the explorer: a 20-block demo sandbox with block 7's title changed in its editor, waiting until verification names it.
export async function tamperDemoBlock7(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Tamper demo' }).click();
  const panel = sandboxPanel(page);
  await resetDemoSandbox(panel, 20);
  await panel.getByRole('button', { name: 'Open block 7' }).click();
  await editTitleUntilInvalid(panel, 7, 'Changed after the fact');
  await panel.getByText('Chain invalid at block #7:').waitFor();
}
