// Document keys through the sync server: it copies wraps it has checked, never holds or shows a key in clear, and
// releases the care network's wrap only to the doctor of an active full emergency grant.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { CARE_NETWORK, summaryWrapOf, unwrapKey, wrapId, type KeyWrap } from '../../workers/core/key-wraps';
import { unlockUserKeys } from '../../workers/core/signatures';
import { encodeBlock, encodeWrap, type ReleaseAnswer, type SyncedKeys } from '../../workers/core/sync-protocol';
import { createLedgerBackend } from '../../workers/service';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { CARTER, SARAH, WILSON, signInAs, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';
import { connectDevice, identityOf, type TestDevice } from './support/devices';
import { newStorageDir, startServer, type ServerProcess } from './support/server-process';

let server: ServerProcess;
const devices: TestDevice[] = [];

beforeAll(async () => {
  server = await startServer(newStorageDir());
});

afterAll(async () => {
  await Promise.allSettled(devices.map((each) => each.close()));
  await server?.kill();
});

let doctorSession = ''; // the session of the granted doctor's device: a release answers only a proven device

async function release(grantId: string, documentId: string, readBlock: unknown = GENESIS_READ, session = doctorSession) {
  const answer = await fetch(`http://127.0.0.1:${server.port}/api/release`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(session ? { Authorization: `Bearer ${session}` } : {}) },
    body: JSON.stringify({ grantId, documentId, readBlock }),
  });
  return (await answer.json()) as ReleaseAnswer;
}

const careNetworkKey = () =>
  (JSON.parse(readFileSync(join(server.dir, 'care-network-key.json'), 'utf8')) as { publicKey: string }).publicKey;

let GENESIS_READ = ''; // a held block that is no read: the hash of the genesis

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function hexBytes(hex: string): Buffer {
  return Buffer.from(hex, 'hex');
}

describe('document keys through the sync server', () => {
  it('keeps its care-network key readable by its user only and tells the public half to no one who has not proved who they are', async () => {
    const info = await server.info();
    expect(careNetworkKey()).toMatch(/^B[A-Za-z0-9+/]{86}=$/);
    expect(statSync(join(server.dir, 'care-network-key.json')).mode & 0o777).toBe(0o600);
    expect(Object.keys(info).sort()).toEqual(['genesis', 'height', 'protocol', 'serverTime']);
  });

  it('copies checked wraps, shows no key in clear to another user’s device, releases only under an active full grant, and no more once consent is withdrawn', async () => {
    const storage = createMemoryStorage();
    const backend = createLedgerBackend(testDeps({ storage }));
    await signInAs(backend.service, SARAH);
    const documentId = (await backend.service.upload(uploadOf('Scan for the emergency'))).record.documentIds[0];
    const key = backend.store.current().keys.get(documentId) as string;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    backend.keySharing.setCareNetworkKey(careNetworkKey());
    const wraps = await backend.keySharing.wrapsToSend();
    const readers = (which: (wrap: KeyWrap) => boolean) =>
      wraps
        .filter(which)
        .map((wrap) => wrap.to)
        .sort();
    expect(readers((wrap) => wrap.documentId === documentId)).toEqual([CARE_NETWORK, CARTER.id, SARAH.id]);
    // and her summary key (the title is sealed under it), to the same readers; nothing else is wrapped
    expect(readers((wrap) => summaryWrapOf(wrap)?.patientId === SARAH.id)).toEqual([CARE_NETWORK, CARTER.id, SARAH.id]);
    expect(wraps).toHaveLength(6);

    const stored = backend.store.storedKeys();
    const keys: SyncedKeys = { algorithm: 'Ed25519', users: stored!.users, ledger: { publicKey: stored!.ledger.publicKey } };
    const laptop = await connectDevice(server.port, 'laptop', backend.store.current().blocks, {
      as: await identityOf(stored!.users, SARAH.id),
      keys,
    });
    devices.push(laptop);
    const stranger: KeyWrap = { ...(wraps.find((wrap) => wrap.documentId === documentId) as KeyWrap), to: 'someone-else' };
    laptop.handle.change((doc) => {
      doc.wraps = Object.fromEntries(wraps.map((wrap) => [wrapId(wrap), encodeWrap(wrap)]));
      doc.wraps[wrapId(stranger)] = encodeWrap(stranger);
    });
    const joined = await laptop.join();
    expect(joined).toMatchObject({ ok: true, careNetworkKey: careNetworkKey() });

    // another user's device: it reads the ledger document every device reads
    const desk = await connectDevice(server.port, 'desk', backend.store.current().blocks.slice(0, 1), {
      as: await identityOf(stored!.users, WILSON.id),
    });
    devices.push(desk);
    expect(await desk.join()).toMatchObject({ ok: true });
    doctorSession = desk.session();
    const ledger = await desk.ledger();
    await expect.poll(() => Object.keys(ledger.doc().wraps ?? {}).sort()).toEqual(wraps.map(wrapId).sort());
    const decoder = new TextDecoder();
    const whole = JSON.stringify(ledger.doc(), (_, value: unknown) =>
      value instanceof Uint8Array ? decoder.decode(value) : value,
    );
    expect(whole).toContain(documentId);
    expect(whole).not.toContain(key);
    expect(ledger.doc().refused[`wrap:${wrapId(stranger)}`]?.reason).toBe('key wrap to no user of this ledger');
    for (const file of filesUnder(server.dir)) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(key)), file).toBe(false);
      expect(bytes.includes(hexBytes(key)), file).toBe(false);
    }

    GENESIS_READ = backend.store.current().blocks[0].hash;
    expect(await release('no-such-grant', documentId)).toEqual({ ok: false, reason: 'no grant no-such-grant is on the ledger' });
    expect(await release('no-such-grant', documentId, GENESIS_READ, '')).toEqual({
      ok: false,
      reason: expect.stringMatching(/has not proved who it is/),
    });
    await signInAs(backend.service, WILSON);
    const request = { patientId: SARAH.id, reason: 'Unconscious on arrival', durationMinutes: 30 };
    const pushBlocks = async () => {
      const blocks = backend.store.current().blocks;
      laptop.handle.change((doc) => {
        for (const block of blocks) if (!doc.blocks[block.hash]) doc.blocks[block.hash] = encodeBlock(block);
      });
      await expect.poll(async () => (await server.info()).height).toBe(blocks.length);
    };
    const basic = await backend.service.requestEmergencyAccess({ ...request, accessLevel: 'basic' });
    await pushBlocks();
    expect(await release(basic.id, documentId)).toMatchObject({ ok: false, reason: expect.stringMatching(/basic access/) });
    await backend.service.endEmergencyAccess(basic.id);
    const full = await backend.service.requestEmergencyAccess({ ...request, accessLevel: 'full' });
    await pushBlocks();
    // no key without the doctor's read of the document on the ledger, named by its block
    expect(await release(full.id, documentId, 'not a hash')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/readBlock/),
    });
    expect(await release(full.id, documentId)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/is not a read of document/),
    });
    await backend.service.readDocument(documentId);
    const readBlock = backend.store.state().grants.get(full.id)?.reads.at(-1)?.block;
    await pushBlocks();
    const answer = await release(full.id, documentId, readBlock);
    expect(answer).toMatchObject({ ok: true, wrap: { to: WILSON.id, from: CARE_NETWORK, documentId } });
    const wrap = (answer as { wrap: KeyWrap }).wrap;
    expect(JSON.stringify(answer)).not.toContain(key);
    const encryptionKeyOf = async (userId: string) =>
      (await unlockUserKeys(stored!.users[userId], DEMO_PASSWORD))?.encryptionKey as CryptoKey;
    expect(await unwrapKey(wrap, await encryptionKeyOf(WILSON.id))).toBe(key);
    expect(await unwrapKey(wrap, await encryptionKeyOf(SARAH.id))).toBeNull();
    expect(await unwrapKey(wrap, await encryptionKeyOf(CARTER.id))).toBeNull();
    expect(server.lines.some((line) => line.includes(`released the key of document ${documentId} to ${WILSON.id}`))).toBe(true);
    expect(server.lines.some((line) => line.includes(key))).toBe(false);

    // Sarah withdraws her consent: her device takes its care-network wrap out, and the server no longer releases
    const careId = wrapId({ documentId, to: CARE_NETWORK });
    laptop.handle.change((doc) => void delete doc.wraps?.[careId]);
    await expect.poll(() => Object.hasOwn(ledger.doc().wraps ?? {}, careId)).toBe(false);
    expect(await release(full.id, documentId, readBlock)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/care network's wrap/),
    });
    expect(Object.keys(ledger.doc().wraps ?? {}).length).toBe(wraps.length - 1);
  });
});
