// A share and its revocation travel between devices: Sarah shares on her laptop, Dr. Wilson's own device (a second
// browser context, through the real sync server) lists it under Shared with me, and drops it when she revokes.
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { connectedDevice, serverWith } from './support/devices';
import { describe, test } from './support/fixtures';
import { section } from './support/read';
import { goTo } from './support/records';

const WILSON = 'james.wilson@medledger.demo';

beforeAll(() => buildServer());

describe('sharing across devices', { timeout: 180_000 }, () => {
  test("a share made on the patient's device shows on the doctor's device, and its revocation removes it there", async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');
    const wilson = (await connectedDevice(browser, baseUrl, server, 'doctor', 'Wilson’s PC', WILSON)).page;
    await goTo(wilson, 'My Patients', 'My Patients');
    const shared = section(wilson, 'Shared with me');
    await shared.getByText('No patient is sharing records with you.').waitFor();

    await goTo(page, 'Sharing', 'Sharing');
    const form = page.getByRole('form', { name: 'Share records' });
    await form.getByLabel('Doctor', { exact: true }).selectOption({ label: 'Dr. James Wilson (Emergency Medicine)' });
    await form.getByRole('button', { name: 'Share records' }).click();
    await page.getByText(/^Shared with Dr. James Wilson/).waitFor({ timeout: 15_000 });
    await shared.getByRole('listitem').filter({ hasText: 'Sarah Johnson' }).waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Revoke the share with Dr. James Wilson' }).click();
    await page.getByText('Dr. James Wilson can no longer read your records.').waitFor({ timeout: 15_000 });
    await shared.getByText('No patient is sharing records with you.').waitFor({ timeout: 20_000 });
  });
});
