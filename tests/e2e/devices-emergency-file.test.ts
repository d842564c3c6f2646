// A file opens under a full emergency grant while every device of the patient is offline: its bytes come through
// the sync server and its key from the server's care-network release to the doctor's enrolled key; the patient's
// device, once connected again, lists the grant and the read of that file.
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { connect, disconnect, newDevice, serverWith, waitForSyncState } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { section, text } from './support/read';
import { downloadFile, goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';

const WILSON = 'james.wilson@medledger.demo';
const REASON = 'Found unresponsive, needs the latest cardiology report';

beforeAll(() => buildServer());

describe('emergency access to a file across devices', { timeout: 240_000 }, () => {
  test("a doctor with no share opens a patient's file under a full SOS grant while the patient's devices are offline", async ({
    page,
    browser,
    baseUrl,
  }) => {
    const report = pdfFile('cardiology-report.pdf', `%PDF-1.4 ECG sinus rhythm ${'c'.repeat(400)}`);
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');
    await uploadRecord(page, 'Cardiology report', [report], { description: 'ECG and echo', type: 'Test Report' });
    // in step: the record's block, and the wraps that travel with it, are on the server
    await page.goto('/patient/profile');
    await waitForSyncState(page, 'in-step');
    await disconnect(page, 'patient');

    const wilson = (await newDevice(browser, baseUrl)).page;
    await login(wilson, 'doctor', WILSON);
    await connect(wilson, server, 'doctor', 'Wilson’s ER tablet', WILSON); // the same demo ledger: he stays signed in
    await goTo(wilson, 'SOS Emergency', 'SOS Emergency Access');
    await wilson.getByRole('radio', { name: /Sarah Johnson/ }).check();
    await wilson.getByLabel('Reason for emergency access').fill(REASON);
    await wilson.getByRole('radio', { name: /Full/ }).check();
    await wilson.getByRole('button', { name: 'Grant Emergency Access' }).click();
    await wilson.getByRole('region', { name: 'Emergency Access Active' }).waitFor({ timeout: 15_000 });
    const item = recordItem(section(wilson, 'Complete History'), 'Cardiology report');
    await item.waitFor({ timeout: 20_000 });
    // the file's name is sealed under its key, which this device has not got yet: the list names it 'Sealed file'
    await item.getByRole('button', { name: 'Download Sealed file', exact: true }).waitFor();
    expect(await text(item)).not.toContain('cardiology-report.pdf');
    // the file's bytes may still be on their way to this device: open it again until it comes
    // the file is saved by its real name, also when the click named it 'Sealed file': its key came with that read
    const opened = async (name: string) => {
      try {
        const download = await downloadFile(item, name);
        return download.name === 'cardiology-report.pdf' && download.bytes.equals(report.buffer);
      } catch {
        console.log(`no download yet; alerts: ${JSON.stringify(await wilson.getByRole('alert').allTextContents())}`);
        return false;
      }
    };
    await expect.poll(() => opened('Sealed file'), { timeout: 60_000 }).toBe(true);
    // with the key here, the name opens too, and the file opens by it
    await item.getByRole('button', { name: 'Download cardiology-report.pdf', exact: true }).waitFor({ timeout: 20_000 });
    expect(await opened('cardiology-report.pdf')).toBe(true);
    // the key came from the server's care network, re-wrapped to Dr. Wilson under his grant
    expect(server.lines.some((line) => /^\[sync\] released the key of document \S+ to \S+ under grant /.test(line))).toBe(true);

    await connect(page, server, 'patient', 'Sarah’s laptop');
    await goTo(page, 'Medical Records', 'Medical Records');
    const entry = section(page, 'Emergency Access History').locator('li.access-entry').filter({ hasText: 'Dr. James Wilson' });
    await entry.getByText(REASON).waitFor({ timeout: 20_000 });
    await expect
      .poll(() => entry.locator('.access-reads li span').allTextContents(), { timeout: 20_000 })
      .toContain('document "cardiology-report.pdf"');
  });
});
