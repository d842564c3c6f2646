// Document keys over the wire (workers/sync/): a device sends the wraps key sharing makes, hands the ledger's wraps
// to key sharing, and under an emergency grant asks the server's care network for a key it lacks.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentId } from '../../workers/core/documents';
import {
  CARE_NETWORK,
  createCareNetworkKey,
  importCareNetworkKey,
  releaseForGrant,
  wrapId,
  type KeyWrap,
} from '../../workers/core/key-wraps';
import { decodeBlock, encodeWrap, type DeviceDoc, type FileDoc } from '../../workers/core/sync-protocol';
import { createLedgerBackend } from '../../workers/service';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { startSync } from '../../workers/sync/sync-client';
import type { SyncClient, SyncKeys, SyncTransport } from '../../workers/sync/sync-ports';
import { fakeBlock, fakeProve, fakeServer, fakeStore } from '../support/fake-sync';
import { SARAH, WILSON, createClock, errorOf, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';
import { copyOf } from '../support/two-devices';

const GENESIS = fakeBlock('a'.repeat(64), 0);
const SERVER = 'ws://127.0.0.1:3030';
const CARE_KEY = `B${'A'.repeat(86)}=`;

function fakeWrap(documentId: string, to: string, wrapped = 'w1'): KeyWrap {
  return { documentId, cid: `cid-${documentId}`, to, from: SARAH.id, ephemeralPublicKey: CARE_KEY, iv: 'iv', wrapped };
}

function fakeKeys(wraps: KeyWrap[] = []) {
  const listed = new Set<string>(); // every document it sent a wrap of: it holds their keys
  return {
    wraps,
    setCareNetworkKey: vi.fn<SyncKeys['setCareNetworkKey']>(),
    wrapsToSend: vi.fn(async () => {
      for (const wrap of wraps) listed.add(wrap.documentId);
      return [...wraps];
    }),
    vouchedSubjects: vi.fn(async () => new Set(listed)),
    acceptWraps: vi.fn(async (offered: unknown[]) => offered.length),
  } satisfies SyncKeys & { wraps: KeyWrap[] };
}

const clients: SyncClient[] = [];
afterEach(async () => {
  while (clients.length > 0) await clients.pop()?.close();
});

async function connect(server: ReturnType<typeof fakeServer>, store: ReturnType<typeof fakeStore>, keys: SyncKeys) {
  const client = await startSync({
    serverUrl: SERVER,
    deviceName: 'Sarah’s laptop',
    deviceId: 'device-1',
    prove: fakeProve,
    store,
    keys,
    transport: server.transport,
    now: () => Date.UTC(2026, 10, 26, 10, 42),
    changed: () => undefined,
  });
  clients.push(client);
  return client;
}

describe('wraps through the sync client', () => {
  it("hands the server's care-network key to key sharing while connected, and takes it back at close", async () => {
    const keys = fakeKeys();
    const client = await connect(fakeServer({ genesis: GENESIS, careNetworkKey: CARE_KEY }), fakeStore([GENESIS]), keys);
    expect(keys.setCareNetworkKey).toHaveBeenLastCalledWith(CARE_KEY);
    await client.close();
    expect(keys.setCareNetworkKey).toHaveBeenLastCalledWith(null);
  });

  it('writes the wraps key sharing gives into the device document, then only the entries that changed or went', async () => {
    const server = fakeServer({ genesis: GENESIS });
    const keys = fakeKeys([fakeWrap('doc-1', SARAH.id)]);
    const client = await connect(server, fakeStore([GENESIS]), keys);
    const device = () => server.repos.doc<DeviceDoc>(client.deviceUrl);
    const first = wrapId(keys.wraps[0]);
    await expect.poll(() => Object.keys(device().wraps ?? {})).toEqual([first]);
    expect(decodeBlock(device().wraps?.[first])).toEqual(keys.wraps[0]);
    const sent = device().wraps?.[first];

    keys.wraps.push(fakeWrap('doc-1', CARE_NETWORK));
    client.localChanged();
    await expect.poll(() => Object.keys(device().wraps ?? {}).sort()).toEqual([first, `doc-1|${CARE_NETWORK}`].sort());
    expect(device().wraps?.[first]).toBe(sent); // unchanged: not written again

    keys.wraps.splice(1); // the patient withdrew her consent: no wrap to the care network is made any more
    client.localChanged();
    await expect.poll(() => Object.keys(device().wraps ?? {})).toEqual([first]);
  });

  it('keeps the wraps it listed once it holds their keys no more (a reset device): they may be the only ones a reader has', async () => {
    const server = fakeServer({ genesis: GENESIS });
    const keys = fakeKeys([fakeWrap('doc-1', SARAH.id), fakeWrap('doc-2', SARAH.id)]);
    const client = await connect(server, fakeStore([GENESIS]), keys);
    const device = () => server.repos.doc<DeviceDoc>(client.deviceUrl);
    const listed = keys.wraps.map(wrapId).sort();
    await expect.poll(() => Object.keys(device().wraps ?? {}).sort()).toEqual(listed);

    keys.wraps.length = 0; // its keys are gone: it makes no wrap at all
    keys.vouchedSubjects.mockResolvedValue(new Set(['doc-2'])); // it still holds doc-2's key: that wrap it takes back
    client.localChanged();
    await expect.poll(() => Object.keys(device().wraps ?? {})).toEqual([wrapId(fakeWrap('doc-1', SARAH.id))]);
  });

  it("offers every wrap of the ledger to key sharing once the file's bytes have arrived", async () => {
    const bytes = new TextEncoder().encode('encrypted scan');
    const cid = await contentId(bytes);
    const server = fakeServer({ genesis: GENESIS });
    const store = fakeStore([GENESIS]);
    store.named.set('doc-1', cid);
    const keys = fakeKeys();
    await connect(server, store, keys);
    const file = server.repos.repo.create<FileDoc>({ kind: 'medledger-file', cid, bytes });
    const wrap = fakeWrap('doc-1', SARAH.id);
    server.ledgerHandle()?.change((d) => {
      d.files['doc-1'] = { cid, url: file.url, size: bytes.byteLength };
      d.wraps = { [wrapId(wrap)]: encodeWrap(wrap) };
    });
    await expect.poll(() => keys.acceptWraps.mock.calls.at(-1)?.[0]).toEqual([wrap]);
    expect(store.addRemoteContent.mock.invocationCallOrder[0]).toBeLessThan(keys.acceptWraps.mock.invocationCallOrder.at(-1)!);
  });

  it('asks the server to release a key and stores the wrap it answers; says why when it refuses', async () => {
    const READ = 'ab'.repeat(32); // the doctor's read block the request names
    const wrap = fakeWrap('doc-1', WILSON.id);
    const server = fakeServer({
      genesis: GENESIS,
      release: async ({ grantId }) => (grantId === 'grant-1' ? { ok: true, wrap } : { ok: false, reason: 'grant is not active' }),
    });
    const keys = fakeKeys();
    const client = await connect(server, fakeStore([GENESIS]), keys);
    expect(await client.release({ grantId: 'grant-1', documentId: 'doc-1', readBlock: READ })).toBeNull();
    expect(keys.acceptWraps).toHaveBeenCalledWith([wrap]);
    expect(await client.release({ grantId: 'grant-2', documentId: 'doc-1', readBlock: READ })).toBe('grant is not active');
    expect(server.releases).toEqual([
      { grantId: 'grant-1', documentId: 'doc-1', readBlock: READ },
      { grantId: 'grant-2', documentId: 'doc-1', readBlock: READ },
    ]);
    keys.acceptWraps.mockResolvedValueOnce(0);
    expect(await client.release({ grantId: 'grant-1', documentId: 'doc-1', readBlock: READ })).toMatch(/does not open this file/);
  });
});

describe('a file under an emergency grant on a doctor’s device', () => {
  it('opens after the server’s care network releases its key, and without sync says the file has not reached the device', async () => {
    const clock = createClock(Date.UTC(2026, 10, 26, 10, 0));
    const care = await createCareNetworkKey();
    const storageA = createMemoryStorage();
    const a = createLedgerBackend(testDeps({ storage: storageA, now: clock.now }));
    await a.store.ready();
    const storageB = await copyOf(storageA);
    const made: { server?: ReturnType<typeof fakeServer> } = {}; // the server is made once the grant is on the ledger, as the server would hold it
    const syncTransport: SyncTransport = {
      fetch: (url, init) => made.server!.transport.fetch(url, init),
      openRepo: (url) => made.server!.transport.openRepo(url),
    };
    const b = createLedgerBackend(testDeps({ storage: storageB, now: clock.now, syncTransport }));
    await b.store.ready();

    // Sarah uploads on her device, which wraps the key to the care network; the doctor's device gets blocks and bytes
    await signInAs(a.service, SARAH);
    const documentId = (await a.service.upload(uploadOf('Scan from the phone'))).record.documentIds[0];
    a.keySharing.setCareNetworkKey(care.publicKey);
    const careWrap = (await a.keySharing.wrapsToSend()).find((wrap) => wrap.to === CARE_NETWORK);
    await b.store.mergeRemote(a.store.current().blocks);
    await b.store.addRemoteContent(documentId, (await storageA.readContent(documentId)) as ArrayBuffer);

    await signInAs(b.service, WILSON);
    const grant = await b.service.requestEmergencyAccess({
      patientId: SARAH.id,
      accessLevel: 'full',
      reason: 'Unconscious on arrival',
      durationMinutes: 30,
    });
    expect(await errorOf(b.service.readDocument(documentId))).toEqual({
      name: 'NotFoundError',
      message: 'This file has not reached this device yet. This device is not connected to a sync server.',
    });
    const readsOf = () => b.store.state().grants.get(grant.id)?.reads ?? [];
    expect(readsOf()).toEqual([]); // nothing was read, so no read is recorded

    const carePrivateKey = await importCareNetworkKey(care.privateKey);
    const server = (made.server = fakeServer({
      blocks: [...b.store.current().blocks],
      careNetworkKey: care.publicKey,
      release: async (request) => {
        const released = await releaseForGrant(b.store.state(), request, careWrap, carePrivateKey, clock.now());
        return typeof released === 'string' ? { ok: false, reason: released } : { ok: true, wrap: released };
      },
    }));
    await b.service.connectSync({ serverUrl: SERVER, deviceName: 'ER desk' });
    // joined, every block in step; this fake server takes no file, so the device says it still holds one the server lacks
    await expect
      .poll(async () => await b.service.syncStatus())
      .toMatchObject({ state: 'syncing', pendingBlocks: 0, pendingFiles: 1 });
    expect(textOf((await b.service.readDocument(documentId)).bytes)).toBe('scan');
    // one read on the chain, written before the release that names it
    expect(readsOf()).toEqual([expect.objectContaining({ documentId })]);
    expect(server.releases).toEqual([{ grantId: grant.id, documentId, readBlock: readsOf()[0].block }]);
    await b.service.disconnectSync();
  });
});
