// Issue scenario 7: 20,000 blocks naming a block that never arrives. A real block is still taken at once, the waiting
// ones are dropped after a time and counted, and a user cannot join devices without end.
import { expect, it } from 'vitest';
import { signProof } from '../../workers/core/sync-proof';
import { SYNC_PROTOCOL_VERSION, type JoinAnswer } from '../../workers/core/sync-protocol';
import { uploadOf } from '../support/ledger-fixtures';
import { encodeBlocks, writeBlocksThatWait } from './support/devices';
import { seededServer } from './support/seeded';

const WAITING_MS = 4_000; // the test server drops a waiting block after this

it('takes a real block within 2 s while 20,000 junk blocks wait, then drops and counts them', async () => {
  const { server, ledger, blocks, laptop, device } = await seededServer(1, { SYNC_WAITING_MS: String(WAITING_MS) });
  await expect.poll(async () => (await server.info()).height).toBe(blocks.length);
  const junk = await device('junk', blocks.slice(0, 1));
  writeBlocksThatWait(junk.handle, 20_000);
  expect(await junk.join()).toMatchObject({ ok: true }); // joined after the change: its 5 MB go in one piece
  const shared = await junk.ledger();
  const waiting = `20000 block(s) of device ${junk.deviceId} wait for blocks they name`;
  await expect.poll(() => server.lines.some((line) => line.includes(waiting)), { timeout: 30_000 }).toBe(true);

  await ledger.service.upload(uploadOf('Written while the junk waits'));
  const now = await ledger.blocks();
  const sent = Date.now();
  laptop.handle.change((doc) => Object.assign(doc.blocks, encodeBlocks(now.slice(blocks.length))));
  await expect.poll(async () => (await server.info()).height, { timeout: 2_000, interval: 20 }).toBe(now.length);
  console.log(`a real block was taken ${Date.now() - sent} ms after it was sent, with 20,000 junk blocks waiting`);

  await expect.poll(() => shared.doc().devices[junk.deviceId]?.waitingDropped, { timeout: 3 * WAITING_MS }).toBe(20_000);
  expect(server.lines.some((line) => line.includes(`dropped 20000 block(s) of device ${junk.deviceId}`))).toBe(true);
}, 90_000);

it('lets a user join at most 20 devices, naming the limit', async () => {
  const { server, ledger, blocks } = await seededServer(0);
  const base = `http://127.0.0.1:${server.port}`;
  const join = async (deviceId: string): Promise<JoinAnswer> => {
    const { challenge } = (await (await fetch(`${base}/api/challenge`, { method: 'POST' })).json()) as { challenge: string };
    const proof = await signProof(challenge, blocks[0].hash, deviceId, ledger.sarah.userId, ledger.sarah.signingKey);
    const answer = await fetch(`${base}/api/join`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ protocol: SYNC_PROTOCOL_VERSION, name: deviceId, proof }),
    });
    return (await answer.json()) as JoinAnswer;
  };
  const answers: JoinAnswer[] = [];
  for (let i = 0; i < 25; i++) answers.push(await join(`extra-device-${i}`));
  expect(answers.filter((answer) => answer.ok)).toHaveLength(19); // the laptop that seeded is the 20th
  expect(answers.at(-1)).toEqual({ ok: false, reason: 'this user already has 20 devices on this server (at most 20)' });
  expect((await join('extra-device-3')).ok).toBe(true); // a device that joined before joins again
});
