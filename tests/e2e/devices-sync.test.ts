// Two devices of one ledger through the real sync server (server/, a child process with its own storage folder):
// two browser contexts are two devices. The patient's device seeds the server; the doctor's device, holding only
// the untouched demo ledger, takes the server's; an upload on the patient's device shows in the doctor's My Patients.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import buildServer from '../server/global-setup';
import { newStorageDir, startServer, type ServerProcess } from '../server/support/server-process';
import { describe, expect, test } from './support/fixtures';
import { newPage, type RecordedPage } from './support/page';
import { settled } from './support/read';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';
import { login } from './support/session';

let server: ServerProcess;
beforeAll(async () => {
  buildServer(); // dist-server/sync-server.mjs, when missing or older than its sources
  server = await startServer(newStorageDir());
});
afterAll(async () => {
  await server?.kill();
});

const syncCard = (page: Page) => page.getByRole('region', { name: 'Devices and sync' });
const syncState = (page: Page) => syncCard(page).locator('[data-sync-state]');

// Connects from My Profile under `name`; a device that took the server's ledger signs in again, as the card asks.
async function connect(page: Page, role: 'patient' | 'doctor', name: string): Promise<void> {
  await page.goto(`/${role}/profile`);
  const card = syncCard(page);
  await card.getByLabel('Server address').fill(`ws://127.0.0.1:${server.port}`);
  await card.getByLabel("This device's name").fill(name);
  await card.getByRole('button', { name: 'Connect' }).click();
  const adopted = page.getByText("This device now holds the sync server's ledger");
  const settledState = card.locator('[data-sync-state="in-step"], [data-sync-state="refused"], [data-sync-state="offline"]');
  // the app goes to sign-in as the device takes the server's ledger; the explanation is checked in devices-reset
  const signIn = page.getByRole('button', { name: 'Sign In' });
  await settledState.or(adopted).or(signIn).first().waitFor({ timeout: 30_000 });
  if ((await adopted.isVisible()) || (await signIn.isVisible())) {
    await login(page, role);
    await page.goto(`/${role}/profile`);
  }
  await expect.poll(() => syncState(page).textContent(), { timeout: 30_000 }).toBe('In step with the server');
}

describe('one ledger across devices', () => {
  let doctorDevice: RecordedPage | undefined;
  afterAll(async () => {
    await doctorDevice?.context.close();
  });

  test("an upload on the patient's device shows in the doctor's My Patients on another device", async ({
    page,
    browser,
    baseUrl,
  }) => {
    await login(page, 'patient');
    await connect(page, 'patient', 'Sarah’s laptop');

    doctorDevice = await newPage(browser, baseUrl);
    const doctor = doctorDevice.page;
    await login(doctor, 'doctor');
    await connect(doctor, 'doctor', 'Clinic PC');

    await uploadRecord(page, 'Lipid panel from the laptop', [pdfFile('lipids.pdf')], { type: 'Test Report' });
    await goTo(doctor, 'My Patients', 'My Patients');
    await recordItem(doctor, 'Lipid panel from the laptop').waitFor({ timeout: 15_000 });

    // both devices list each other at the same tip
    await page.goto('/patient/profile');
    const rows = syncCard(page).getByRole('row');
    await settled(async () => (await rows.allTextContents()).filter((row) => row.includes('Clinic PC')).length).toBe(1);
    expect(doctorDevice.unexpectedProblems()).toEqual([]);
  });
});
