// Every browser holds the same demo ledger, so devices join the sync server as one ledger: connecting signs nobody
// out, and a device that wrote alone merges with what the server holds, every block kept, in one order on every
// device (docs/decisions/one-demo-ledger.md, one-ledger-across-devices.md).
import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import type { Role } from '../../workers/core/types';
import type { ServerProcess } from '../server/support/server-process';
import { chainRows, chainVerdict, newDevice, openChain, serverForTest, syncCard, waitForSyncState } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { section } from './support/read';
import { downloadFile, goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';

beforeAll(() => buildServer());

// Every path the page goes to from now on: a sign-out would show as the login screen's '/'.
function pathsFrom(page: Page): string[] {
  const paths: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
  });
  return paths;
}

// Connects from My Profile and waits until the device is in step, signed in all along.
async function connectSignedIn(page: Page, server: ServerProcess, role: Role, name: string): Promise<void> {
  await page.goto(`/${role}/profile`);
  const paths = pathsFrom(page);
  const card = syncCard(page);
  await card.getByLabel('Server address').fill(`ws://127.0.0.1:${server.port}`);
  await card.getByLabel("This device's name").fill(name);
  await card.getByRole('button', { name: 'Connect' }).click();
  await waitForSyncState(page, 'in-step');
  expect(paths).not.toContain('/');
  expect(new URL(page.url()).pathname).toBe(`/${role}/profile`);
  await page.getByRole('button', { name: 'Logout' }).waitFor();
}

describe('devices of the one demo ledger', { timeout: 240_000 }, () => {
  test("a patient's and a doctor's device each connect without signing anyone out, and the patient's upload reaches the doctor with its file", async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverForTest();
    await login(page, 'patient');
    await connectSignedIn(page, server, 'patient', 'Sarah’s laptop');
    const carter = (await newDevice(browser, baseUrl)).page;
    await login(carter, 'doctor');
    await connectSignedIn(carter, server, 'doctor', 'Dr. Carter’s PC');

    const report = pdfFile('echo-report.pdf');
    await uploadRecord(page, 'Echocardiogram', [report]);
    await goTo(page, 'Sharing', 'Sharing');
    const form = page.getByRole('form', { name: 'Share records' });
    await form.getByLabel('Doctor', { exact: true }).selectOption({ label: 'Dr. Emily Carter (Cardiology)' });
    await form.getByRole('radio', { name: /Full/ }).check();
    await form.getByLabel('Duration').selectOption({ label: 'Until revoked' });
    await form.getByRole('button', { name: 'Share records' }).click();
    await page.getByText(/^Shared with Dr. Emily Carter/).waitFor({ timeout: 15_000 });

    await goTo(carter, 'My Patients', 'My Patients');
    const shared = section(carter, 'Shared with me').getByRole('listitem').filter({ hasText: 'Sarah Johnson' });
    await shared.waitFor({ timeout: 30_000 });
    await shared.getByRole('button', { name: 'Open shared records of Sarah Johnson' }).click();
    const record = recordItem(section(carter, 'Complete History'), 'Echocardiogram');
    await record.waitFor({ timeout: 30_000 });
    const download = record.getByRole('button', { name: 'Download echo-report.pdf', exact: true });
    await expect.poll(() => download.isEnabled(), { timeout: 60_000 }).toBe(true);
    expect((await downloadFile(record, 'echo-report.pdf')).bytes.equals(report.buffer)).toBe(true);
  });

  test('a fresh device that wrote alone connects to a server holding other uploads: both sets end on both devices, in one order', async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverForTest();
    await login(page, 'patient');
    await connectSignedIn(page, server, 'patient', 'Laptop');
    await uploadRecord(page, 'Written on the laptop', [pdfFile('laptop.pdf')]);
    await expect.poll(async () => (await server.info()).height, { timeout: 15_000 }).toBe(2);

    const tablet = (await newDevice(browser, baseUrl)).page;
    await login(tablet, 'patient');
    await uploadRecord(tablet, 'Written alone on the tablet', [pdfFile('tablet.pdf')], { type: 'Test Report' });
    await connectSignedIn(tablet, server, 'patient', 'Tablet');

    for (const device of [page, tablet]) {
      await goTo(device, 'Medical Records', 'Medical Records');
      await recordItem(device, 'Written on the laptop').waitFor({ timeout: 30_000 });
      await recordItem(device, 'Written alone on the tablet').waitFor({ timeout: 30_000 });
    }
    await openChain(page, 'patient');
    await openChain(tablet, 'patient');
    await expect.poll(() => chainRows(page), { timeout: 30_000 }).toHaveLength(3);
    await expect.poll(() => chainRows(tablet), { timeout: 30_000 }).toEqual(await chainRows(page));
    await expect.poll(() => chainVerdict(tablet), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => chainVerdict(page), { timeout: 30_000 }).toBe('true');
    expect((await server.info()).height).toBe(3);
  });
});
