import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

// The value (<dd>) of a term (<dt>) in a detail list, e.g. detail(page, 'Total Blocks').
export function detail(scope: Page | Locator, term: string): Locator {
  return scope.locator(`dl > div:has(> dt:text-is("${term}")) > dd`);
}

// The figure of a dashboard stat card, e.g. stat(page, 'Total Records').
export function stat(page: Page, label: string): Locator {
  return page.locator(`.stat-card:has(.stat-label:text-is("${label}")) .stat-value`);
}

export async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

// A labelled section of a screen by its heading, e.g. section(page, 'Blockchain Status').
export function section(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title, exact: true });
}

// Retries a read until the assertion holds (10 s, the pages' default wait): a screen settles after the text announcing it.
export function settled<T>(read: () => T | Promise<T>, message?: string) {
  return expect.poll(read, { timeout: 10_000, message });
}

// A react-bootstrap modal or offcanvas that has come in: it and its backdrop carry .show, and its -toggling class is gone.
export async function shown(dialog: Locator): Promise<void> {
  const page = dialog.page();
  await dialog.and(page.locator('.show:not([class*="-toggling"])')).waitFor();
  await page.locator('.modal-backdrop.show, .offcanvas-backdrop.show').first().waitFor();
}
