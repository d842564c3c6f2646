// Issue scenario 5: the storage folder has a cap, a storage error is logged and refused, and a damaged key file is
// named on start with what to do. The server keeps answering through all of it.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { folderBytes } from '../../server/guarded-storage';
import { seededServer } from './support/seeded';
import { newStorageDir, startServer } from './support/server-process';

const CAP = 6 * 1024 * 1024;
// random bytes: Automerge compresses anything with a pattern to almost nothing
function randomMiB(): Uint8Array {
  const bytes = new Uint8Array(1024 * 1024);
  for (let at = 0; at < bytes.length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
  return bytes;
}

it('refuses new data at the folder cap with the reason, stays under it, and keeps serving what it holds', async () => {
  const { server, blocks, device } = await seededServer(1, { SYNC_MAX_BYTES: String(CAP) });
  await expect.poll(async () => (await server.info()).height).toBe(blocks.length);
  const filler = await device('filler', blocks.slice(0, 1));
  expect(await filler.join()).toMatchObject({ ok: true });
  for (let i = 0; i < 10; i++) filler.handle.change((doc) => void (doc.blocks[`junk-${i}`] = randomMiB()));
  await expect
    .poll(() => server.lines.some((line) => line.includes(`from device ${filler.deviceId}`) && line.includes('at its cap')), {
      timeout: 20_000,
    })
    .toBe(true);
  const shared = await filler.ledger();
  await expect.poll(() => shared.doc().devices[filler.deviceId]?.limit).toMatch(/storage folder is at its cap of 6291456 bytes/);
  expect(folderBytes(server.dir)).toBeLessThanOrEqual(CAP);
  // still serving: the ledger answers and another device reads every block
  expect(await server.info()).toMatchObject({ height: blocks.length });
  const reader = await device('reader', blocks.slice(0, 1));
  expect(await reader.join()).toMatchObject({ ok: true });
  await expect.poll(async () => Object.keys((await reader.ledger()).doc().blocks).length).toBe(blocks.length);
});

it('logs a storage error and refuses new data while saves fail, and keeps answering', async () => {
  const { server, blocks, device } = await seededServer(1);
  await expect.poll(async () => (await server.info()).height).toBe(blocks.length);
  const writer = await device('writer', blocks.slice(0, 1));
  expect(await writer.join()).toMatchObject({ ok: true });
  // Automerge's folder becomes a file: every save of a document now fails
  renameSync(join(server.dir, 'automerge'), join(server.dir, 'automerge-moved'));
  writeFileSync(join(server.dir, 'automerge'), 'not a folder');
  writer.handle.change((doc) => void (doc.name = 'writer, renamed'));
  await expect.poll(() => server.lines.some((line) => line.startsWith('[sync] storage error: could not save'))).toBe(true);
  // what the device sends while saves fail is refused, with the reason
  writer.handle.change((doc) => void (doc.name = 'writer, renamed again'));
  await expect.poll(() => server.lines.some((line) => line.includes('failed to save') && line.includes('dropped'))).toBe(true);
  expect(await server.info()).toMatchObject({ height: blocks.length });
});

it('names a damaged care-network key file on start, with what to do', async () => {
  const dir = newStorageDir();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'care-network-key.json'), '');
  await expect(startServer(dir)).rejects.toThrow(
    /care-network-key\.json is damaged: it is empty \(0 bytes\)\. Put back a copy of this file if you have one\. Otherwise delete it/,
  );
});
