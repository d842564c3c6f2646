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
import { connect, syncCard, syncState } from './support/devices';

let server: ServerProcess;
beforeAll(async () => {
  buildServer(); // dist-server/sync-server.mjs, when missing or older than its sources
  server = await startServer(newStorageDir());
});
afterAll(async () => {
  await server?.kill();
});

// The card's words once connected (support/devices.ts connect waits for its state).
async function connectInStep(page: Page, role: 'patient' | 'doctor', name: string): Promise<void> {
  await connect(page, server, role, name);
  await expect.poll(() => syncState(page).textContent(), { timeout: 30_000 }).toMatch(/^In step with the server: \d+ devices?$/);
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
    await connectInStep(page, 'patient', 'Sarah’s laptop');

    doctorDevice = await newPage(browser, baseUrl);
    const doctor = doctorDevice.page;
    await login(doctor, 'doctor');
    await connectInStep(doctor, 'doctor', 'Clinic PC');

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
