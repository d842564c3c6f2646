// Issue scenario 3: device ids are no secret, and a join under another device's id used to take its place. A device id
// belongs to the user who first proved it; a join under it by anyone else is refused with the reason, and the real
// device goes on syncing.
import { expect, it } from 'vitest';
import { MICHAEL, uploadOf } from '../support/ledger-fixtures';
import { encodeBlocks, identityOf, signedLedger } from './support/devices';
import { seededServer } from './support/seeded';

it('refuses a join under a held device id by another user or an unproved key, and keeps serving the real device', async () => {
  const { server, ledger, blocks, laptop, device } = await seededServer(1);
  await expect.poll(async () => (await server.info()).height).toBe(blocks.length);
  const michael = await identityOf(ledger.keys.users, MICHAEL.id);

  // another user of the same ledger, proving their own key, under the laptop's id
  const thief = await device('thief', blocks.slice(0, 1), { as: michael, deviceId: laptop.deviceId });
  expect(await thief.join()).toEqual({
    ok: false,
    reason: expect.stringMatching(new RegExp(`device id ${laptop.deviceId} belongs to another user`)),
  });
  // a key this ledger does not enrol, claiming to be Sarah
  const stranger = await signedLedger(0);
  const forger = await device('forger', blocks.slice(0, 1), { as: stranger.sarah, deviceId: laptop.deviceId });
  expect(await forger.join()).toEqual({
    ok: false,
    reason: expect.stringMatching(/did not prove who it is: the signature does not hold/),
  });
  expect(server.lines.some((line) => line.includes(`join refused for device ${laptop.deviceId}`))).toBe(true);

  // the laptop's later writes are still taken, and it is still the only device the server lists
  await ledger.service.upload(uploadOf('After the attempt'));
  const now = await ledger.blocks();
  laptop.handle.change((doc) => Object.assign(doc.blocks, encodeBlocks(now.slice(blocks.length))));
  await expect.poll(async () => (await server.info()).height).toBe(now.length);
  const shared = await laptop.ledger();
  await expect.poll(() => shared.doc().devices[laptop.deviceId]?.name).toBe('laptop');
  expect(Object.keys(shared.doc().devices)).toEqual([laptop.deviceId]);
});
