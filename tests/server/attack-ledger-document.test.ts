// Issue scenario 1: a client that never proved anything, and a proven device, try to rewrite the ledger document every
// device reads. Neither reaches what the server or another device trusts, before or after a restart.
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectDevice } from './support/devices';
import { rawClient } from './support/raw-client';
import { seededServer } from './support/seeded';
import { startServer } from './support/server-process';

// The status the server answers a WebSocket upgrade at `url` with (101 when it opens).
function upgradeStatus(url: string): Promise<number> {
  const socket = new WebSocket(url);
  return new Promise((done) => {
    socket.once('open', () => {
      socket.close();
      done(101);
    });
    socket.once('unexpected-response', (_request, response) => done(response.statusCode ?? 0));
  });
}

it('opens nothing to a client that proved nothing, and drops what a proven device writes into the ledger document', async () => {
  const { server, blocks, ledger, laptop, device } = await seededServer(2);
  await expect.poll(async () => (await server.info()).height).toBe(blocks.length);
  const info = await server.info();
  expect(Object.keys(info).sort()).toEqual(['genesis', 'height', 'protocol', 'serverTime']); // no URL to open or write
  const ledgerUrl = (await laptop.ledger()).url;

  // no session, or a made-up one: the socket does not open, so no document does
  expect(await upgradeStatus(`ws://127.0.0.1:${server.port}/`)).toBe(401);
  expect(await upgradeStatus(`ws://127.0.0.1:${server.port}/?session=made-up`)).toBe(401);
  const raw = rawClient(server.port, 'made-up');
  expect(await raw.open(ledgerUrl)).toBeNull();
  await raw.close();

  // a device that proved itself opens the ledger document, but its changes to it are dropped
  const phone = await device('phone', blocks.slice(0, 1));
  expect(await phone.join()).toMatchObject({ ok: true });
  const forged = await phone.ledger();
  await expect.poll(() => Object.keys(forged.doc().blocks).length).toBe(blocks.length);
  const newest = blocks[blocks.length - 1].hash;
  forged.change((doc) => {
    delete doc.blocks[newest];
    doc.devices['forged-device'] = { name: 'forged', tip: newest, height: 999_999, seenAt: new Date().toISOString() };
    doc.refused[newest] = { reason: 'forged refusal', deviceId: laptop.deviceId, at: new Date().toISOString() };
    doc.files['fake-file'] = { cid: 'bafyfake', url: ledgerUrl, size: 1 };
    doc.keys = new TextEncoder().encode('{"algorithm":"Ed25519","users":{},"ledger":{"publicKey":"forged"}}');
    doc.wraps = { junk: new Uint8Array(1024 * 1024).fill(7) };
  });
  await expect
    .poll(() => server.lines.some((line) => line.includes(`dropped a change to document`) && line.includes(phone.deviceId)))
    .toBe(true);

  // a device that joins now reads what the server verified, and none of the phone's changes
  const tablet = await device('tablet', blocks.slice(0, 1));
  expect(await tablet.join()).toMatchObject({ ok: true });
  const read = await tablet.ledger();
  await expect.poll(() => Object.keys(read.doc().blocks).sort()).toEqual(blocks.map((block) => block.hash).sort());
  expect(read.doc().devices['forged-device']).toBeUndefined();
  expect(read.doc().refused[newest]).toBeUndefined();
  expect(read.doc().files['fake-file']).toBeUndefined();
  expect(Object.keys(read.doc().wraps ?? {})).not.toContain('junk');
  expect(JSON.parse(new TextDecoder().decode(read.doc().keys))).toEqual(ledger.keys);
  expect((await server.info()).height).toBe(blocks.length);

  // after a restart the server's ledger comes from its own files: still every block
  await server.kill();
  const again = await startServer(server.dir);
  try {
    expect(await again.info()).toMatchObject({ genesis: blocks[0].hash, height: blocks.length });
    const late = await connectDevice(again.port, 'late', blocks.slice(0, 1), { as: ledger.sarah });
    expect(await late.join()).toMatchObject({ ok: true, ledgerUrl });
    const after = await late.ledger();
    await expect.poll(() => Object.keys(after.doc().blocks).length).toBe(blocks.length);
    expect(after.doc().devices['forged-device']).toBeUndefined();
    await late.close();
  } finally {
    await again.kill();
  }
});
