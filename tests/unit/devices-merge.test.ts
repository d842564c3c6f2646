// Two devices of one ledger that wrote while apart: merging brings every block of both to each, in one order,
// verified with the same checks (docs/decisions/one-ledger-across-devices.md).
import { describe, expect, it } from 'vitest';
import { mineChild } from '../../workers/core/chain';
import { tipsOf } from '../../workers/core/dag';
import { mergeBlocks } from '../../workers/core/merge';
import { signBlock, type StoredKeys } from '../../workers/core/signatures';
import type { Block } from '../../workers/core/types';
import { createLedgerBackend } from '../../workers/service';
import { KEYS_KEY } from '../../workers/storage/ledger-storage';
import { SEALED_TITLE } from '../../workers/ledger/sealing';
import { authorKey } from '../support/forged-blocks';
import { SARAH, WILSON, errorOf, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';
import { uploadInClear } from '../support/sealed-blocks';
import { testDeps } from '../support/test-ledger';
import { type Device, twoDevices } from '../support/two-devices';

const hashes = (device: Device) => device.store.current().blocks.map((block) => block.hash);

async function exchange(a: Device, b: Device): Promise<void> {
  await a.store.mergeRemote(b.store.current().blocks);
  await b.store.mergeRemote(a.store.current().blocks);
}

// The wrapped keys each device sends, taken by the other, as the sync does after the blocks.
async function exchangeWraps(a: Device, b: Device): Promise<void> {
  await b.keySharing.acceptWraps(await a.keySharing.wrapsToSend());
  await a.keySharing.acceptWraps(await b.keySharing.wrapsToSend());
}

const titlesOf = async (device: Device) => (await device.service.listRecords(SARAH.id)).records.map((record) => record.title);

describe('devices that wrote while apart', () => {
  it('end with every block of both, in the same order, each verified, and the next block names both heads', async () => {
    const { a, b, clock } = await twoDevices();
    await signInAs(a.service, SARAH);
    await signInAs(b.service, SARAH);
    await a.service.upload(uploadOf('From the phone'));
    clock.advance(1000);
    await b.service.upload(uploadOf('From the laptop'));
    clock.advance(1000);
    await a.service.upload(uploadOf('Phone again'));

    await exchange(a, b);

    expect(hashes(a)).toEqual(hashes(b));
    expect(hashes(a)).toHaveLength(4);
    // each device sealed under a summary key of its own: the other's record stays sealed until their wraps arrive
    expect(await titlesOf(a)).toEqual(expect.arrayContaining(['From the phone', 'Phone again', SEALED_TITLE]));
    expect(await titlesOf(b)).toEqual(expect.arrayContaining(['From the laptop', SEALED_TITLE]));
    await exchangeWraps(a, b);
    for (const device of [a, b]) {
      expect(await device.service.chainStatus()).toMatchObject({ valid: true, height: 4, readOnly: false });
      const titles = await titlesOf(device);
      expect(titles).toEqual(expect.arrayContaining(['From the phone', 'From the laptop', 'Phone again']));
      expect(titles).not.toContain(SEALED_TITLE);
    }
    // the order is by time: the laptop's upload sits between the phone's two (the blocks hold the titles sealed)
    const uploads = a.store.current().blocks.slice(1);
    expect(uploads.map((block) => [block.data.title, 'sealed' in block.data])).toEqual([
      ['', true],
      ['', true],
      ['', true],
    ]);
    const rows = (await a.service.blocksPage(0, 4)).blocks.filter((row) => row.index > 0); // newest first, as opened here
    expect(rows.map((row) => [row.index, row.hash])).toEqual(uploads.map((block, i) => [i + 1, block.hash]).reverse());
    expect(rows.map((row) => row.title).reverse()).toEqual(['From the phone', 'From the laptop', 'Phone again']);
    expect(tipsOf(a.store.current().blocks)).toHaveLength(2);

    clock.advance(1000);
    await b.service.upload(uploadOf('After the merge'));
    const joined = b.store.current().blocks.at(-1) as Block;
    expect(joined.heads).toHaveLength(2);
    await a.store.mergeRemote(b.store.current().blocks);
    expect(hashes(a)).toEqual(hashes(b));
    expect(await a.service.chainStatus()).toMatchObject({ valid: true, height: 5 });
    const [tip, ...rest] = (await a.service.blocksPage(0, 5)).blocks; // newest first: the explorer shows where they joined
    expect(tip).toMatchObject({ title: 'After the merge', joins: 2 });
    expect(rest.every((row) => row.joins === undefined)).toBe(true);
  });

  it('keep a read under a share revoked meanwhile on the other device, not applied, the same way on both', async () => {
    const { a, b, clock } = await twoDevices();
    await signInAs(a.service, SARAH);
    const share = await a.service.shareRecords({ doctorId: WILSON.id, accessLevel: 'full', durationDays: 7, note: '' });
    await b.store.mergeRemote(a.store.current().blocks);
    clock.advance(1000);
    await a.service.revokeShare(share.id); // on Sarah's phone
    clock.advance(1000);
    await signInAs(b.service, WILSON);
    await b.service.sharedView(share.id); // on Dr. Wilson's computer, which has not heard of the revoke

    await exchange(a, b);

    expect(hashes(a)).toEqual(hashes(b));
    for (const device of [a, b]) {
      const notApplied = [...device.store.state().notApplied.values()];
      expect(notApplied).toHaveLength(1);
      expect(notApplied[0].reason).toMatch(/revoked/);
      expect(device.store.state().shares.get(share.id)?.share.revokedAt).toBeDefined();
      await signInAs(device.service, SARAH);
      const rows = (await device.service.blocksPage(0, 10)).blocks.filter((row) => row.notApplied !== undefined);
      expect(rows).toEqual([expect.objectContaining({ notApplied: notApplied[0].reason, index: notApplied[0].index })]);
      expect(await device.service.chainStatus()).toMatchObject({ valid: true, readOnly: false });
    }
  });

  it('refuse a block re-mined after its record was edited and one signed with another key, naming each, and store neither', async () => {
    const { a, b, storageB } = await twoDevices();
    await signInAs(b.service, SARAH);
    await b.service.upload(uploadOf('Honest upload'));
    const honest = b.store.current().blocks.at(-1) as Block;
    // Sarah's first upload, written in clear under another title: legal as her first upload, so only the signature tells
    const inClear = await uploadInClear(storageB, honest.data);
    const edited = { ...inClear, title: 'Edited on the way' };
    const remined = { ...mineChild(honest.heads as string[], 1, edited, honest.timestamp), signature: honest.signature };
    const otherKey = await signBlock(
      mineChild(honest.heads as string[], 1, { ...inClear, title: 'Signed by another' }, honest.timestamp),
      await authorKey(storageB, WILSON.id),
    );

    const outcome = await a.store.mergeRemote([remined, otherKey]);

    expect(outcome.added).toBe(0);
    const reason = `signature does not hold for the enrolled key of ${SARAH.id}`;
    expect(outcome.refused).toHaveLength(2);
    expect(outcome.refused).toEqual(
      expect.arrayContaining([
        { hash: remined.hash, reason },
        { hash: otherKey.hash, reason },
      ]),
    );
    expect(a.store.current().blocks).toHaveLength(1);
    const outcome2 = await mergeBlocks(a.store.current().blocks, [{ ...honest, data: edited }, 'not a block']);
    expect(outcome2.refused.map((refused) => refused.reason).sort()).toEqual([
      'block is malformed (not an object)',
      'record data was changed (data hash mismatch)',
    ]);
  });

  it('waits for a block whose head has not arrived, and adds both once it does', async () => {
    const { a, b } = await twoDevices();
    await signInAs(b.service, SARAH);
    await b.service.upload(uploadOf('First'));
    await b.service.upload(uploadOf('Second'));
    const [, first, second] = b.store.current().blocks;

    const early = await a.store.mergeRemote([second]);
    expect(early).toMatchObject({ added: 0, refused: [] });
    expect(early.waiting).toHaveLength(1);
    const late = await a.store.mergeRemote([first, second]);
    expect(late).toMatchObject({ added: 2, refused: [], waiting: [] });
    expect(hashes(a)).toEqual(hashes(b));
  });

  it('shows a record from another device before its file arrives, then opens the file once its bytes and key come', async () => {
    const { a, b, storageA } = await twoDevices();
    await signInAs(a.service, SARAH);
    const record = await a.service.upload(uploadOf('Scan from the phone'));
    const documentId = record.record.documentIds[0];

    await b.store.mergeRemote(a.store.current().blocks);
    await signInAs(b.service, SARAH);
    expect(await b.service.chainStatus()).toMatchObject({ valid: true, readOnly: false });
    expect(await titlesOf(b)).toContain(SEALED_TITLE); // its summary key has not come yet
    await b.keySharing.acceptWraps(await a.keySharing.wrapsToSend()); // as the sync does after the blocks
    expect(await titlesOf(b)).toContain('Scan from the phone');
    const fileOnB = async () => (await b.service.listRecords(SARAH.id)).records.flatMap((view) => view.documents);
    // the file's name is under its own key, which is only kept once the bytes it opens are here
    expect(await fileOnB()).toEqual([expect.objectContaining({ id: documentId, fileName: 'Sealed file' })]);
    expect(b.store.current().awaiting.has(documentId)).toBe(true);
    expect(await errorOf(b.service.downloadBackup('backup-1', 'backup password', 'browser'))).toEqual({
      name: 'ValidationError',
      message: `A file has not reached this device yet (document ${documentId}): connect to the sync server and wait until it arrives, then back up.`,
    });

    const bytes = (await storageA.readContent(documentId)) as ArrayBuffer;
    const key = a.store.current().keys.get(documentId) as string;
    await expect(b.store.addRemoteContent(documentId, new Uint8Array([1, 2, 3]).buffer, key)).rejects.toThrow(/content id/);
    expect(await b.store.addRemoteContent(documentId, bytes, key)).toBe(true);
    expect(b.store.current().awaiting.has(documentId)).toBe(false);
    expect(await fileOnB()).toEqual([expect.objectContaining({ id: documentId, fileName: 'report.pdf' })]);
    expect(textOf((await b.service.readDocument(documentId)).bytes)).toBe('scan');
    expect(await b.service.downloadBackup('backup-2', 'backup password', 'browser')).toMatchObject({
      fileName: expect.stringMatching(/\.car$/),
    });
  });

  it('refuses a genesis that fails a check when nothing is held yet, and names why', async () => {
    const { a } = await twoDevices();
    const genesis = a.store.current().blocks[0];
    const outcome = await mergeBlocks([], [{ ...genesis, data: { ...genesis.data, title: 'Edited genesis' } }]);
    expect(outcome).toMatchObject({ added: [], blocks: [], waiting: [] });
    expect(outcome.refused).toEqual([{ hash: genesis.hash, reason: 'record data was changed (data hash mismatch)' }]);
  });

  it('lets a device without the ledger key write after a grant expired, leaving the expiry to a device that holds it', async () => {
    const { a, storageB, clock } = await twoDevices();
    const keys = (await storageB.readMeta(KEYS_KEY)) as StoredKeys;
    await storageB.commit({ meta: { [KEYS_KEY]: { ...keys, ledger: { publicKey: keys.ledger.publicKey } } } });
    const device = createLedgerBackend(testDeps({ storage: storageB, now: clock.now }));
    await signInAs(device.service, WILSON);
    const reason = 'Unconscious on arrival';
    const grant = await device.service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason,
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    clock.advance(16 * 60_000);
    await signInAs(device.service, SARAH);
    await device.service.upload(uploadOf('After the grant ended'));
    const events = (d: Device) =>
      d.store.current().blocks.flatMap((block) => (block.data.type === 'emergency_access' ? [block.data.emergency.event] : []));
    expect(events(device)).toEqual(['granted']);
    expect(device.store.state().grants.get(grant.id)?.closedBy).toBeUndefined();
    await expect(device.service.downloadBackup(crypto.randomUUID(), 'a long password', 'browser')).resolves.toBeTruthy(); // without the ledger key too;

    await a.store.mergeRemote(device.store.current().blocks);
    await signInAs(a.service, SARAH);
    await a.service.upload(uploadOf('On the device with the ledger key'));
    expect(events(a)).toEqual(['granted', 'expired']);
    await device.store.mergeRemote(a.store.current().blocks);
    expect(device.store.state().grants.get(grant.id)?.closedBy).toBe('expired');
    expect(hashes(device)).toEqual(hashes(a));
  });
});
