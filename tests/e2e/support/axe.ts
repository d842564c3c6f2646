import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = Result;

// Loads axe-core into the page and returns every violation of the WCAG 2.x A/AA rules and best practices.
export async function scanA11y(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, not page.addScriptTag: the app's Content-Security-Policy
  // (script-src 'self') rightly refuses an inline <script>. Once per document; a second scan reuses it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResults> } }).axe;
    return axe.run(document);
  });
  return results.violations;
}

export function seriousViolations(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

// One readable block per violation: rule, impact, help text and the offending elements.
export function formatViolations(violations: AxeViolation[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .slice(0, 5)
        .map((node) => `      ${node.target.join(' ')}\n        ${node.failureSummary?.replace(/\n/g, '\n        ') ?? ''}`)
        .join('\n');
      const more = violation.nodes.length > 5 ? `\n      ... and ${violation.nodes.length - 5} more` : '';
      return `  [${violation.impact}] ${violation.id}: ${violation.help}\n    ${violation.helpUrl}\n${nodes}${more}`;
    })
    .join('\n');
}
