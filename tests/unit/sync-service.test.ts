// Connect, Disconnect and the sync state through the LedgerService, with a sync server faked in memory: off until the
// user connects, back by itself after a reload, and the state in the words the card shows.
import { describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { CARTER, SARAH, errorOf, signInAs, uploadOf } from '../support/ledger-fixtures';
import { fakeServer } from '../support/fake-sync';
import { createDemoBrowser, createTestLedgerService } from '../support/test-ledger';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import type { SyncTransport } from '../../workers/sync/sync-ports';

const REQUEST = { serverUrl: 'ws://127.0.0.1:3030', deviceName: 'Sarah’s phone' };

// The keys a server of that browser's ledger carries: public keys, and private ones wrapped under each password.
async function syncedKeysOf(storage: ReturnType<typeof createMemoryStorage>) {
  const stored = (await storage.readMeta('keys')) as {
    algorithm: 'Ed25519';
    users: Record<string, unknown>;
    ledger: { publicKey: string };
  };
  return { algorithm: stored.algorithm, users: stored.users, ledger: { publicKey: stored.ledger.publicKey } };
}

async function signedIn(transport: SyncTransport, storage = createMemoryStorage()) {
  const service = createTestLedgerService({ storage, syncTransport: transport, now: () => Date.UTC(2026, 10, 26, 10, 42) });
  await signInAs(service, SARAH);
  return service;
}

describe('sync through the service', () => {
  it('calls no server while sync is off', async () => {
    const server = fakeServer();
    const service = await signedIn(server.transport);
    expect(await service.syncStatus()).toEqual({
      state: 'off',
      serverUrl: '',
      deviceName: '',
      pendingBlocks: 0,
      pendingFiles: 0,
      devices: [],
    });
    await service.chainStatus();
    expect(server.fetch).not.toHaveBeenCalled();
    expect(server.openRepo).not.toHaveBeenCalled();
  });

  it('joins a server of the same ledger and is in step, listing this device', async () => {
    const storage = createMemoryStorage();
    const setup = await signedIn(fakeServer().transport, storage);
    const genesis = await setup.block(0);
    const server = fakeServer({ genesis });
    const service = await signedIn(server.transport, storage);
    await service.connectSync(REQUEST);
    await expect.poll(async () => (await service.syncStatus()).state).toBe('in-step'); // once a first pass compared the two
    const status = await service.syncStatus();
    expect(status).toMatchObject({
      serverUrl: REQUEST.serverUrl,
      deviceName: REQUEST.deviceName,
      pendingBlocks: 0,
    });
    expect(status.devices).toEqual([expect.objectContaining({ name: 'Sarah’s phone', thisDevice: true, height: 1 })]);
  });

  it('connects again by itself after a reload, with the same device document', async () => {
    const storage = createMemoryStorage();
    const setup = await signedIn(fakeServer().transport, storage);
    const server = fakeServer({ genesis: await setup.block(0) });
    const first = await signedIn(server.transport, storage);
    await first.connectSync(REQUEST);
    const reloaded = await signedIn(server.transport, storage);
    await expect.poll(async () => (await reloaded.syncStatus()).state).toBe('in-step');
    expect(server.registered).toEqual([server.registered[0], server.registered[0]]);
    expect(server.joins[1].proof.deviceId).toBe(server.joins[0].proof.deviceId);
  });

  it('stays off after Disconnect, also after a reload', async () => {
    const storage = createMemoryStorage();
    const setup = await signedIn(fakeServer().transport, storage);
    const server = fakeServer({ genesis: await setup.block(0) });
    const service = await signedIn(server.transport, storage);
    await service.connectSync(REQUEST);
    expect((await service.disconnectSync()).state).toBe('off');
    expect(server.repos.repo.shutdown).toHaveBeenCalled();
    const reloaded = await signedIn(server.transport, storage);
    expect(await reloaded.syncStatus()).toMatchObject({ state: 'off', serverUrl: REQUEST.serverUrl });
    expect(server.joins).toHaveLength(1);
  });

  it('is refused, with why, by a server of another ledger once this device holds records', async () => {
    const storage = createMemoryStorage();
    const other = await signedIn(fakeServer().transport);
    const server = fakeServer({ genesis: await other.block(0) });
    const service = await signedIn(server.transport, storage);
    await service.upload(uploadOf('Blood panel'));
    const status = await service.connectSync(REQUEST);
    expect(status.state).toBe('refused');
    expect(status.reason).toMatch(/^This device holds other records \(ledger [0-9a-f]{8}\) than the server/);
    expect(server.openRepo).not.toHaveBeenCalled();
  });

  it('asks for the password before it takes another ledger, changes nothing without it, and keeps the user signed in', async () => {
    const otherStorage = createMemoryStorage();
    const other = await signedIn(fakeServer().transport, otherStorage);
    const genesis = await other.block(0);
    const server = fakeServer({ genesis, keys: await syncedKeysOf(otherStorage) });
    const service = await signedIn(server.transport);
    const own = (await service.block(0)).hash;
    expect(await service.connectSync(REQUEST)).toMatchObject({ state: 'refused', otherLedger: true, adopted: false });
    expect(await service.connectSync({ ...REQUEST, password: 'not the password' })).toMatchObject({
      state: 'refused',
      otherLedger: true,
      reason: 'That password does not open your key on the sync server’s ledger. Nothing was changed.',
    });
    expect((await service.block(0)).hash).toBe(own); // nothing changed, and Sarah is still signed in
    expect(server.joins).toEqual([]);

    expect(await service.connectSync({ ...REQUEST, password: DEMO_PASSWORD })).toMatchObject({ adopted: true });
    expect((await service.block(0)).hash).toBe(genesis.hash); // signed in throughout, now with the server's key of Sarah
    await expect.poll(async () => (await service.syncStatus()).state).toBe('in-step');
    expect(server.joins[0].proof).toMatchObject({ genesis: genesis.hash, userId: SARAH.id });
  });

  it("connects again after a reload that came while it was still taking the server's ledger, and holds all of it", async () => {
    const otherStorage = createMemoryStorage();
    const other = await signedIn(fakeServer().transport, otherStorage);
    await other.upload(uploadOf('Written on the server'));
    const blocks = (await otherStorage.load()).blocks;
    const server = fakeServer({ blocks, keys: await syncedKeysOf(otherStorage) });
    const storage = createMemoryStorage();
    // the page is reloaded before the join is answered: this tab's connect never ends
    const unanswered: SyncTransport = {
      ...server.transport,
      fetch: (url, init) => (url.endsWith('/api/join') ? new Promise(() => undefined) : server.transport.fetch(url, init)),
    };
    const first = await signedIn(unanswered, storage);
    void first.connectSync({ ...REQUEST, password: DEMO_PASSWORD });
    await expect.poll(async () => (await storage.load()).blocks[0]?.hash).toBe(blocks[0].hash); // taken

    const reloaded = createTestLedgerService({ storage, syncTransport: server.transport });
    await signInAs(reloaded, SARAH);
    await expect.poll(async () => (await reloaded.syncStatus()).state).toBe('in-step');
    expect((await reloaded.chainStatus()).height).toBe(blocks.length);
    expect(server.joins).toHaveLength(1);
  });

  it('says offline since when while the server does not answer, and stops asking at Disconnect', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const fetch = vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      });
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const service = await signedIn({ fetch, openRepo: vi.fn() });
      const status = await service.connectSync(REQUEST);
      expect(status).toMatchObject({ state: 'offline', since: '2026-11-26T10:42:00.000Z' });
      await vi.advanceTimersByTimeAsync(5_000);
      expect(fetch).toHaveBeenCalledTimes(2);
      await service.disconnectSync();
      await vi.advanceTimersByTimeAsync(20_000);
      expect(fetch).toHaveBeenCalledTimes(2);
      warn.mockRestore();
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses an address that is not ws:// or wss://, and a device without a name, before calling anything', async () => {
    const server = fakeServer();
    const service = await signedIn(server.transport);
    for (const serverUrl of ['http://127.0.0.1:3030', 'ws://127.0.0.1:30x0', 'ws://127.0.0.1:3030 laptop']) {
      expect((await errorOf(service.connectSync({ ...REQUEST, serverUrl }))).message).toBe(
        'Enter the server address, starting with ws:// or wss://.',
      );
    }
    expect((await errorOf(service.connectSync({ ...REQUEST, deviceName: '  ' }))).message).toBe(
      'Name this device in 1 to 60 characters.',
    );
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it("shows a record uploaded on the patient's device on the doctor's device, with the file's encrypted bytes beside it", async () => {
    const server = fakeServer({ relay: true });
    const phone = await signedIn(server.transport); // Sarah's phone seeds the server
    await phone.connectSync(REQUEST);
    const clinic = createTestLedgerService({ syncTransport: server.transport });
    await signInAs(clinic, CARTER);
    // the clinic's browser holds a ledger of its own: Dr. Carter takes the server's with his password, signed in throughout
    expect(await clinic.connectSync({ ...REQUEST, deviceName: 'Clinic PC', password: DEMO_PASSWORD })).toMatchObject({
      adopted: true,
    });
    const { record } = await phone.upload(uploadOf('Blood panel'));
    await expect
      .poll(async () => (await clinic.listRecords(SARAH.id)).records.map((shown) => shown.title))
      .toContain('Blood panel');
    const phoneTip = (await phone.chainStatus()).height;
    await expect.poll(async () => (await clinic.chainStatus()).height).toBe(phoneTip);
    await expect.poll(async () => (await phone.syncStatus()).state).toBe('in-step');
    expect((await phone.syncStatus()).devices.map((device) => [device.name, device.height])).toEqual([
      ['Sarah’s phone', phoneTip],
      ['Clinic PC', phoneTip],
    ]);
    expect(record.documentIds).toHaveLength(1);
    expect(server.ledger()?.files[record.documentIds[0]]).toBeDefined(); // its encrypted bytes went with it
  });

  it('comes back in step after a reset: the reset device holds the one demo ledger again, and joins it', async () => {
    const server = fakeServer({ relay: true });
    const service = await createDemoBrowser({ syncTransport: server.transport, now: () => Date.UTC(2026, 10, 26, 10, 42) });
    await signInAs(service, SARAH);
    await service.connectSync(REQUEST);
    await service.upload(uploadOf('Kept by the server'));
    await expect.poll(async () => (await service.syncStatus()).state).toBe('in-step');
    const genesis = (await service.block(0)).hash;
    await service.resetDemoData();
    await signInAs(service, SARAH);
    expect((await service.block(0)).hash).toBe(genesis);
    await expect
      .poll(async () => (await service.listRecords(SARAH.id)).records.map((record) => record.title))
      .toContain('Kept by the server'); // taken back from the server
    await expect.poll(async () => (await service.syncStatus()).state).toBe('in-step');
    expect(new Set(server.joins.map((join) => join.proof.genesis))).toEqual(new Set([genesis]));
  });

  it("removes another device of the user's, refuses another user's before asking, and the removed device joins again only as a new one", async () => {
    const server = fakeServer({ relay: true });
    const browser = async (user: typeof SARAH | typeof CARTER, deviceName: string) => {
      const service = await createDemoBrowser({ syncTransport: server.transport });
      await signInAs(service, user);
      await service.connectSync({ ...REQUEST, deviceName });
      return service;
    };
    const phone = await browser(SARAH, 'Chrome on Linux');
    const laptop = await browser(SARAH, 'Chrome on Linux');
    await browser(CARTER, 'Clinic PC');
    await expect.poll(async () => (await phone.syncStatus()).devices.length).toBe(3);
    const rows = (await phone.syncStatus()).devices;
    expect(rows.map((row) => [row.name, row.thisDevice, row.mine])).toEqual([
      ['Chrome on Linux', true, true],
      ['Chrome on Linux', false, true],
      ['Clinic PC', false, false],
    ]);
    const [own, old, clinic] = rows;
    expect(await errorOf(phone.removeSyncDevice(clinic.id))).toEqual({
      name: 'AccessDeniedError',
      message: 'That device belongs to another user: you can remove only your own devices.',
    });
    expect((await errorOf(phone.removeSyncDevice(own.id))).name).toBe('ValidationError');
    expect((await errorOf(phone.removeSyncDevice(''))).message).toBe('Choose a device to remove.');
    expect(server.fetch.mock.calls.some(([url]) => String(url).endsWith('/api/remove-device'))).toBe(false);

    const after = await phone.removeSyncDevice(old.id);
    expect(after.devices.map((row) => row.id)).toEqual([own.id, clinic.id]);
    const height = (await phone.chainStatus()).height;
    // the removed laptop's socket closes; the server no longer knows its session, so it asks to join and is refused
    server.repos.setOnline(false);
    await expect.poll(async () => (await laptop.syncStatus()).state).toBe('refused');
    expect((await laptop.syncStatus()).reason).toMatch(
      /^This device was removed from the sync server by another of your devices/,
    );
    server.repos.setOnline(true);
    expect((await laptop.chainStatus()).height).toBe(height); // nothing held here was dropped
    // Connect again: a new device id, proven like any new device
    await laptop.connectSync({ ...REQUEST, deviceName: 'Chrome on Linux' });
    await expect.poll(async () => (await phone.syncStatus()).devices.length).toBe(3);
    const again = (await phone.syncStatus()).devices.find((row) => row.mine && !row.thisDevice);
    expect(again?.id).toBeDefined();
    expect(again?.id).not.toBe(old.id);
  });
});
