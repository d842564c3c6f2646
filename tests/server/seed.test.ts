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

it('refuses to seed from a device without the keys its genesis enrols, with an edited genesis or with a key it does not enrol, and then seeds from one with all three', async () => {
  const ledger = await signedLedger(0);
  const [genesis] = await ledger.blocks();

  const keyless = await connectDevice(server.port, 'keyless', [genesis], {
    as: ledger.sarah,
    keys: { ...ledger.keys, users: {} },
  });
  devices.push(keyless);
  expect(await keyless.join()).toEqual({ ok: false, reason: expect.stringMatching(/keys/) });

  // the record changed under the hash it was mined with
  const tampered = { ...genesis, data: { ...genesis.data, title: 'Another ledger' } };
  const edited = await connectDevice(server.port, 'edited', [tampered], { as: ledger.sarah, keys: ledger.keys });
  devices.push(edited);
  expect(await edited.join()).toEqual({ ok: false, reason: expect.stringMatching(/does not verify/) });
  expect(await server.info()).toMatchObject({ genesis: null, height: 0 });

  // a key the genesis does not enrol proves nothing
  const other = await signedLedger(0);
  const impostor = await connectDevice(server.port, 'impostor', [genesis], { as: other.sarah, keys: ledger.keys });
  devices.push(impostor);
  expect(await impostor.join()).toEqual({ ok: false, reason: expect.stringMatching(/did not prove who it is/) });
  expect(await server.info()).toMatchObject({ genesis: null, height: 0 });

  const seeder = await connectDevice(server.port, 'seeder', [genesis], { as: ledger.sarah, keys: ledger.keys });
  devices.push(seeder);
  expect(await seeder.join()).toMatchObject({ ok: true, genesis: genesis.hash });
  expect(await server.info()).toMatchObject({ genesis: genesis.hash, height: 1 });
});
