// Issue scenario 2: once a patient withdrew the care network's consent, no client brings it back. A device cannot
// take the patient's device id, cannot take a block out of the ledger, and a care-network wrap put back by another
// device is not released, before or after the server restarts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CARE_NETWORK, wrapId } from '../../workers/core/key-wraps';
import { encodeBlock, encodeWrap, type ReleaseAnswer, type SyncedKeys } from '../../workers/core/sync-protocol';
import { createLedgerBackend } from '../../workers/service';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { MICHAEL, SARAH, WILSON, signInAs, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';
import { connectDevice, identityOf, type TestDevice } from './support/devices';
import { newStorageDir, startServer, type ServerProcess } from './support/server-process';

it('releases no key after the patient withdrew consent, whatever another device sends, before and after a restart', async () => {
  const opened: TestDevice[] = [];
  let server: ServerProcess = await startServer(newStorageDir());
  try {
    const backend = createLedgerBackend(testDeps({ storage: createMemoryStorage() }));
    await signInAs(backend.service, SARAH);
    const documentId = (await backend.service.upload(uploadOf('Scan for the emergency'))).record.documentIds[0];
    const careKey = (JSON.parse(readFileSync(join(server.dir, 'care-network-key.json'), 'utf8')) as { publicKey: string })
      .publicKey;
    backend.keySharing.setCareNetworkKey(careKey);
    const wraps = await backend.keySharing.wrapsToSend();
    const stored = backend.store.storedKeys()!;
    const keys: SyncedKeys = { algorithm: 'Ed25519', users: stored.users, ledger: { publicKey: stored.ledger.publicKey } };
    const as = (userId: string) => identityOf(stored.users, userId);
    const device = async (port: number, name: string, userId: string, options: { keys?: SyncedKeys; deviceId?: string } = {}) => {
      const made = await connectDevice(port, name, backend.store.current().blocks, { as: await as(userId), ...options });
      opened.push(made);
      return made;
    };

    const laptop = await device(server.port, 'laptop', SARAH.id, { keys });
    laptop.handle.change((doc) => void (doc.wraps = Object.fromEntries(wraps.map((wrap) => [wrapId(wrap), encodeWrap(wrap)]))));
    expect(await laptop.join()).toMatchObject({ ok: true });
    const desk = await device(server.port, 'desk', WILSON.id);
    expect(await desk.join()).toMatchObject({ ok: true });
    const careId = wrapId({ documentId, to: CARE_NETWORK });
    const published = await desk.ledger();
    await expect.poll(() => Object.hasOwn(published.doc().wraps ?? {}, careId)).toBe(true);
    const copied = new Uint8Array(published.doc().wraps![careId]); // as any device of the ledger could copy it

    const push = async () => {
      const blocks = backend.store.current().blocks;
      laptop.handle.change((doc) => {
        for (const block of blocks) if (!doc.blocks[block.hash]) doc.blocks[block.hash] = encodeBlock(block);
      });
      await expect.poll(async () => (await server.info()).height).toBe(blocks.length);
    };
    const release = async (body: unknown): Promise<ReleaseAnswer> =>
      (
        await fetch(`http://127.0.0.1:${server.port}/api/release`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${desk.session()}` },
          body: JSON.stringify(body),
        })
      ).json() as Promise<ReleaseAnswer>;

    await signInAs(backend.service, WILSON);
    const grant = await backend.service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'Unconscious on arrival',
      durationMinutes: 30,
      accessLevel: 'full',
    });
    await backend.service.readDocument(documentId);
    const readBlock = backend.store.state().grants.get(grant.id)?.reads.at(-1)?.block;
    await push();
    const request = { grantId: grant.id, documentId, readBlock };
    expect(await release(request)).toMatchObject({ ok: true });

    // Sarah withdraws her consent: the block is on the chain, and her device takes its care-network wrap out
    await signInAs(backend.service, SARAH);
    await backend.service.setCareNetworkConsent(false);
    await push();
    laptop.handle.change((doc) => void delete doc.wraps?.[careId]);
    await expect.poll(() => Object.hasOwn(published.doc().wraps ?? {}, careId)).toBe(false);
    const refusal = { ok: false, reason: 'the patient does not let the care network open their files' };
    expect(await release(request)).toEqual(refusal);
    const height = (await server.info()).height;

    // another user's device cannot join as her laptop, and puts the copied wrap back from a device of its own
    const thief = await device(server.port, 'thief', MICHAEL.id, { deviceId: laptop.deviceId });
    expect(await thief.join()).toMatchObject({ ok: false, reason: expect.stringMatching(/belongs to another user/) });
    const other = await device(server.port, 'other', MICHAEL.id);
    other.handle.change((doc) => void (doc.wraps = { [careId]: copied }));
    expect(await other.join()).toMatchObject({ ok: true });
    // and it cannot take her consent block out of the ledger document
    const forged = await other.ledger();
    const consentBlock = backend.store.current().blocks.at(-1)!.hash;
    await expect.poll(() => Object.hasOwn(forged.doc().blocks, consentBlock)).toBe(true);
    forged.change((doc) => void delete doc.blocks[consentBlock]);
    await expect
      .poll(() => server.lines.some((line) => line.includes(`dropped a change to document`) && line.includes(other.deviceId)))
      .toBe(true);
    expect(await release(request)).toEqual(refusal);

    // the server restarts: its ledger comes from its own files, with her consent block
    await Promise.allSettled(opened.map((each) => each.close()));
    await server.kill();
    server = await startServer(server.dir, server.port);
    expect((await server.info()).height).toBe(height);
    const again = await device(server.port, 'desk-again', WILSON.id, { deviceId: desk.deviceId });
    expect(await again.join()).toMatchObject({ ok: true });
    const answer = (
      await fetch(`http://127.0.0.1:${server.port}/api/release`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${again.session()}` },
        body: JSON.stringify(request),
      })
    ).json() as Promise<ReleaseAnswer>;
    expect(await answer).toEqual(refusal);
    expect(server.lines.some((line) => line.includes(`released the key of document ${documentId}`))).toBe(false);
  } finally {
    await Promise.allSettled(opened.map((each) => each.close()));
    await server.kill();
  }
});
