// Only a genesis that verifies as block 0, with the keys it enrols, seeds an empty server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDevice, signedLedger, type TestDevice } from './support/devices';
import { newStorageDir, startServer, type ServerProcess } from './support/server-process';

let server: ServerProcess;
const devices: TestDevice[] = [];

beforeAll(async () => {
  server = await startServer(newStorageDir());
});

afterAll(async () => {
  await Promise.allSettled(devices.map((device) => device.close()));
  await server?.kill();
});

it('refuses to seed from a device without the keys its genesis enrols, or with an edited genesis, and then seeds from one with both', async () => {
  const ledger = await signedLedger(0);
  const [genesis] = await ledger.blocks();

  const keyless = await connectDevice(server.port, 'keyless', [genesis]);
  devices.push(keyless);
  expect(await server.join(keyless.joinRequest())).toEqual({ ok: false, reason: expect.stringMatching(/keys/) });

  // the record changed under the hash it was mined with
  const tampered = { ...genesis, data: { ...genesis.data, title: 'Another ledger' } };
  const edited = await connectDevice(server.port, 'edited', [tampered], ledger.keys);
  devices.push(edited);
  expect(await server.join(edited.joinRequest())).toEqual({ ok: false, reason: expect.stringMatching(/does not verify/) });
  expect(await server.info()).toMatchObject({ ledgerUrl: null, height: 0 });

  const seeder = await connectDevice(server.port, 'seeder', [genesis], ledger.keys);
  devices.push(seeder);
  expect(await server.join(seeder.joinRequest())).toMatchObject({ ok: true, genesis: genesis.hash });
  expect(await server.info()).toMatchObject({ genesis: genesis.hash, height: 1 });
});
