// Two browser contexts of one patient, both named "Chrome on Linux", through the real sync server: the list tells them
// apart, one removes the other from its Devices card, and the removed one is told, stays off after a reload, and
// joins again only when its user connects it (as a new device). Nothing either holds is dropped.
import { describe, expect, test } from './support/fixtures';
import { connectedDevice, serverWith, syncCard, syncState, waitForSyncState } from './support/devices';

describe('removing a device', () => {
  test('one device removes the other from its Devices card; the removed one is told and comes back only as a new device', async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverWith(page, 'patient', 'Chrome on Linux');
    const old = await connectedDevice(browser, baseUrl, server, 'patient', 'Chrome on Linux');
    // its socket is refused once it is removed, until it joins again
    old.allowProblem(/WebSocket|401|Unauthorized/);

    await page.goto('/patient/profile');
    const card = syncCard(page);
    const other = card.getByRole('row', { name: /^Chrome on Linux Your device · id / });
    await other.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.getByRole('row', { name: /^Chrome on Linux/ }).count()).toBe(2);
    const oldId = await other.getAttribute('data-device-id');
    const seen = (await other.locator('time').textContent()) ?? '';
    const height = await page.evaluate(() => document.querySelector('[data-this-device="true"] td')?.textContent);

    await other.getByRole('button', { name: /^Remove Chrome on Linux, id / }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this device?' });
    await expect.poll(() => dialog.textContent()).toContain(`Chrome on Linux (last seen ${seen}, id ${oldId?.slice(0, 8)})`);
    await dialog.getByRole('button', { name: 'Remove device' }).press('Enter');
    await card.getByText(/^Chrome on Linux \(id .{8}\) was removed from the sync server\.$/).waitFor();
    await expect.poll(() => card.getByRole('row', { name: /^Chrome on Linux/ }).count()).toBe(1);

    // the removed browser is told why, keeps its records, and does not reconnect by itself
    await expect
      .poll(() => syncState(old.page).textContent(), { timeout: 30_000 })
      .toMatch(/^Refused: This device was removed from the sync server by another of your devices\./);
    await old.page.reload();
    await waitForSyncState(old.page, 'off');
    expect(await old.page.evaluate(() => document.querySelector('[data-this-device]'))).toBeNull();

    // its user connects it again: it proves their key and joins as a new device
    await syncCard(old.page).getByRole('button', { name: 'Connect' }).click();
    await waitForSyncState(old.page, 'in-step');
    const back = card.getByRole('row', { name: /^Chrome on Linux Your device · id / });
    await back.waitFor({ timeout: 30_000 });
    expect(await back.getAttribute('data-device-id')).not.toBe(oldId);
    expect(await page.evaluate(() => document.querySelector('[data-this-device="true"] td')?.textContent)).toBe(height);
    expect(server.lines.some((line) => line.includes(`device ${oldId} (Chrome on Linux) of user`))).toBe(true);
  });
});
