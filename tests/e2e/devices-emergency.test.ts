// An emergency grant made while the patient's device is disconnected reaches it when it connects again: its
// dashboard alerts the patient and Medical Records lists the access.
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { connect, connectedDevice, disconnect, serverWith } from './support/devices';
import { describe, test } from './support/fixtures';
import { section } from './support/read';
import { goTo } from './support/records';

beforeAll(() => buildServer());

describe('emergency access across devices', { timeout: 180_000 }, () => {
  test("a grant made on the doctor's device while the patient's is disconnected shows on the patient's after it reconnects", async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');
    const doctor = (await connectedDevice(browser, baseUrl, server, 'doctor', 'ER tablet')).page;
    await disconnect(page, 'patient');

    await goTo(doctor, 'SOS Emergency', 'SOS Emergency Access');
    await doctor.getByRole('radio', { name: /Sarah Johnson/ }).check();
    await doctor.getByLabel('Reason for emergency access').fill('Unconscious on arrival, allergy check');
    await doctor.getByRole('button', { name: 'Grant Emergency Access' }).click();
    await doctor.getByRole('region', { name: 'Emergency Access Active' }).waitFor({ timeout: 15_000 });

    await goTo(page, 'Dashboard', /Welcome back/);
    await page.getByRole('heading', { name: 'Emergency access to your records' }).waitFor({ state: 'detached' });
    await connect(page, server, 'patient', 'Sarah’s laptop');
    await goTo(page, 'Dashboard', /Welcome back/);
    await page.getByRole('heading', { name: 'Emergency access to your records' }).waitFor({ timeout: 20_000 });
    await goTo(page, 'Medical Records', 'Medical Records');
    const entry = section(page, 'Emergency Access History').locator('li.access-entry').filter({ hasText: 'Dr. Emily Carter' });
    await entry.getByText('Unconscious on arrival, allergy check').waitFor();
  });
});
