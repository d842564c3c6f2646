// The sync server killed while a block travels and started again on the same folder and port: both devices go
// offline, keep working, reconnect by themselves, and end in step with nothing lost.
import { beforeAll, onTestFinished } from 'vitest';
import buildServer from '../server/global-setup';
import { startServer } from '../server/support/server-process';
import { chainRows, connectedDevice, openChain, serverWith, waitForSyncState } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';

beforeAll(() => buildServer());

// the worker's WebSocket logs each failed retry while the server is down
const RETRY_FAILED = /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/' failed/;

describe('the sync server restarts', { timeout: 240_000 }, () => {
  test('devices go offline when the server dies mid-sync and come back in step when it restarts, every upload kept', async ({
    recorded,
    browser,
    baseUrl,
  }) => {
    const page = recorded.page;
    const server = await serverWith(page, 'patient', 'Laptop');
    const phoneDevice = await connectedDevice(browser, baseUrl, server, 'patient', 'Phone');
    const phone = phoneDevice.page;
    recorded.allowProblem(RETRY_FAILED);
    phoneDevice.allowProblem(RETRY_FAILED);

    await uploadRecord(page, 'Sent as the server died', [pdfFile('died.pdf')]);
    await server.kill('SIGKILL');
    await page.goto('/patient/profile');
    await phone.goto('/patient/profile');
    await waitForSyncState(page, 'offline');
    await waitForSyncState(phone, 'offline');
    await uploadRecord(page, 'Written while the server was down', [pdfFile('down.pdf')]);

    const restarted = await startServer(server.dir, server.port);
    onTestFinished(() => restarted.kill());
    await page.goto('/patient/profile');
    await waitForSyncState(page, 'in-step', 60_000);
    await waitForSyncState(phone, 'in-step', 60_000);
    await goTo(phone, 'Medical Records', 'Medical Records');
    await recordItem(phone, 'Sent as the server died').waitFor({ timeout: 20_000 });
    await recordItem(phone, 'Written while the server was down').waitFor({ timeout: 20_000 });
    await openChain(page, 'patient');
    await openChain(phone, 'patient');
    await expect.poll(() => chainRows(phone), { timeout: 15_000 }).toEqual(await chainRows(page));
    await expect.poll(async () => (await restarted.info()).height, { timeout: 15_000 }).toBe((await chainRows(page)).length);
  });
});
