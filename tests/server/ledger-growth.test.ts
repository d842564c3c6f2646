// Issue scenario 6: a joined device sends 2,000 junk entries in one change. The ledger document every device syncs
// keeps only the newest refusals of that device, and counts the ones it dropped.
import { save } from '@automerge/automerge';
import { expect, it } from 'vitest';
import { seededServer } from './support/seeded';

const KEPT = 200; // refusals kept per device

it('keeps at most 200 refusals of one device in the ledger document and counts the rest', async () => {
  const { server, blocks, device } = await seededServer(1);
  await expect.poll(async () => (await server.info()).height).toBe(blocks.length);
  const junk = await device('junk', blocks.slice(0, 1));
  expect(await junk.join()).toMatchObject({ ok: true });
  const filler = new TextEncoder().encode(`{"hash": "${'x'.repeat(2_000)}`); // not JSON: refused as malformed
  junk.handle.change((doc) => {
    for (let i = 0; i < 2_000; i++) doc.blocks[`junk-${String(i).padStart(4, '0')}`] = filler;
  });
  const shared = await junk.ledger();
  await expect.poll(() => shared.doc().devices[junk.deviceId]?.refusedDropped, { timeout: 50_000 }).toBe(2_000 - KEPT);
  expect(Object.keys(await junk.refusals())).toHaveLength(KEPT);
  expect(save(shared.doc()).byteLength).toBeLessThan(200 * 1024);
}, 90_000);
