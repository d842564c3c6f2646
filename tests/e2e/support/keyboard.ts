import type { Locator, Page } from 'playwright-core';

const MAX_TABS = 60;

export async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement).catch(() => false);
}

// Presses Tab (or Shift+Tab) until `target` has focus; fails if it is not in the tab order.
export async function tabTo(page: Page, target: Locator, { backwards = false } = {}): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses < MAX_TABS; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} was not reached with ${MAX_TABS} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}
