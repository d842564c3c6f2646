// The main flows with the keyboard only (Tab, Shift+Tab, arrows, Space, Enter, typing): login, upload, SOS grant
// and end. No click and no fill: every control is reached by Tab and worked by its keys. After an error, focus is
// on the message.
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { describe, test } from './support/fixtures';
import { settled, text } from './support/read';
import { pdfFile } from './support/records';
import { readStoredLedger, storeBlocks } from './support/stored-ledger';

const MAX_TABS = 60;

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement).catch(() => false);
}

// Presses Tab (or Shift+Tab) until `target` has focus; fails if it is not in the tab order.
async function tabTo(page: Page, target: Locator, { backwards = false } = {}): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses < MAX_TABS; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} was not reached with ${MAX_TABS} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

// What has focus: its role (explicit or tag) and its text, to assert where focus went.
function focused(page: Page): Promise<{ role: string; text: string }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return { role: element?.getAttribute('role') ?? element?.tagName.toLowerCase() ?? '', text: element?.innerText.trim() ?? '' };
  });
}

async function typeInto(page: Page, field: Locator, value: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(value);
}

// Playwright turns on file chooser interception when the first listener is added, asynchronously: adding one
// early keeps a fast key press from opening the real (headless, never answered) dialog instead.
function interceptFileChoosers(page: Page): void {
  page.on('filechooser', () => undefined);
}

const menuLink = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label, exact: true });

async function keyboardLogin(page: Page, role: 'patient' | 'doctor', password = DEMO_PASSWORD): Promise<void> {
  const patient = page.getByRole('radio', { name: 'Patient' });
  await tabTo(page, patient);
  if (role === 'doctor') await page.keyboard.press('ArrowRight'); // a radio group moves and selects with the arrows
  await settled(() => page.getByRole('radio', { name: role === 'doctor' ? 'Doctor' : 'Patient' }).isChecked()).toBe(true);
  await typeInto(page, page.getByLabel('Email'), DEMO_ACCOUNTS[role]);
  await typeInto(page, page.getByLabel('Password'), password);
  await tabTo(page, page.getByRole('button', { name: 'Sign In' }));
  await page.keyboard.press('Enter');
}

describe('keyboard only', () => {
  test('login: a wrong password or user type puts focus on the message; the right one signs in; Logout is reachable', async ({
    page,
  }) => {
    await page.goto('/');
    await keyboardLogin(page, 'patient', `${DEMO_PASSWORD}x`);
    const alert = page.getByRole('alert').filter({ hasText: 'Invalid email or password' });
    await alert.waitFor();
    await settled(() => isFocused(alert)).toBe(true);
    await settled(() => focused(page)).toEqual({ role: 'alert', text: 'Invalid email or password' });

    await keyboardLogin(page, 'doctor', DEMO_PASSWORD);
    await page.waitForURL('**/doctor/dashboard');
    await tabTo(page, page.getByRole('button', { name: 'Logout' }), { backwards: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/$/);
    await tabTo(page, page.getByRole('button', { name: 'Fill Demo Credentials' }));
    await page.keyboard.press('Enter');
    await settled(() => page.getByLabel('Email').inputValue()).toBe(DEMO_ACCOUNTS.patient);
    // the doctor's email with the patient toggle: focus is on the new message too
    await tabTo(page, page.getByLabel('Email'), { backwards: true });
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(DEMO_ACCOUNTS.doctor);
    await page.keyboard.press('Enter'); // Enter in a field submits the form too
    const wrongType = page.getByRole('alert').filter({ hasText: 'This account is registered as a doctor.' });
    await wrongType.waitFor();
    await settled(() => isFocused(wrongType)).toBe(true);
  });

  test('upload: choose files from the keyboard, remove one, name the record, upload, see the success panel', async ({ page }) => {
    interceptFileChoosers(page);
    await page.goto('/');
    await keyboardLogin(page, 'patient');
    await page.waitForURL('**/patient/dashboard');
    await tabTo(page, menuLink(page, 'Upload Documents'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Upload Medical Documents', level: 1 }).waitFor();

    // the record type toggle: arrows move between its radios
    await tabTo(page, page.getByRole('radio', { name: 'Prescription' }));
    await page.keyboard.press('ArrowRight');
    await settled(() => page.getByRole('radio', { name: 'Test Report' }).isChecked()).toBe(true);

    // the file input opens the file chooser from the keyboard
    await tabTo(page, page.getByLabel('Add files'));
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles([
      pdfFile('lipid-panel.pdf'),
      pdfFile('old-scan.pdf'),
      { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ]);
    await page.getByRole('alert').filter({ hasText: 'setup.exe' }).waitFor();
    const selected = page.getByRole('list', { name: 'Selected files' }).getByRole('listitem');
    await selected.nth(1).waitFor();
    await tabTo(page, page.getByRole('button', { name: /Remove old-scan\.pdf/ }));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Selected files"] li').length === 1);
    await settled(() => text(selected.first())).toContain('lipid-panel.pdf');

    await typeInto(page, page.getByLabel('Title'), 'Lipid panel');
    await typeInto(page, page.getByLabel(/Description/), 'Fasting sample');
    await tabTo(page, page.getByRole('button', { name: 'Upload Documents' }));
    await page.keyboard.press('Enter');
    const success = page.getByRole('heading', { name: 'Upload successful' });
    await success.waitFor({ timeout: 15_000 });
    // focus follows the result, so a keyboard user is not left on a button that no longer exists
    await settled(() => isFocused(page.getByRole('status').filter({ hasText: 'Upload successful' }))).toBe(true);
  });

  test('an upload refused by the ledger puts focus on the message', async ({ page, recorded }) => {
    interceptFileChoosers(page);
    await page.goto('/');
    await keyboardLogin(page, 'patient');
    await page.waitForURL('**/patient/dashboard');
    // a stored genesis block changed at rest makes the ledger refuse every write
    const [genesis] = (await readStoredLedger(page)).blocks;
    await storeBlocks(page, [{ ...genesis, data: { ...genesis.data, title: 'Forged' } }]);
    await page.goto('/patient/upload');
    await page.getByRole('heading', { name: 'Upload Medical Documents', level: 1 }).waitFor();
    await tabTo(page, page.getByLabel('Add files'));
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(pdfFile('late.pdf'));
    await typeInto(page, page.getByLabel('Title'), 'Refused upload');
    recorded.allowProblem(/MedLedger: upload failed/);
    await tabTo(page, page.getByRole('button', { name: 'Upload Documents' }));
    await page.keyboard.press('Enter');
    const refused = page.getByRole('alert').filter({ hasText: 'failed verification at block 0' });
    await refused.waitFor({ timeout: 15_000 });
    await settled(() => isFocused(refused)).toBe(true);
  });

  test('SOS: search, select a patient, give a reason, level and duration, grant, then end the session', async ({ page }) => {
    await page.goto('/');
    await keyboardLogin(page, 'doctor');
    await page.waitForURL('**/doctor/dashboard');
    await tabTo(page, menuLink(page, 'SOS Emergency'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'SOS Emergency Access', level: 1 }).waitFor();

    await typeInto(page, page.getByRole('searchbox', { name: 'Search patients by name or ID' }), 'chen');
    await page.waitForFunction(() => document.querySelectorAll('input[name="patient"]').length === 1);
    const michael = page.getByRole('radio', { name: /Michael Chen/ });
    await tabTo(page, michael);
    await page.keyboard.press('Space');
    await settled(() => michael.isChecked()).toBe(true);

    await typeInto(page, page.getByLabel('Reason for emergency access'), 'Unconscious patient admitted to the ER');
    await tabTo(page, page.getByRole('radio', { name: /Basic/ }));
    await page.keyboard.press('ArrowRight');
    await settled(() => page.getByRole('radio', { name: /Full/ }).isChecked()).toBe(true);
    const duration = page.getByLabel('Duration');
    await tabTo(page, duration);
    await page.keyboard.press('ArrowDown'); // 60 -> 120 minutes without opening the list
    await settled(() => duration.inputValue()).toBe('120');

    await tabTo(page, page.getByRole('button', { name: 'Grant Emergency Access' }));
    await page.keyboard.press('Enter');
    const active = page.getByRole('region', { name: 'Emergency Access Active' });
    await active.waitFor();
    await settled(() => text(active)).toContain('Michael Chen');
    // focus moved to the heading of the panel that replaced the form
    await settled(() => isFocused(active.getByRole('heading', { name: 'Emergency Access Active' }))).toBe(true);

    await tabTo(page, page.getByRole('button', { name: 'End Emergency Session' }));
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Grant Emergency Access' }).waitFor();
    await settled(() => active.count()).toBe(0);
  });
});
