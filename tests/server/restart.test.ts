// The sync server killed in the middle of a sync and started again on the same folder loses nothing.
import { afterAll, expect, it } from 'vitest';
import { connectDevice, encodeBlocks, signedLedger, type TestDevice } from './support/devices';
import { newStorageDir, startServer, type ServerProcess } from './support/server-process';

const open: { servers: ServerProcess[]; devices: TestDevice[] } = { servers: [], devices: [] };

afterAll(async () => {
  await Promise.allSettled(open.devices.map((device) => device.close()));
  await Promise.all(open.servers.map((server) => server.kill()));
});

it('keeps every block after being killed mid-sync and restarted on the same folder', async () => {
  const dir = newStorageDir();
  const first = await startServer(dir);
  open.servers.push(first);
  const ledger = await signedLedger(4);
  const all = await ledger.blocks();
  const device = await connectDevice(first.port, 'laptop', all.slice(0, 2), { as: ledger.sarah, keys: ledger.keys });
  open.devices.push(device);
  const joined = await device.join();
  expect(joined).toMatchObject({ ok: true });
  await expect.poll(async () => (await first.info()).height).toBe(2);

  // the rest arrives, and the server dies before it can have saved all of it
  device.handle.change((doc) => Object.assign(doc.blocks, encodeBlocks(all.slice(2))));
  await first.kill('SIGKILL');

  const second = await startServer(dir, first.port);
  open.servers.push(second);
  const info = await second.info();
  expect(info.genesis).toBe(all[0].hash);
  expect(info.height).toBeGreaterThanOrEqual(2);
  await expect.poll(async () => (await second.info()).height).toBe(all.length);

  const reader = await connectDevice(second.port, 'phone', all.slice(0, 1), { as: ledger.sarah });
  open.devices.push(reader);
  const rejoined = await reader.join();
  expect(rejoined).toMatchObject({ ok: true, ledgerUrl: (joined as { ledgerUrl: string }).ledgerUrl });
  const shared = await reader.ledger();
  await expect.poll(() => Object.keys(shared.doc().blocks).length).toBe(all.length);

  // stopped with no device left to sync from: the ledger is all on the server's disk
  await Promise.all(open.devices.map((each) => each.close()));
  await second.kill('SIGTERM');
  const third = await startServer(dir);
  open.servers.push(third);
  expect(await third.info()).toEqual({ ...info, height: all.length, serverTime: expect.any(String) });
});
