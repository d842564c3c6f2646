import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { formatViolations, scanA11y, seriousViolations } from './axe';
import { DESKTOP, PHONE } from './page';

export const SCREENS_DIR = resolve(import.meta.dirname, '../../../test-results/screens');

// Saves test-results/screens/<name>-<width>x<height>.png at the page's current viewport: the whole
// page, or only the viewport (for overlays such as the phone menu).
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const size = page.viewportSize() ?? DESKTOP;
  const path = join(SCREENS_DIR, `${name}-${size.width}x${size.height}.png`);
  // a scrolled page draws its sticky top bar mid-page in a full-page capture
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage });
  return path;
}

// What sticks out: the page wider than the viewport, or an element wider than the card it sits in.
export async function overflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth)
      problems.push(`the page is ${doc.scrollWidth}px wide in a ${window.innerWidth}px viewport`);
    for (const card of document.querySelectorAll('.card')) {
      const edge = card.getBoundingClientRect();
      for (const element of card.querySelectorAll('*')) {
        const box = element.getBoundingClientRect();
        if (box.width > 0 && (box.right > edge.right + 1 || box.left < edge.left - 1)) {
          const what = `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`;
          problems.push(`${what} "${(element.textContent ?? '').trim().slice(0, 40)}" sticks out of its card`);
        }
      }
    }
    return problems;
  });
}

// For each of desktop and phone size: a full-page screenshot, an axe scan (no serious or critical violation)
// and a layout check (nothing overflows). Restores the desktop size afterwards.
export async function checkScreen(page: Page, name: string): Promise<void> {
  const report: string[] = [];
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    // let the layout settle after the resize (media queries, collapsing menu)
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await screenshot(page, name);
    const at = `${name} at ${size.width}x${size.height}`;
    const serious = seriousViolations(await scanA11y(page));
    if (serious.length > 0) report.push(`${at}: accessibility\n${formatViolations(serious)}`);
    const overflow = await overflowProblems(page);
    if (overflow.length > 0) report.push(`${at}: layout\n${overflow.map((problem) => `  ${problem}`).join('\n')}`);
  }
  await page.setViewportSize(DESKTOP);
  expect(report.length, `serious or critical accessibility violations, or content that overflows\n${report.join('\n')}`).toBe(0);
}
