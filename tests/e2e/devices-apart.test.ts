// Two devices that both write while disconnected end, once connected again, with the same blocks in the same
// order, and both find the merged chain valid (docs/decisions/one-ledger-across-devices.md, "One order on every device").
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { chainRows, chainVerdict, connect, connectedDevice, disconnect, openChain, serverWith } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { pdfFile, uploadRecord } from './support/records';

beforeAll(() => buildServer());

describe('writing apart', { timeout: 240_000 }, () => {
  test('uploads made on two disconnected devices merge into the same valid chain, in the same order, on both', async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverWith(page, 'patient', 'Laptop');
    const phone = (await connectedDevice(browser, baseUrl, server, 'patient', 'Phone')).page;
    const before = (await server.info()).height;

    await disconnect(page, 'patient');
    await disconnect(phone, 'patient');
    await uploadRecord(page, 'Written on the laptop', [pdfFile('laptop.pdf')]);
    await uploadRecord(phone, 'Written on the phone', [pdfFile('phone.pdf')]);
    await connect(page, server, 'patient', 'Laptop');
    await connect(phone, server, 'patient', 'Phone');

    await openChain(page, 'patient');
    await openChain(phone, 'patient');
    const titles = (device: typeof page) => device.locator('#explorer-tabs-tabpane-chain td.explorer-title').allTextContents();
    const both = expect.arrayContaining(['Written on the laptop', 'Written on the phone']);
    await expect.poll(() => titles(page), { timeout: 30_000 }).toEqual(both);
    await expect.poll(() => titles(phone), { timeout: 30_000 }).toEqual(both);
    await expect.poll(() => chainRows(page), { timeout: 30_000 }).toEqual(await chainRows(phone));
    expect((await chainRows(page)).length).toBeGreaterThanOrEqual(before + 2);
    await expect.poll(() => chainVerdict(page), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => chainVerdict(phone), { timeout: 30_000 }).toBe('true');
  });
});
