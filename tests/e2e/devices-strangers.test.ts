// Two devices of two users through the real sync server, and a raw Automerge-repo client beside them that never proved
// anything: it opens no document, whatever URL or session it tries, and nothing it sends reaches what they see.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import type { DeviceDoc, LedgerDoc } from '../../workers/core/sync-protocol';
import buildServer from '../server/global-setup';
import { rawClient } from '../server/support/raw-client';
import { chainRows, connectedDevice, openChain, serverWith } from './support/devices';
import { describe, test } from './support/fixtures';
import { goTo, pdfFile, recordItem, uploadRecord } from './support/records';

beforeAll(() => buildServer());

describe('a client that proved nothing', { timeout: 180_000 }, () => {
  test("opens nothing and changes nothing the patient's and the doctor's devices see", async ({ page, browser, baseUrl }) => {
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');
    // her own doctor's PC: he sees her records in My Patients
    const doctor = (await connectedDevice(browser, baseUrl, server, 'doctor', 'Clinic PC')).page;

    // the worst case: the stranger knows every URL the server keeps (read here from the server's own state file)
    const state = JSON.parse(readFileSync(join(server.dir, 'server-state.json'), 'utf8')) as {
      ledgerUrl: string;
      devices: Record<string, { url?: string }>;
    };
    const deviceUrls = Object.values(state.devices).flatMap((device) => (device.url ? [device.url] : []));
    expect(deviceUrls).toHaveLength(2);
    for (const session of ['', 'made-up-session']) {
      const stranger = rawClient(server.port, session);
      try {
        expect(await stranger.open(state.ledgerUrl)).toBeNull();
        for (const url of deviceUrls) expect(await stranger.open(url)).toBeNull();
        // what it writes has nowhere to go: a ledger document of its own and a device document claiming Sarah's
        stranger.repo.create<Partial<LedgerDoc>>({ kind: 'medledger-ledger', genesis: 'forged', blocks: {} });
        stranger.repo.create<Partial<DeviceDoc>>({ kind: 'medledger-device', deviceId: 'forged', blocks: {} });
      } finally {
        await stranger.close();
      }
    }
    // every peer the server ever let in is one of the two devices
    const peers = server.lines.flatMap((line) => /peer connected \S+ \(device (\S+)\)/.exec(line)?.slice(1) ?? []);
    expect(new Set(peers)).toEqual(new Set(Object.keys(state.devices)));

    // what the two devices see next is only what they wrote: Sarah's upload reaches her doctor, chains equal
    await uploadRecord(page, 'Lipid panel after the stranger', [pdfFile('lipids.pdf')], { type: 'Test Report' });
    await goTo(doctor, 'My Patients', 'My Patients');
    await recordItem(doctor, 'Lipid panel after the stranger').waitFor({ timeout: 20_000 });
    await openChain(page, 'patient');
    const onLaptop = await chainRows(page);
    await openChain(doctor, 'doctor');
    await expect.poll(() => chainRows(doctor), { timeout: 20_000 }).toEqual(onLaptop);
  });
});
