// docs/decisions/enforced-emergency-access.md in the built app: a doctor's SOS grant shows what it allows, the worker refuses reads once its clock
// passes the expiry, the panel closes itself at 00:00, and the patient sees every access in their history.
import type { BrowserContext, Page } from 'playwright-core';
import { MESSAGES } from '../../workers/core/errors';
import { describe, expect, test } from './support/fixtures';
import { detail, section, settled, text } from './support/read';
import { downloadFile, goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login, logout } from './support/session';

const MICHAEL = 'michael.chen@medledger.demo'; // patient-2: not Dr. Carter's patient
const CLOCK_CHANNEL = 'medledger-test-clock';

// The product has no clock hook. The test adds one to its own browser: this prelude shifts Date.now in the page
// (init script) and in the ledger worker (its script, rewritten on the way in) by an offset sent over a BroadcastChannel.
const CLOCK_PRELUDE = `(() => {
  const where = typeof window === 'undefined' ? 'worker' : 'page';
  const realNow = Date.now.bind(Date);
  let offset = 0;
  const channel = new BroadcastChannel('${CLOCK_CHANNEL}');
  channel.onmessage = (event) => {
    if (event.data?.target !== where) return;
    offset = event.data.offsetMs;
    channel.postMessage({ ack: where, offsetMs: offset });
  };
  Date.now = () => realNow() + offset;
})();
`;

async function installShiftableClock(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: CLOCK_PRELUDE });
  await context.route(/\/assets\/ledger\.worker-[\w-]+\.js$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: CLOCK_PRELUDE + (await response.text()) });
  });
}

// Moves one side's clock to realNow + offsetMs and waits until that side confirms.
async function shiftClock(page: Page, target: 'page' | 'worker', offsetMs: number): Promise<void> {
  await page.evaluate(
    ({ channelName, target, offsetMs }) =>
      new Promise<void>((resolve, reject) => {
        const channel = new BroadcastChannel(channelName);
        const timer = setTimeout(() => reject(new Error(`the ${target} clock did not answer`)), 5000);
        channel.onmessage = (event) => {
          if (event.data?.ack !== target) return;
          clearTimeout(timer);
          channel.close();
          resolve();
        };
        channel.postMessage({ target, offsetMs });
      }),
    { channelName: CLOCK_CHANNEL, target, offsetMs },
  );
}

// Michael uploads a record; Dr. Carter opens SOS for him from My Patients and is granted access.
async function grantOnMichael(
  page: Page,
  level: 'Basic' | 'Full',
  duration: string,
  report = pdfFile('allergy-panel.pdf'),
): Promise<void> {
  await login(page, 'patient', MICHAEL);
  await uploadRecord(page, 'Allergy panel', [report], { description: 'IgE: latex positive', type: 'Test Report' });
  await logout(page);
  await login(page, 'doctor');
  await goTo(page, 'My Patients', 'My Patients');
  await section(page, 'Other Patients').getByRole('link', { name: 'Emergency access for Michael Chen' }).click();
  await page.getByRole('heading', { name: 'SOS Emergency Access', level: 1 }).waitFor();
  await settled(() => page.getByRole('radio', { name: /Michael Chen/ }).isChecked()).toBe(true);
  await page.getByLabel('Reason for emergency access').fill('Anaphylaxis in the ER, unknown allergens');
  await page.getByRole('radio', { name: new RegExp(level) }).check();
  await page.getByLabel('Duration').selectOption({ label: duration });
  await page.getByRole('button', { name: 'Grant Emergency Access' }).click();
  await page.getByRole('region', { name: 'Emergency Access Active' }).waitFor({ timeout: 10_000 });
}

async function michaelsAccessHistory(page: Page) {
  await logout(page);
  await login(page, 'patient', MICHAEL);
  await goTo(page, 'Medical Records', 'Medical Records');
  const history = section(page, 'Emergency Access History');
  const entry = history.locator('li.access-entry').filter({ hasText: 'Dr. Emily Carter' });
  await entry.waitFor();
  return entry;
}

describe('break-the-glass, enforced and visible to the patient', () => {
  test("a doctor's full SOS grant shows the complete history and opens files; the patient sees the access and each read", async ({
    page,
  }) => {
    const report = pdfFile('allergy-panel.pdf', `%PDF-1.4 IgE latex 3.2 kU/L ${'e'.repeat(500)}`);
    await grantOnMichael(page, 'Full', '30 minutes', report);
    const history = section(page, 'Complete History');
    const item = recordItem(history, 'Allergy panel');
    await item.waitFor();
    await settled(() => text(detail(section(page, 'Patient Profile'), 'Allergies'))).toBe('Latex');
    const saved = await downloadFile(item, 'allergy-panel.pdf');
    expect(saved.bytes.equals(report.buffer)).toBe(true);
    await page.getByRole('button', { name: 'End Emergency Session' }).click();
    await page.getByText('Emergency session for Michael Chen ended.').waitFor();

    const entry = await michaelsAccessHistory(page);
    await settled(() => text(entry.locator('.badge'))).toBe('Ended');
    await settled(() => text(detail(entry, 'Reason'))).toBe('Anaphylaxis in the ER, unknown allergens');
    await settled(() => text(detail(entry, 'Access Level'))).toMatch(/^Full/);
    // a session closed within the minute it began shows one "Started and ended" row
    const times = entry.locator('dl > div:has(> dt:text-matches("^(Started|Ended|Started and ended)$")) time');
    const stamps = await times.evaluateAll((found) => found.map((time) => time.getAttribute('datetime')));
    expect(stamps.length).toBe((await detail(entry, 'Started and ended').count()) === 1 ? 1 : 2);
    for (const stamp of stamps) expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    const reads = () => entry.locator('.access-reads li span').allTextContents();
    const fullReads = async () =>
      (await reads()).filter((read) => /^profile, health overview and the complete history \(\d+ records?\)$/.test(read));
    await settled(fullReads).not.toEqual([]);
    await settled(reads).toContain('document "allergy-panel.pdf"');
    // the dashboard alerts the patient until they dismiss it
    await goTo(page, 'Dashboard', /Welcome back/);
    const alert = page.getByRole('heading', { name: 'Emergency access to your records' });
    await alert.waitFor();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
  });

  test('a 15-minute grant: past its expiry the worker denies reads, the panel closes itself, the patient sees it expired', async ({
    page,
    recorded,
  }) => {
    await installShiftableClock(recorded.context);
    await grantOnMichael(page, 'Full', '15 minutes');
    const panel = page.getByRole('region', { name: 'Emergency Access Active' });
    const item = recordItem(section(page, 'Complete History'), 'Allergy panel');
    await item.waitFor();

    // only the worker's clock moves past the expiry: the page still counts down, the worker says no
    await shiftClock(page, 'worker', 15 * 60_000 + 5_000);
    let downloads = 0;
    page.on('download', () => downloads++);
    await item.getByRole('button', { name: 'Download allergy-panel.pdf' }).click();
    await page.getByText(MESSAGES.accessDenied, { exact: true }).first().waitFor();
    expect(downloads).toBe(0); // the refusal shown above is this click's answer: no download comes after it
    await settled(() => text(panel.getByRole('timer'))).toMatch(/^1[45]:\d\d$/);

    // now the page's clock too: the countdown reaches 00:00 and the panel closes, saying why
    await shiftClock(page, 'page', 15 * 60_000 + 5_000);
    await page.getByText(/^Emergency access to Michael Chen ended at .+ \(expired\)$/).waitFor({ timeout: 5_000 });
    await settled(() => panel.count()).toBe(0);
    await settled(() => page.getByText('Allergy panel').count()).toBe(0);

    const entry = await michaelsAccessHistory(page);
    await settled(() => text(entry.locator('.badge'))).toBe('Expired');
    await settled(() => text(detail(entry, 'Access Level'))).toMatch(/^Full/);
    await detail(entry, 'Expired').waitFor();
  });
});
