// Browser contexts as devices of one ledger through the real sync server: start a server of the test's own,
// open a device, connect and disconnect it from My Profile's "Devices and sync" card, read its chain.
import type { Browser, Locator, Page } from 'playwright-core';
import { expect, onTestFinished } from 'vitest';
import type { Role } from '../../../workers/core/types';
import { newStorageDir, startServer, type ServerProcess } from '../../server/support/server-process';
import { newPage, type RecordedPage } from './page';
import { login } from './session';

export const syncCard = (page: Page) => page.getByRole('region', { name: 'Devices and sync' });
export const syncState = (page: Page) => syncCard(page).locator('[data-sync-state]');

// A sync server with its own storage folder for one test, killed when the test ends.
export async function serverForTest(): Promise<ServerProcess> {
  const server = await startServer(newStorageDir());
  onTestFinished(() => server.kill());
  return server;
}

// Another device: a fresh context (own IndexedDB), closed when the test ends; the test fails on its unexpected errors.
export async function newDevice(browser: Browser, baseUrl: string): Promise<RecordedPage> {
  const device = await newPage(browser, baseUrl);
  onTestFinished(async () => {
    const unexpected = device.unexpectedProblems();
    await device.context.close();
    expect(unexpected, 'errors on another device').toEqual([]);
  });
  return device;
}

export async function waitForSyncState(page: Page, state: string, timeout = 30_000): Promise<void> {
  try {
    await expect.poll(() => syncState(page).getAttribute('data-sync-state'), { timeout }).toBe(state);
  } catch (error) {
    // the card says why (a refusal's reason, say): a failure under load is then explained in the CI log
    const says = await syncCard(page)
      .innerText({ timeout: 5_000 })
      .catch(() => 'nothing readable');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nThe sync card says: ${says}`, { cause: error });
  }
}

// Types the server address and the device's name, and checks that each field holds what was typed. Under load a fill
// once ended with the address refused as malformed ("must start with ws://"): a field that does not hold its text is
// filled again, at most twice, and the test fails saying what it holds.
async function fillCard(card: Locator, address: string, name: string): Promise<void> {
  const fields: [Locator, string][] = [
    [card.getByLabel('Server address'), address],
    [card.getByLabel("This device's name"), name],
  ];
  for (let attempt = 1; ; attempt++) {
    for (const [field, text] of fields) await field.fill(text);
    const held = await Promise.all(fields.map(([field]) => field.inputValue()));
    if (held.every((value, i) => value === fields[i][1])) return;
    if (attempt === 3) throw new Error(`The sync card's fields hold ${JSON.stringify(held)} after typing them 3 times`);
  }
}

// Connects from My Profile; a device that took the server's ledger signs in again (as `email`), as the card asks.
export async function connect(page: Page, server: ServerProcess, role: Role, name: string, email?: string): Promise<void> {
  await page.goto(`/${role}/profile`);
  const card = syncCard(page);
  await fillCard(card, `ws://127.0.0.1:${server.port}`, name);
  await card.getByRole('button', { name: 'Connect' }).click();
  const adopted = page.getByText("This device now holds the sync server's ledger");
  const settledState = card.locator('[data-sync-state="in-step"], [data-sync-state="refused"], [data-sync-state="offline"]');
  // the app goes to sign-in as the device takes the server's ledger; the explanation is checked in devices-reset
  const signIn = page.getByRole('button', { name: 'Sign In' });
  // a patient who has not chosen is asked first (Michael): allowed, as the multi-device tests of emergency access need
  const allow = card.getByRole('button', { name: 'Allow and connect' });
  await settledState.or(adopted).or(signIn).or(allow).first().waitFor({ timeout: 30_000 });
  if (await allow.isVisible()) {
    await allow.click();
    await settledState.or(adopted).or(signIn).first().waitFor({ timeout: 30_000 });
  }
  if ((await adopted.isVisible()) || (await signIn.isVisible())) {
    await login(page, role, email);
    await page.goto(`/${role}/profile`);
  }
  await waitForSyncState(page, 'in-step');
}

// Signs in on `page` and connects it: the first steps of every multi-device test.
export async function signInAndConnect(page: Page, server: ServerProcess, role: Role, name: string, email?: string) {
  await login(page, role, email);
  await connect(page, server, role, name, email);
}

// A sync server of the test's own with `page` signed in and connected to it: how every multi-device test begins.
export async function serverWith(page: Page, role: Role, name: string, email?: string): Promise<ServerProcess> {
  const server = await serverForTest();
  await signInAndConnect(page, server, role, name, email);
  return server;
}

// Another device, signed in and connected to `server` as `name`.
export async function connectedDevice(
  browser: Browser,
  baseUrl: string,
  server: ServerProcess,
  role: Role,
  name: string,
  email?: string,
): Promise<RecordedPage> {
  const device = await newDevice(browser, baseUrl);
  await signInAndConnect(device.page, server, role, name, email);
  return device;
}

export async function disconnect(page: Page, role: Role): Promise<void> {
  await page.goto(`/${role}/profile`);
  await syncCard(page).getByRole('button', { name: 'Disconnect' }).click();
  await waitForSyncState(page, 'off');
}

// The explorer's chain tab: every row's block number and full hash, top to bottom (the demo chains here are short,
// so the virtualized table renders them all).
export async function openChain(page: Page, role: Role): Promise<void> {
  await page.goto(`/${role}/blockchain`);
  await page.locator('#explorer-tabs-tabpane-chain tr[data-block-index]').first().waitFor();
}

export function chainRows(page: Page): Promise<string[]> {
  return page
    .locator('#explorer-tabs-tabpane-chain tr[data-block-index]')
    .evaluateAll((rows) =>
      rows.map((row) => `#${(row as HTMLElement).dataset.blockIndex} ${row.querySelector('td code')?.getAttribute('title')}`),
    );
}

export const chainVerdict = (page: Page) =>
  page.locator('#explorer-tabs-tabpane-chain [data-chain-valid]').getAttribute('data-chain-valid');
