// Every screen of both roles at 320, 390, 768 and 1280 px wide and at 200% zoom: no text or control runs out of
// its card, table cell or the viewport (each text node measured with a Range), and axe finds no violation.
// One page per role walks its screens, and each screen is checked at every size before moving on.
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { formatViolations, scanA11y } from './support/axe';
import { describe, expect, test } from './support/fixtures';
import { sandboxPanel, tamperDemoBlock7 } from './support/explorer';
import { FIT_SIZES, fitProblems } from './support/fit';
import { DESKTOP } from './support/page';
import { goTo, openMiningLab, pdfFile, recordItem } from './support/records';
import { login } from './support/session';

const settled = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

// Checks the screen as it is now at every size; returns what is wrong, by size. A screen that lasts only a few
// seconds (the upload's success panel) is scanned by axe once, at the first size, and measured at all of them.
async function checkAtEverySize(page: Page, screen: string, { axeOnce = false } = {}): Promise<string[]> {
  const report: string[] = [];
  for (const size of FIT_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await settled(page);
    const at = `${screen} at ${size.name}`;
    const fit = await fitProblems(page);
    if (fit.length > 0) report.push(`${at}: layout\n${fit.map((problem) => `    ${problem}`).join('\n')}`);
    if (axeOnce && size !== FIT_SIZES[0]) continue;
    const violations = await scanA11y(page);
    if (violations.length > 0) report.push(`${at}: axe\n${formatViolations(violations)}`);
  }
  await page.setViewportSize(DESKTOP);
  await settled(page);
  return report;
}

describe('every screen fits at 320, 390, 768, 1280 px and 200% zoom, and passes axe', () => {
  test('login, and the patient screens', async ({ page }) => {
    const report: string[] = [];
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    report.push(...(await checkAtEverySize(page, 'login')));
    await page.getByLabel('Email').fill(DEMO_ACCOUNTS.patient);
    await page.getByLabel('Password').fill(`${DEMO_PASSWORD}x`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').waitFor();
    report.push(...(await checkAtEverySize(page, 'login with an error')));

    await login(page, 'patient');
    await goTo(page, 'Upload Documents', 'Upload Medical Documents');
    await page.getByLabel('Add files').setInputFiles([pdfFile('blood-test-results-march-2026-complete-panel.pdf')]);
    await page.getByLabel('Title').fill('Complete blood count with differential and platelet count');
    report.push(...(await checkAtEverySize(page, 'upload form with a file')));
    await page.getByRole('button', { name: 'Upload Documents' }).click();
    await page.getByRole('heading', { name: 'Upload successful' }).waitFor({ timeout: 15_000 });
    report.push(...(await checkAtEverySize(page, 'upload success', { axeOnce: true })));
    await page.getByRole('heading', { name: 'Upload successful' }).waitFor(); // still shown: the checks above saw it

    await goTo(page, 'Dashboard', /Welcome back/);
    await page.getByText('Complete blood count with differential').first().waitFor();
    report.push(...(await checkAtEverySize(page, 'patient dashboard')));
    await goTo(page, 'My Profile', 'My Profile');
    report.push(...(await checkAtEverySize(page, 'patient profile')));
    await goTo(page, 'Medical Records', 'Medical Records');
    const record = recordItem(page, 'Complete blood count with differential and platelet count');
    await record.waitFor();
    await record.locator('summary').click(); // the chain proof, open
    report.push(...(await checkAtEverySize(page, 'medical records')));
    await record.getByRole('button', { name: /^Open / }).click();
    const preview = page.getByRole('dialog', { name: 'blood-test-results-march-2026-complete-panel.pdf' });
    await preview.waitFor();
    report.push(...(await checkAtEverySize(page, 'document preview')));
    await preview.getByRole('button', { name: 'Close', exact: true }).click();
    await preview.waitFor({ state: 'hidden' });
    await goTo(page, 'Sharing', /Sharing/);
    report.push(...(await checkAtEverySize(page, 'sharing')));
    await goTo(page, 'Blockchain Explorer', 'Blockchain Explorer');
    await page.getByText('Chain valid.').waitFor();
    report.push(...(await checkAtEverySize(page, 'patient explorer')));
    await openMiningLab(page);
    report.push(...(await checkAtEverySize(page, 'patient mining lab')));
    await page.getByLabel('Difficulty (leading zeros)').selectOption('1');
    await page.getByLabel('Blocks', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Start mining' }).click();
    await page.locator('tr[data-place="worker"]').first().waitFor({ timeout: 60_000 });
    report.push(...(await checkAtEverySize(page, 'mining lab after a run')));
    expect(report, report.join('\n')).toEqual([]);
  });

  test('the doctor screens, with an emergency session open', async ({ page }) => {
    const report: string[] = [];
    await login(page, 'doctor');
    await goTo(page, 'SOS Emergency', 'SOS Emergency Access');
    await page.getByRole('radio', { name: /Michael Chen/ }).check();
    await page.getByLabel('Reason for emergency access').fill('Unconscious patient admitted to the ER after a fall');
    await page.getByLabel('Duration').selectOption({ label: '4 hours' });
    report.push(...(await checkAtEverySize(page, 'SOS form')));
    await page.getByRole('button', { name: 'Grant Emergency Access' }).click();
    await page.getByRole('region', { name: 'Emergency Access Active' }).waitFor();
    report.push(...(await checkAtEverySize(page, 'SOS active')));
    await goTo(page, 'Dashboard', /^Welcome, /);
    await page.getByRole('region', { name: 'Active emergency access' }).waitFor();
    report.push(...(await checkAtEverySize(page, 'doctor dashboard')));
    await goTo(page, 'My Profile', 'My Profile');
    report.push(...(await checkAtEverySize(page, 'doctor profile')));
    await goTo(page, 'My Patients', 'My Patients');
    report.push(...(await checkAtEverySize(page, 'my patients')));
    await goTo(page, 'Blockchain Explorer', 'Blockchain Explorer');
    await page.getByText('Chain valid.').waitFor();
    report.push(...(await checkAtEverySize(page, 'doctor explorer')));
    await tamperDemoBlock7(page);
    report.push(...(await checkAtEverySize(page, 'tamper demo with block 7 changed')));
    await page.getByRole('tab', { name: 'Peers' }).click();
    await sandboxPanel(page, 'peers')
      .getByRole('table', { name: /three peers/ })
      .waitFor();
    report.push(...(await checkAtEverySize(page, 'peers')));
    await goTo(page, 'Mining Lab', 'Mining Lab');
    report.push(...(await checkAtEverySize(page, 'doctor mining lab')));
    expect(report, report.join('\n')).toEqual([]);
  });
});

describe('the fit check', () => {
  test('finds text out of its card, a control out of the viewport, a cut select or placeholder and a page wider than the screen', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 600 });
    await page.setContent(`
      <div class="card" style="width: 200px; border: 1px solid"><span style="white-space: nowrap">LAST UPLOAD Nov 24, 2026 and more words</span></div>
      <button style="margin-left: 300px; width: 80px">Cut</button>
      <select style="width: 90px"><option>5 (about 1,048,576 attempts a block)</option></select>
      <input type="search" style="width: 150px" placeholder="Search patients by name or ID">
      <input type="search" style="width: 150px" placeholder="Name or ID">
      <input type="search" style="width: 150px" placeholder="Search patients by name or ID" value="chen">
      <div style="width: 400px; height: 4px"></div>
      <div style="width: 200px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">A long truncated title that keeps its full text in a tooltip</div>
      <span style="position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap">Only for screen readers, a long sentence</span>`);
    const problems = await fitProblems(page);
    expect(problems).toEqual([
      expect.stringMatching(/^the page is 4\d\dpx wide in a 320px viewport$/),
      'text "LAST UPLOAD Nov 24, 2026 and more words" sticks out of div.card',
      expect.stringMatching(/^text "Cut" runs past the viewport/),
      expect.stringMatching(/^button runs past the viewport/),
      expect.stringMatching(/^select "5 \(about 1,048,576 attempts a block\)" is cut/),
      'placeholder "Search patients by name or ID" is cut',
    ]);
  });

  test('finds the avatar covering Logout in the top bar', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 600 });
    await page.setContent(`
      <header class="top-bar" style="position: relative; height: 56px">
        <span class="avatar" style="position: absolute; left: 240px; width: 36px; height: 36px">EC</span>
        <button class="logout-button" style="position: absolute; left: 260px; width: 40px; height: 32px">Out</button>
      </header>`);
    expect(await fitProblems(page)).toEqual(['span.avatar overlaps button.logout-button']);
  });
});
