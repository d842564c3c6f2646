// Issue scenario 4: a device whose clock says 2999 writes a block. The server refuses it, and so does every other
// device that is offered it, naming why; the ledger goes on taking the other devices' blocks.
import { expect, it } from 'vitest';
import { mineChild } from '../../workers/core/chain';
import { signBlock } from '../../workers/core/signatures';
import type { ClinicalRecord } from '../../workers/core/types';
import { createLedgerBackend } from '../../workers/service';
import { SARAH, signInAs, uploadOf } from '../support/ledger-fixtures';
import { authorKey } from '../support/forged-blocks';
import { sealedLike, uploadInClear } from '../support/sealed-blocks';
import { testDeps } from '../support/test-ledger';
import { encodeBlocks } from './support/devices';
import { seededServer } from './support/seeded';

const FUTURE = '2999-01-01T00:00:00.000Z';
const DATED_IN_THE_FUTURE = new RegExp(`dated in the future: ${FUTURE} is more than 5 minutes after this verifier's clock`);

it('refuses a block dated 2999 on the server and on another device, and keeps taking the blocks written after it', async () => {
  const { server, ledger, blocks, laptop, device } = await seededServer(1);
  await expect.poll(async () => (await server.info()).height).toBe(blocks.length);

  // Sarah's upload as a device with its clock in 2999 writes it: the record and the block dated then, signed by her
  const upload = blocks[1].data as ClinicalRecord;
  const record = await uploadInClear(ledger.storage, upload);
  const files = record.files.map((file) => ({ ...file, documentId: crypto.randomUUID() }));
  const written = { ...record, id: crypto.randomUUID(), title: 'Written in 2999', timestamp: FUTURE, files };
  const sealed = await sealedLike(ledger.storage, written, upload.sealed?.key ?? '');
  const tip = blocks[blocks.length - 1];
  const future = await signBlock(mineChild([tip.hash], blocks.length, sealed, FUTURE), await authorKey(ledger.storage, SARAH.id));

  const skewed = await device('clock-2999', blocks.slice(0, 1));
  skewed.handle.change((doc) => Object.assign(doc.blocks, encodeBlocks([future])));
  expect(await skewed.join()).toMatchObject({ ok: true });
  await expect.poll(async () => (await skewed.refusals())[future.hash]).toMatch(DATED_IN_THE_FUTURE);
  expect(server.lines.some((line) => line.includes(`refused ${future.hash.slice(0, 8)}`))).toBe(true);

  // another device of the ledger refuses it too, with the same reason
  const phone = createLedgerBackend(testDeps({ storage: ledger.storage }));
  await signInAs(phone.service, SARAH);
  const merged = await phone.store.mergeRemote([future]);
  expect(merged).toMatchObject({
    added: 0,
    refused: [{ hash: future.hash, reason: expect.stringMatching(DATED_IN_THE_FUTURE) }],
  });

  // the laptop writes on, dated by a right clock: taken, the ledger is not frozen
  await ledger.service.upload(uploadOf('Written after the 2999 block'));
  const now = await ledger.blocks();
  laptop.handle.change((doc) => Object.assign(doc.blocks, encodeBlocks(now.slice(blocks.length))));
  await expect.poll(async () => (await server.info()).height).toBe(now.length);
  const shared = await laptop.ledger();
  expect(Object.keys(shared.doc().blocks)).not.toContain(future.hash);
});
