// A device that joins from nothing (a fresh browser holding only the demo ledger) takes the whole ledger from the
// sync server: after signing in again it lists every record, and its chain is the same block for block.
import { beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { chainRows, chainVerdict, connect, connectedDevice, openChain, serverForTest } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';

beforeAll(() => buildServer());

describe('a new device', { timeout: 180_000 }, () => {
  test('a fresh device that connects takes the ledger and shows every record written before and after the first one connected', async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverForTest();
    await login(page, 'patient');
    await uploadRecord(page, 'Written before connecting', [pdfFile('before.pdf')]);
    await connect(page, server, 'patient', 'Laptop');
    await uploadRecord(page, 'Written while connected', [pdfFile('after.pdf')], { type: 'Test Report' });

    const tablet = (await connectedDevice(browser, baseUrl, server, 'patient', 'Tablet')).page;
    await goTo(tablet, 'Medical Records', 'Medical Records');
    await recordItem(tablet, 'Written before connecting').waitFor({ timeout: 15_000 });
    await recordItem(tablet, 'Written while connected').waitFor({ timeout: 15_000 });

    await openChain(page, 'patient');
    await openChain(tablet, 'patient');
    await expect.poll(() => chainRows(tablet), { timeout: 15_000 }).toEqual(await chainRows(page));
    await expect.poll(() => chainVerdict(tablet), { timeout: 30_000 }).toBe('true');
  });
});
