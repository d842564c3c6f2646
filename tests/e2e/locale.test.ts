// Dates and numbers are written in the browser's own locale (src/components/format.ts, Intl).
import { describe, expect, test } from './support/fixtures';
import { DESKTOP } from './support/page';
import { settled } from './support/read';
import { login } from './support/session';

describe("the browser's locale", () => {
  test('a German browser shows a date of birth written in German', async ({ browser, baseUrl }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, locale: 'de-DE' });
    try {
      const page = await context.newPage();
      await login(page, 'patient');
      await page.getByRole('link', { name: 'My Profile' }).first().click();
      const german = new Intl.DateTimeFormat('de-DE', { month: 'short', day: 'numeric', year: 'numeric' }).format(
        new Date('1988-04-12'),
      );
      expect(german).toBe('12. Apr. 1988'); // Node's ICU writes German as Chromium's does
      await settled(() => page.getByText(german).count()).toBeGreaterThan(0);
      expect(await page.getByText('Apr 12, 1988').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
