// A large file crosses devices in chunks the receiving device counts (docs/decisions/one-ledger-across-devices.md):
// the patient's device uploads about 6 MB through the real sync server, and the doctor's device, on a slow link,
// lists the record at once with its file arriving and how far it came, then opens it once it has landed.
import { beforeAll, onTestFailed } from 'vitest';
import buildServer from '../server/global-setup';
import { connect, newDevice, serverWith } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { downloadFile, goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';
import { slowLink } from './support/slow-link';

const MB = 1024 * 1024;

beforeAll(() => buildServer());

describe('a file arriving from another device', { timeout: 240_000 }, () => {
  test("shows on the doctor's device as arriving with its progress, then opens once it has landed", async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');

    const doctor = (await newDevice(browser, baseUrl)).page;
    const link = await slowLink(server.port, 1.5 * MB); // about 4 s for the file's chunks
    await login(doctor, 'doctor');
    await connect(doctor, { ...server, port: link.port }, 'doctor', 'Clinic PC');
    await goTo(doctor, 'My Patients', 'My Patients');

    const scan = pdfFile('ultrasound.pdf', `%PDF-1.4 abdominal ultrasound ${'u'.repeat(6 * MB)}`);
    await uploadRecord(page, 'Abdominal ultrasound', [scan], { type: 'Test Report' });

    const item = recordItem(doctor, 'Abdominal ultrasound');
    onTestFailed(async () => {
      const shown = await item.innerText({ timeout: 1_000 }).catch(() => 'no record');
      console.log(`the doctor's record: ${JSON.stringify(shown)}\nserver:\n${server.lines.join('\n')}`);
    });
    await item.waitFor({ timeout: 30_000 });
    const bar = item.getByRole('progressbar', { name: /^Arriving from another device: \d+% \(\d+\.\d of 6\.0 MB\)$/ });
    await bar.waitFor({ timeout: 30_000 });
    // its name is sealed under its key, which this device takes once the bytes have landed: until then 'Sealed file'
    const arriving = item.getByRole('button', { name: 'Download Sealed file', exact: true });
    expect(await arriving.isDisabled()).toBe(true);
    expect(await arriving.getAttribute('aria-describedby')).toBe(
      await item.locator('.document-arrival-words').getAttribute('id'),
    );
    // counted as its chunks land: part of it here, not all
    await expect
      .poll(
        async () => {
          const value = Number((await bar.getAttribute('value', { timeout: 1_000 }).catch(() => null)) ?? -1);
          return value > 0 && value < Number(await bar.getAttribute('max').catch(() => 0));
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    // it lands: no reload, its name opens and the buttons open it
    const download = item.getByRole('button', { name: 'Download ultrasound.pdf', exact: true });
    await download.waitFor({ timeout: 90_000 });
    await expect.poll(() => download.isEnabled(), { timeout: 90_000 }).toBe(true);
    expect(await item.getByRole('progressbar').count()).toBe(0);
    expect(await item.getByRole('button', { name: 'Open ultrasound.pdf', exact: true }).isEnabled()).toBe(true);
    const saved = await downloadFile(item, 'ultrasound.pdf');
    expect(saved.bytes.equals(scan.buffer)).toBe(true);
  });
});
