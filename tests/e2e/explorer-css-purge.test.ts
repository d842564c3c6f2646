// The build drops the Bootstrap CSS no screen uses (vite.config.ts). This walks the screens of both roles
// and fails when an element carries a Bootstrap class whose rules the build dropped: the way a component
// that builds its classes from props (react-bootstrap's `${prefix}-${variant}`) would lose its styles.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { settled } from './support/read';
import { login } from './support/session';

const bootstrapCss = readFileSync(createRequire(import.meta.url).resolve('bootstrap/dist/css/bootstrap.css'), 'utf8');
const BOOTSTRAP_CLASSES = new Set([...bootstrapCss.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map(([, name]) => name));

// Bootstrap classes on the page's elements that no rule of the page's stylesheets mentions.
async function unstyledBootstrapClasses(page: Page): Promise<string[]> {
  const { used, styled } = await page.evaluate(() => {
    const used = new Set<string>();
    for (const element of document.querySelectorAll('[class]')) for (const name of element.classList) used.add(name);
    const styled = new Set<string>();
    const visit = (rules: CSSRuleList) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule)
          for (const [, name] of rule.selectorText.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) styled.add(name);
        if ('cssRules' in rule && rule.cssRules) visit(rule.cssRules as CSSRuleList);
      }
    };
    for (const sheet of document.styleSheets) visit(sheet.cssRules);
    return { used: [...used], styled: [...styled] };
  });
  const kept = new Set(styled);
  return used.filter((name) => BOOTSTRAP_CLASSES.has(name) && !kept.has(name)).sort();
}

const SCREENS = {
  patient: [
    '/patient/dashboard',
    '/patient/profile',
    '/patient/records',
    '/patient/upload',
    '/patient/sharing',
    '/patient/blockchain',
    '/patient/mining-lab',
  ],
  doctor: [
    '/doctor/dashboard',
    '/doctor/profile',
    '/doctor/patients',
    '/doctor/emergency',
    '/doctor/blockchain',
    '/doctor/mining-lab',
  ],
} as const;

describe('Bootstrap CSS kept by the build', () => {
  for (const role of ['patient', 'doctor'] as const) {
    test(`every Bootstrap class on the ${role}'s screens still has its rules`, { timeout: 120_000 }, async ({ page }) => {
      await login(page, role);
      const missing: string[] = [];
      for (const path of ['/', ...SCREENS[role]]) {
        if (path !== '/')
          await page
            .getByRole('link', { name: menuLabel(path) })
            .first()
            .click();
        await page.waitForURL(`**${path === '/' ? `/${role}/dashboard` : path}`);
        // the screen, not its loading spinner: the classes checked are those of the loaded screen
        await page.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor();
        await settled(() => page.locator('main .spinner-border').count()).toBe(0);
        for (const name of await unstyledBootstrapClasses(page)) missing.push(`${pathOf(page)}: .${name}`);
      }
      expect(missing).toEqual([]);
    });
  }
});

function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

// The side-menu label of a screen, to move between screens as a user does (the session stays in memory).
function menuLabel(path: string): string {
  const labels: Record<string, string> = {
    dashboard: 'Dashboard',
    profile: 'My Profile',
    records: 'Medical Records',
    upload: 'Upload Documents',
    sharing: 'Sharing',
    patients: 'My Patients',
    emergency: 'SOS Emergency',
    blockchain: 'Blockchain Explorer',
    'mining-lab': 'Mining Lab',
  };
  return labels[path.split('/').pop() ?? ''];
}
