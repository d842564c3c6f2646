import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { formatViolations, scanA11y, seriousViolations } from './axe';
import { DESKTOP, PHONE } from './page';

export const SCREENS_DIR = resolve(import.meta.dirname, '../../../test-results/screens');

// Saves test-results/screens/<name>-<width>x<height>.png at the page's current viewport.
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const size = page.viewportSize() ?? DESKTOP;
  const path = join(SCREENS_DIR, `${name}-${size.width}x${size.height}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

// For each of desktop and phone size: a full-page screenshot and an axe scan; no serious or critical
// violation may remain. Restores the desktop size afterwards.
export async function checkScreen(page: Page, name: string): Promise<void> {
  const report: string[] = [];
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    // let the layout settle after the resize (media queries, collapsing menu)
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await screenshot(page, name);
    const serious = seriousViolations(await scanA11y(page));
    if (serious.length > 0) report.push(`${name} at ${size.width}x${size.height}:\n${formatViolations(serious)}`);
  }
  await page.setViewportSize(DESKTOP);
  expect(report, `serious or critical accessibility violations\n${report.join('\n')}`).toEqual([]);
}
