// What a person must read stays in view at 390 and 1280 px (issue 42, item 6): the SOS panel below the red bar that
// appears with it, the explorer's Title column and a whole emergency title, an email address wrapped at its dots.
import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { detail, settled } from './support/read';
import { login } from './support/session';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

// Dr. Carter opens an emergency session for Michael Chen through the SOS form, as a person would.
async function grantEmergency(page: Page): Promise<void> {
  await login(page, 'doctor');
  await page.goto('/doctor/emergency');
  await page.getByRole('radio', { name: /Michael Chen/ }).check();
  await page.getByLabel('Reason for emergency access').fill('Collapsed in clinic');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight)); // as far down as the form goes
  await page.getByRole('button', { name: /Grant Emergency Access/ }).click();
  await page.getByRole('region', { name: 'Emergency Access Active' }).waitFor();
  await page.getByRole('region', { name: 'Active emergency access' }).waitFor(); // the red bar in the top bar
}

// How far below the sticky top bar (with its red bar) an element's top is: negative when it is under it.
function belowTopBar(page: Page, selector: string): Promise<number> {
  return page.evaluate((target) => {
    const bar = document.querySelector('.top-bar')!.getBoundingClientRect().bottom;
    return document.querySelector(target)!.getBoundingClientRect().top - bar;
  }, selector);
}

describe('in view', () => {
  for (const size of SIZES) {
    test(`after granting SOS at ${size.width} px the panel's heading and countdown are below the red bar`, async ({ page }) => {
      await page.setViewportSize(size);
      await grantEmergency(page);
      await settled(() => belowTopBar(page, '#active-grant-title')).toBeGreaterThanOrEqual(0);
      await settled(() => belowTopBar(page, '.countdown-box')).toBeGreaterThanOrEqual(0);
      const countdownBottom = await page.locator('.countdown-box').evaluate((box) => box.getBoundingClientRect().bottom);
      expect(countdownBottom).toBeLessThanOrEqual(size.height); // the time left is on the first screen
    });
  }

  test('the explorer shows a whole emergency access title at 1280 px, and at 390 px wrapped in the Title column without scrolling', async ({
    page,
  }) => {
    await page.setViewportSize(SIZES[0]);
    await grantEmergency(page);
    await page.goto('/doctor/blockchain');
    const chain = page.locator('#explorer-tabs-tabpane-chain');
    const title = chain.locator('td.explorer-title', { hasText: /^Emergency access \(basic\) granted to Dr\. Emily Carter$/ });
    await title.waitFor();
    await settled(() => title.evaluate((cell) => cell.scrollWidth - cell.clientWidth)).toBe(0); // nothing cut with "…"

    await page.setViewportSize(SIZES[1]);
    const header = chain.getByRole('columnheader', { name: 'Title' });
    await settled(() => header.evaluate((cell) => cell.getBoundingClientRect().right)).toBeLessThanOrEqual(SIZES[1].width);
    // on a phone the long title wraps in its cell, whole, instead of ending in "…"
    await settled(() => title.evaluate((cell) => cell.scrollWidth - cell.clientWidth)).toBe(0);
    await settled(() => title.evaluate((cell) => cell.getBoundingClientRect().right)).toBeLessThanOrEqual(SIZES[1].width);
    await settled(() => title.evaluate((cell) => cell.getBoundingClientRect().height)).toBeGreaterThan(41); // more than one line
  });

  test('at 390 px the email on My Profile wraps only after its "@" or before a dot', async ({ page }) => {
    await page.setViewportSize(SIZES[1]);
    await login(page, 'patient');
    await page.goto('/patient/profile');
    const email = detail(page.getByRole('region', { name: 'Account' }), 'Email');
    await email.waitFor();
    // the text of each line the address is laid out on
    const lines = await email.evaluate((element) => {
      const found: { top: number; text: string }[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let offset = 0; offset < (node.textContent ?? '').length; offset += 1) {
          const range = document.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          const last = found.at(-1);
          if (last && Math.abs(last.top - top) < 4) last.text += node.textContent![offset];
          else found.push({ top, text: node.textContent![offset] });
        }
      }
      return found.map((line) => line.text);
    });
    expect(lines.join('')).toBe('sarah.johnson@medledger.demo');
    // a break falls after the "@" or before a dot, never inside a word
    const breaks = lines.slice(0, -1).map((line, index) => `${line.slice(-1)}|${lines[index + 1][0]}`);
    for (const at of breaks) expect(at).toMatch(/^@\||\|\.$/);
  });
});
