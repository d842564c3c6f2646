// The device side of one ledger across devices (workers/sync/): what a device decides when it connects, what it
// sends and what it takes, against a sync server faked in memory (tests/support/fake-sync.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentId } from '../../workers/core/documents';
import { SYNC_PROTOCOL_VERSION, decodeBlock, encodeBlock, type DeviceDoc, type FileDoc } from '../../workers/core/sync-protocol';
import { OFFERS_LEDGER, SyncOffersLedger, SyncRefused, startSync } from '../../workers/sync/sync-client';
import type { LedgerTaking, SyncClient, SyncOptions } from '../../workers/sync/sync-ports';
import { httpOrigin } from '../../workers/sync/server-address';
import { blocksToPush, blocksToTake, joinPlan, pendingBlocks } from '../../workers/sync/sync-plan';
import { FAKE_SERVER_TIME, fakeBlock, fakeProve, fakeServer, fakeStore } from '../support/fake-sync';

const GENESIS = fakeBlock('a'.repeat(64), 0);
const OTHER_GENESIS = fakeBlock('b'.repeat(64), 0);
const SERVER = 'ws://127.0.0.1:3030';
const info = (genesis: string | null) => ({
  protocol: SYNC_PROTOCOL_VERSION,
  genesis,
  height: 1,
  serverTime: FAKE_SERVER_TIME,
});

const clients: SyncClient[] = [];
afterEach(async () => {
  while (clients.length > 0) await clients.pop()?.close();
});

async function connect(
  server: ReturnType<typeof fakeServer>,
  store: ReturnType<typeof fakeStore>,
  deviceUrl?: string,
  options: { prove?: SyncOptions['prove']; now?: number; takeLedger?: LedgerTaking } = {},
) {
  const client = await startSync({
    serverUrl: SERVER,
    deviceName: 'Sarah’s laptop',
    deviceId: 'device-1',
    ...(deviceUrl ? { deviceUrl } : {}),
    store,
    prove: options.prove ?? fakeProve,
    transport: server.transport,
    now: () => options.now ?? Date.UTC(2026, 10, 26, 10, 42),
    changed: () => undefined,
    ...(options.takeLedger ? { takeLedger: options.takeLedger } : {}),
  });
  clients.push(client);
  return client;
}

const deviceDoc = (server: ReturnType<typeof fakeServer>, client: SyncClient) => server.repos.doc<DeviceDoc>(client.deviceUrl);

describe('joining a sync server', () => {
  it('joins a server that holds the same ledger, seeds one that holds none, and adopts when only the demo ledger is here', () => {
    expect(joinPlan({ genesis: GENESIS.hash, untouched: false }, info(GENESIS.hash))).toEqual({ action: 'join' });
    expect(joinPlan({ genesis: GENESIS.hash, untouched: false }, info(null))).toEqual({ action: 'seed' });
    expect(joinPlan({ genesis: GENESIS.hash, untouched: true }, info(OTHER_GENESIS.hash))).toEqual({ action: 'adopt' });
  });

  it('refuses a server of another ledger when this device holds records, saying why and what to do', () => {
    const plan = joinPlan({ genesis: GENESIS.hash, untouched: false }, info(OTHER_GENESIS.hash));
    expect(plan).toEqual({
      action: 'refuse',
      reason:
        'This device holds other records (ledger aaaaaaaa) than the server (ledger bbbbbbbb). Nothing was changed. To connect without losing anything, back up this whole browser (Medical Records) and keep the file, then reset the demo data.',
    });
  });

  it('refuses a server that speaks another protocol version', () => {
    const plan = joinPlan({ genesis: GENESIS.hash, untouched: true }, { ...info(null), protocol: SYNC_PROTOCOL_VERSION + 1 });
    expect(plan.action).toBe('refuse');
  });

  it('turns a ws:// or wss:// address into the HTTP origin of the same port, and nothing else', () => {
    expect(httpOrigin('ws://127.0.0.1:3030')).toBe('http://127.0.0.1:3030');
    expect(httpOrigin('wss://sync.example.test/')).toBe('https://sync.example.test');
    expect(httpOrigin('http://127.0.0.1:3030')).toBeNull();
    expect(httpOrigin('not an address')).toBeNull();
  });

  it('seeds an empty server: it proves its user, sends the genesis and the keys without the ledger private key, then every block and its tip', async () => {
    const server = fakeServer();
    const store = fakeStore([GENESIS, fakeBlock('c'.repeat(64), 1)]);
    const client = await connect(server, store);
    const device = deviceDoc(server, client);
    expect(server.joins).toEqual([
      {
        protocol: SYNC_PROTOCOL_VERSION,
        name: 'Sarah’s laptop',
        proof: {
          challenge: 'challenge-1',
          genesis: GENESIS.hash,
          deviceId: 'device-1',
          userId: 'patient-1',
          signature: 'signed',
        },
        seed: {
          genesis: GENESIS,
          keys: { algorithm: 'Ed25519', users: { 'patient-1': { publicKey: 'p1' } }, ledger: { publicKey: 'L' } },
        },
      },
    ]);
    expect(server.openRepo).toHaveBeenCalledWith(`${SERVER}/?session=session-1`); // the socket opens with the proof's session
    expect(server.authorizations).toContain('Bearer session-1'); // and the device document is named with it
    await expect.poll(() => Object.keys(deviceDoc(server, client).blocks).sort()).toEqual([GENESIS.hash, 'c'.repeat(64)]);
    expect(decodeBlock(device.blocks[GENESIS.hash])).toEqual(GENESIS);
    expect(device.keys).toBeUndefined();
    await expect.poll(() => deviceDoc(server, client).tip).toBe('c'.repeat(64));
    expect(deviceDoc(server, client).height).toBe(2);
  });

  it('sends no keys when it joins a server that already holds its ledger', async () => {
    const server = fakeServer({ genesis: GENESIS });
    await connect(server, fakeStore([GENESIS]));
    expect(server.joins[0].seed).toBeUndefined();
  });

  it('waits for a sign-in, opening no connection, while nobody signed in can prove who this device is', async () => {
    const server = fakeServer({ genesis: GENESIS });
    await expect(connect(server, fakeStore([GENESIS]), undefined, { prove: async () => null })).rejects.toThrow(
      /Sign in to connect/,
    );
    expect(server.joins).toEqual([]);
    expect(server.openRepo).not.toHaveBeenCalled();
  });

  it("says so when this device's clock is far ahead of the server's", async () => {
    const server = fakeServer({ genesis: GENESIS });
    const client = await connect(server, fakeStore([GENESIS]), undefined, { now: Date.parse(FAKE_SERVER_TIME) + 60 * 60_000 });
    expect(client.status().notice).toBe(
      "This device's clock is 60 minutes ahead of the sync server's: what it writes now is refused by the server and every other device. Check this device's date and time.",
    );
    const right = await connect(fakeServer({ genesis: GENESIS }), fakeStore([GENESIS]), undefined, {
      now: Date.parse(FAKE_SERVER_TIME) + 60_000,
    });
    expect(right.status().notice).toBeUndefined();
  });

  it('refuses, opening no connection, when the server holds another ledger and this device holds records', async () => {
    const server = fakeServer({ genesis: OTHER_GENESIS });
    const store = fakeStore([GENESIS, fakeBlock('c'.repeat(64), 1)]);
    const refusal = connect(server, store);
    await expect(refusal).rejects.toThrow(SyncRefused);
    await expect(refusal).rejects.toThrow(/Nothing was changed\. To connect without losing anything, back up this whole browser/);
    expect(server.openRepo).not.toHaveBeenCalled();
    expect(store.held).toHaveLength(2);
  });

  it('tells the device when the server refused a block it wrote as dated in the future, or refuses its data at a limit', async () => {
    const server = fakeServer({ genesis: GENESIS });
    const client = await connect(server, fakeStore([GENESIS]));
    expect(client.status().notice).toBeUndefined();
    const reason = "dated in the future: 2999-01-01T00:00:00.000Z is more than 5 minutes after this verifier's clock";
    server
      .ledgerHandle()
      ?.change((d) => void (d.refused['c'.repeat(64)] = { reason, deviceId: 'device-1', at: FAKE_SERVER_TIME }));
    expect(client.status().notice).toBe(
      `The sync server refused a block written here, ${reason}. Check this device's date and time.`,
    );
    server.ledgerHandle()?.change((d) => void (d.devices['device-1'].limit = 'the storage folder is at its cap'));
    expect(client.status().notice).toBe('The sync server refuses new data from this device: the storage folder is at its cap.');
  });

  it('takes another ledger only once the user agreed with a password that opens their key on it, and nothing before', async () => {
    const theirs = [OTHER_GENESIS, fakeBlock('d'.repeat(64), 1)];
    const keys = { algorithm: 'Ed25519' as const, users: { 'patient-1': { publicKey: 'server' } }, ledger: { publicKey: 'S' } };
    const server = fakeServer({ blocks: theirs, keys });
    const store = fakeStore([GENESIS], { untouched: true });
    await expect(connect(server, store)).rejects.toThrow(new SyncOffersLedger(OFFERS_LEDGER));
    const wrong = { opens: vi.fn(async () => 'That password does not open your key.'), signIn: vi.fn(async () => undefined) };
    await expect(connect(server, store, undefined, { takeLedger: wrong })).rejects.toThrow(
      'That password does not open your key.',
    );
    expect(store.adopt).not.toHaveBeenCalled();
    expect(server.joins).toEqual([]);
    expect(wrong.signIn).not.toHaveBeenCalled();

    const agreed = { opens: vi.fn(async () => null), signIn: vi.fn(async () => undefined) };
    const client = await connect(server, store, undefined, { takeLedger: agreed });
    expect(agreed.opens).toHaveBeenCalledWith(keys);
    expect(store.adopt).toHaveBeenCalledWith(OTHER_GENESIS.hash, [OTHER_GENESIS], keys);
    expect(agreed.signIn).toHaveBeenCalledTimes(1); // the user stays signed in, under the keys just taken
    expect(server.joins[0].proof.genesis).toBe(OTHER_GENESIS.hash);
    expect(deviceDoc(server, client).genesis).toBe(OTHER_GENESIS.hash);
    await expect.poll(() => store.held.map((block) => block.hash)).toEqual(theirs.map((block) => block.hash));
  });

  it('is refused, not retried, when the server refuses the request (an origin it does not allow)', async () => {
    const server = fakeServer();
    server.fetch.mockResolvedValueOnce({ ok: false, status: 403, json: async () => ({ error: 'origin not allowed' }) });
    await expect(connect(server, fakeStore([GENESIS]))).rejects.toThrow(
      new SyncRefused('The sync server answered 403 to GET /api/ledger.'),
    );
  });

  it('comes back with the same device document after a reload', async () => {
    const server = fakeServer({ genesis: GENESIS });
    const first = await connect(server, fakeStore([GENESIS]));
    await first.close();
    const again = await connect(server, fakeStore([GENESIS]), first.deviceUrl);
    expect(again.deviceUrl).toBe(first.deviceUrl);
  });
});

describe('mirroring blocks and files', () => {
  it("hands the ledger's blocks this device lacks to the store, and never offers a refused one again", async () => {
    const server = fakeServer({ genesis: GENESIS });
    const store = fakeStore([GENESIS]);
    const client = await connect(server, store);
    const good = fakeBlock('e'.repeat(64), 1);
    const forged = fakeBlock(`bad${'0'.repeat(61)}`, 2);
    server.ledgerHandle()?.change((d) => {
      d.blocks[good.hash] = encodeBlock(good);
      d.blocks[forged.hash] = encodeBlock(forged);
    });
    await expect.poll(() => store.held.map((block) => block.hash)).toEqual([GENESIS.hash, good.hash]);
    expect(store.mergeRemote).toHaveBeenCalledWith(expect.arrayContaining([good, forged]));
    const calls = store.mergeRemote.mock.calls.length;
    server.ledgerHandle()?.change((d) => void (d.devices.other = { name: 'Clinic PC', tip: good.hash, height: 2, seenAt: '' }));
    await expect
      .poll(() => client.status().devices.map((device) => [device.name, device.thisDevice]))
      .toEqual([
        ['Sarah’s laptop', true],
        ['Clinic PC', false],
      ]);
    expect(store.mergeRemote).toHaveBeenCalledTimes(calls); // nothing new to offer: the forged block is not offered again
    expect(client.status()).toMatchObject({ state: 'in-step', pendingBlocks: 0 });
  });

  it('pushes a block written here at once, and does not send back what came from the server after the join', async () => {
    const fromServer = fakeBlock('f'.repeat(64), 1);
    const server = fakeServer({ blocks: [GENESIS, fromServer] });
    const store = fakeStore([GENESIS]);
    const client = await connect(server, store);
    await expect.poll(() => store.held.length).toBe(2);
    const mine = fakeBlock('1'.repeat(64), 2);
    store.held.push(mine);
    client.localChanged();
    await expect.poll(() => Object.keys(deviceDoc(server, client).blocks)).toEqual([GENESIS.hash, mine.hash]); // the genesis names the ledger at the join
    expect(client.status()).toMatchObject({ state: 'syncing', pendingBlocks: 1 }); // the server has not verified it yet
    server.ledgerHandle()?.change((d) => void (d.blocks[mine.hash] = encodeBlock(mine)));
    await expect.poll(() => client.status().state).toBe('in-step');
  });

  it("sends each stored file's encrypted bytes as a file document, listed in the device document", async () => {
    const bytes = new TextEncoder().encode('encrypted scan');
    const cid = await contentId(bytes);
    const server = fakeServer({ genesis: GENESIS });
    const client = await connect(server, fakeStore([GENESIS], { files: { 'doc-1': { cid, bytes } } }));
    await expect.poll(() => deviceDoc(server, client).files['doc-1']?.cid).toBe(cid);
    const entry = deviceDoc(server, client).files['doc-1'];
    expect(entry.size).toBe(bytes.byteLength);
    expect(server.repos.doc<FileDoc>(entry.url)).toEqual({ kind: 'medledger-file', cid, bytes });
  });

  it('is not in step while a file sent from here is not on the server: closing now would leave it only on this device', async () => {
    const bytes = new TextEncoder().encode('encrypted scan');
    const cid = await contentId(bytes);
    const server = fakeServer({ genesis: GENESIS });
    const client = await connect(server, fakeStore([GENESIS], { files: { 'doc-1': { cid, bytes } } }));
    await expect.poll(() => deviceDoc(server, client).files['doc-1']?.cid).toBe(cid);
    expect(client.status()).toMatchObject({ state: 'syncing', pendingBlocks: 0, pendingFiles: 1 });
    const entry = deviceDoc(server, client).files['doc-1'];
    server.ledgerHandle()?.change((d) => void (d.files['doc-1'] = entry));
    await expect.poll(() => client.status()).toMatchObject({ state: 'in-step', pendingFiles: 0 });
  });

  it('stores a file of the ledger whose bytes match its content id, and not one whose bytes do not', async () => {
    const bytes = new TextEncoder().encode('encrypted report');
    const cid = await contentId(bytes);
    const server = fakeServer({ genesis: GENESIS });
    const store = fakeStore([GENESIS]);
    store.named.set('doc-good', cid);
    store.named.set('doc-forged', cid);
    await connect(server, store);
    const good = server.repos.repo.create<FileDoc>({ kind: 'medledger-file', cid, bytes });
    const forged = server.repos.repo.create<FileDoc>({
      kind: 'medledger-file',
      cid,
      bytes: new TextEncoder().encode('other bytes'),
    });
    server.ledgerHandle()?.change((d) => {
      d.files['doc-good'] = { cid, url: good.url, size: bytes.byteLength };
      d.files['doc-forged'] = { cid, url: forged.url, size: 11 };
    });
    await expect.poll(() => store.addRemoteContent.mock.calls.length).toBe(1);
    expect(store.addRemoteContent).toHaveBeenCalledWith('doc-good', bytes);
    expect(store.contents.has('doc-forged')).toBe(false);
  });

  it('says offline, and since when, while the server is away', async () => {
    const server = fakeServer({ genesis: GENESIS });
    const client = await connect(server, fakeStore([GENESIS]));
    server.repos.setOnline(false);
    expect(client.status()).toMatchObject({ state: 'offline', since: '2026-11-26T10:42:00.000Z' });
    server.repos.setOnline(true);
    await expect.poll(() => client.status().state).toBe('in-step');
  });
});

describe('what travels, decided without a server', () => {
  it('pushes only blocks neither the device document nor the ledger holds', () => {
    const [a, b, c] = [fakeBlock('a'.repeat(64), 0), fakeBlock('b'.repeat(64), 1), fakeBlock('c'.repeat(64), 2)];
    expect(blocksToPush([a, b, c], { [a.hash]: encodeBlock(a) }, { [b.hash]: encodeBlock(b) })).toEqual([c]);
  });

  it('takes only decodable blocks this device neither holds nor refused', () => {
    const [a, b, c] = [fakeBlock('a'.repeat(64), 0), fakeBlock('b'.repeat(64), 1), fakeBlock('c'.repeat(64), 2)];
    const blocks = { [a.hash]: encodeBlock(a), [b.hash]: encodeBlock(b), [c.hash]: encodeBlock(c), junk: new Uint8Array([0xff]) };
    expect(blocksToTake({ blocks }, new Set([a.hash]), new Set([c.hash]))).toEqual([b]);
  });

  it('counts blocks still to travel either way, leaving out what the server or this device refused', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((x, i) => fakeBlock(x.repeat(64), i));
    const ledger = { blocks: { [a.hash]: encodeBlock(a), [d.hash]: encodeBlock(d) }, refused: {} };
    expect(pendingBlocks([a, b, c], ledger, new Set())).toBe(3); // b and c to send, d to take
    expect(
      pendingBlocks([a, b, c], { ...ledger, refused: { [c.hash]: { reason: 'x', deviceId: '', at: '' } } }, new Set([d.hash])),
    ).toBe(1);
  });
});
