// One sync status, worded the same wherever it is shown (the side menu, the patient's dashboard, My Profile): alone,
// in step with how many devices, offline since, refused. Two browser contexts as devices, the real sync server.
import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { connectDevice, signedLedger } from '../server/support/devices';
import { connect, connectedDevice, newDevice, serverForTest, syncCard, syncState, waitForSyncState } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { pdfFile, uploadRecord } from './support/records';
import { login } from './support/session';

beforeAll(() => buildServer());

const RETRY_FAILED = /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/' failed/;

const sideMenuStatus = (page: Page) => page.getByRole('region', { name: 'Network status' }).locator('[data-sync-state]');
const dashboardStatus = (page: Page) => page.getByRole('region', { name: 'Blockchain Status' }).locator('[data-sync-state]');

// The status as the side menu and My Profile's card give it, read once both have settled on `state`.
async function statusOnProfile(page: Page, state: string): Promise<{ menu: string; card: string }> {
  await page.goto('/patient/profile');
  await waitForSyncState(page, state);
  await expect.poll(() => sideMenuStatus(page).getAttribute('data-sync-state')).toBe(state);
  return { menu: (await sideMenuStatus(page).textContent()) ?? '', card: (await syncState(page).textContent()) ?? '' };
}

async function statusOnDashboard(page: Page, state: string): Promise<string> {
  await page.goto('/patient/dashboard');
  await expect.poll(() => dashboardStatus(page).getAttribute('data-sync-state'), { timeout: 30_000 }).toBe(state);
  return (await dashboardStatus(page).textContent()) ?? '';
}

describe('the sync status', { timeout: 240_000 }, () => {
  test('says alone, in step with 1 and then 2 devices, and offline since, the same in the side menu, the dashboard and My Profile', async ({
    recorded,
    browser,
    baseUrl,
  }) => {
    const page = recorded.page;
    await login(page, 'patient');
    expect(await statusOnProfile(page, 'off')).toEqual({
      menu: 'Alone: this device only',
      card: 'Not connected: this device works alone.',
    });
    expect(await statusOnDashboard(page, 'off')).toBe('(Alone: this device only)');

    const server = await serverForTest();
    await connect(page, server, 'patient', 'Laptop'); // already signed in above
    await expect
      .poll(async () => statusOnProfile(page, 'in-step'), { timeout: 30_000 })
      .toEqual({ menu: 'In step: 1 device', card: 'In step with the server: 1 device' });
    expect(await statusOnDashboard(page, 'in-step')).toBe('(In step: 1 device)');

    await connectedDevice(browser, baseUrl, server, 'patient', 'Phone');
    await expect
      .poll(async () => statusOnProfile(page, 'in-step'), { timeout: 30_000 })
      .toEqual({ menu: 'In step: 2 devices', card: 'In step with the server: 2 devices' });
    expect(await statusOnDashboard(page, 'in-step')).toBe('(In step: 2 devices)');

    recorded.allowProblem(RETRY_FAILED);
    await server.kill('SIGKILL');
    const offline = await statusOnProfile(page, 'offline');
    expect(offline.menu).toMatch(/^Offline since \d{1,2}:\d{2}/);
    expect(offline.card).toBe(`${offline.menu} (will retry)`);
    expect(await statusOnDashboard(page, 'offline')).toBe(`(${offline.menu})`);
  });

  test('says refused, the same in the side menu and My Profile, for a device holding records of another ledger', async ({
    browser,
    baseUrl,
  }) => {
    // the server holds a ledger of its own genesis, seeded from Node as another set-up's device would
    const server = await serverForTest();
    const seed = await signedLedger(1);
    const blocks = await seed.blocks();
    const seeder = await connectDevice(server.port, 'seed', blocks, { as: seed.sarah, keys: seed.keys });
    expect((await seeder.join()).ok).toBe(true);
    await expect.poll(async () => (await server.info()).height, { timeout: 30_000 }).toBe(blocks.length);
    await seeder.close();
    // this browser holds the demo ledger with a record of its own: it can neither join nor take the server's
    const other = (await newDevice(browser, baseUrl)).page;
    await login(other, 'patient');
    await uploadRecord(other, 'Written on a device of its own', [pdfFile('own.pdf')]);
    await other.goto('/patient/profile');
    const card = syncCard(other);
    await card.getByLabel('Server address').fill(`ws://127.0.0.1:${server.port}`);
    await card.getByRole('button', { name: 'Connect' }).click();
    const refused = await statusOnProfile(other, 'refused');
    expect(refused.menu).toBe('Refused by the server');
    expect(refused.card).toMatch(/^Refused: This device holds other records/);
    expect(await statusOnDashboard(other, 'refused')).toBe('(Refused by the server)');
  });
});
