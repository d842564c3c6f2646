// The sync server as a real process: devices join over HTTP and sync over WebSocket; the server keeps only what verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { mineChild } from '../../workers/core/chain';
import { splitFile } from '../../workers/core/file-chunks';
import { FILE_CHUNK_BYTES, MAX_SYNC_FILE_BYTES, type FileChunkDoc, type FileDoc } from '../../workers/core/sync-protocol';
import type { Block, ClinicalRecord } from '../../workers/core/types';
import { authorKey } from '../support/forged-blocks';
import { MICHAEL, SARAH, fileInput, uploadOf } from '../support/ledger-fixtures';
import { sealedLike, uploadInClear } from '../support/sealed-blocks';
import { signBlock } from '../../workers/core/signatures';
import { connectDevice, signedLedger, type TestDevice } from './support/devices';
import { newStorageDir, startServer, type ServerProcess } from './support/server-process';

let server: ServerProcess;
let ledger: Awaited<ReturnType<typeof signedLedger>>;
let seeded: Block[];
const devices: TestDevice[] = [];

// The upload's record as its author could write it again: its files under new document ids, sealed under the same
// summary key (her uploads are sealed once she has one: text in clear would break a rule before any signature check).
async function rewrite(title: string, timestamp = seeded[1].timestamp): Promise<ClinicalRecord> {
  const upload = seeded[1].data as ClinicalRecord;
  const record = await uploadInClear(ledger.storage, upload);
  const files = record.files.map((file) => ({ ...file, documentId: crypto.randomUUID() }));
  const written = { ...record, id: crypto.randomUUID(), title, timestamp, files };
  return sealedLike(ledger.storage, written, upload.sealed?.key ?? '');
}

async function device(name: string, blocks: readonly Block[], seed = false): Promise<TestDevice> {
  const connected = await connectDevice(server.port, name, blocks, { as: ledger.sarah, ...(seed ? { keys: ledger.keys } : {}) });
  devices.push(connected);
  return connected;
}

beforeAll(async () => {
  server = await startServer(newStorageDir());
  ledger = await signedLedger(1);
  seeded = await ledger.blocks();
});

afterAll(async () => {
  await Promise.allSettled(devices.map((each) => each.close()));
  await server?.kill();
});

describe('sync server', () => {
  it('lets the first device seed the ledger and a second device of the same ledger join and read its blocks', async () => {
    expect(await server.info()).toMatchObject({ genesis: null, height: 0 });
    const laptop = await device('laptop', seeded, true);
    const seededAnswer = await laptop.join();
    expect(seededAnswer).toMatchObject({ ok: true, genesis: seeded[0].hash });
    await expect.poll(async () => (await server.info()).height).toBe(seeded.length);

    const phone = await device('phone', seeded.slice(0, 1));
    const joined = await phone.join();
    expect(joined).toMatchObject({
      ok: true,
      genesis: seeded[0].hash,
      ledgerUrl: (seededAnswer as { ledgerUrl: string }).ledgerUrl,
    });
    const shared = await phone.ledger();
    await expect.poll(() => Object.keys(shared.doc().blocks).sort()).toEqual(seeded.map((block) => block.hash).sort());
    await expect.poll(() => shared.doc().devices[laptop.deviceId]).toMatchObject({ name: 'laptop', height: seeded.length });
    expect(JSON.parse(new TextDecoder().decode(shared.doc().keys))).toEqual(ledger.keys);
    expect(server.lines.some((line) => /join accepted for device device-phone/.test(line))).toBe(true);
  });

  it('refuses a device holding another ledger, with the reason', async () => {
    const other = await signedLedger(0);
    const stranger = await device('stranger', await other.blocks(), true);
    const answer = await stranger.join();
    expect(answer).toEqual({ ok: false, reason: expect.stringMatching(/another ledger/) });
    expect((await server.info()).genesis).toBe(seeded[0].hash);
  });

  it('refuses a block re-mined after its record was edited and a block signed with another user key, naming both', async () => {
    const writer = await device('writer', seeded);
    expect(await writer.join()).toMatchObject({ ok: true });
    const upload = seeded[1];
    const tip = seeded[seeded.length - 1];
    const edited = await rewrite('Edited title');
    // valid proof of work over the edited record, but the signature is still the one of the original hash
    const remined = {
      ...mineChild([tip.hash], seeded.length, edited, upload.timestamp),
      author: upload.author,
      signature: upload.signature,
    };
    const michaelSigned = await signBlock(
      {
        ...mineChild([tip.hash], seeded.length, await rewrite('Signed by another patient'), upload.timestamp),
        author: upload.author,
      },
      await authorKey(ledger.storage, MICHAEL.id),
    );
    writer.handle.change((doc) => {
      for (const block of [remined, michaelSigned]) doc.blocks[block.hash] = new TextEncoder().encode(JSON.stringify(block));
    });
    await expect.poll(async () => Object.keys(await writer.refusals()).sort()).toEqual([remined.hash, michaelSigned.hash].sort());
    expect(Object.values(await writer.refusals())).toEqual([
      expect.stringMatching(/signature/),
      expect.stringMatching(/signature/),
    ]);
    const shared = await writer.ledger();
    await expect
      .poll(() => Object.keys(shared.doc().refused))
      .toEqual(expect.arrayContaining([remined.hash, michaelSigned.hash]));
    expect(shared.doc().refused[remined.hash]).toMatchObject({ deviceId: writer.deviceId });
    expect(Object.keys(shared.doc().blocks)).not.toContain(remined.hash);
    expect(Object.keys(shared.doc().blocks)).not.toContain(michaelSigned.hash);
    expect((await server.info()).height).toBe(seeded.length);
  });

  it('refuses a malformed and an oversized block entry', async () => {
    const sender = await device('sender', seeded);
    expect(await sender.join()).toMatchObject({ ok: true });
    const malformed = 'a'.repeat(64);
    const oversized = 'b'.repeat(64);
    sender.handle.change((doc) => {
      doc.blocks[malformed] = new TextEncoder().encode('{"hash": not json');
      doc.blocks[oversized] = new Uint8Array(300 * 1024).fill(0x20);
    });
    await expect.poll(async () => (await sender.refusals())[malformed]).toMatch(/malformed/);
    await expect.poll(async () => (await sender.refusals())[oversized]).toMatch(/oversized/);
    expect((await server.info()).height).toBe(seeded.length);
  });

  it('keeps a file whose bytes have the content id a held block names, and refuses one larger than the limit', async () => {
    const owner = await device('owner', seeded);
    expect(await owner.join()).toMatchObject({ ok: true });
    const named = (seeded[1].data as ClinicalRecord).files[0];
    const bytes = new Uint8Array((await ledger.storage.readContent(named.documentId)) as ArrayBuffer);
    const file = owner.repo.create<FileDoc>({ kind: 'medledger-file', cid: named.cid, bytes });
    const huge = owner.repo.create<FileDoc>({ kind: 'medledger-file', cid: named.cid, bytes: new Uint8Array(16) });
    const swapped = owner.repo.create<FileDoc>({ kind: 'medledger-file', cid: named.cid, bytes: bytes.map((byte) => byte ^ 1) });
    owner.handle.change((doc) => {
      doc.files[named.documentId] = { cid: named.cid, url: file.url, size: bytes.byteLength };
      doc.files['huge-file'] = { cid: named.cid, url: huge.url, size: MAX_SYNC_FILE_BYTES + 1 };
      doc.files['swapped-file'] = { cid: named.cid, url: swapped.url, size: bytes.byteLength };
    });
    const shared = await owner.ledger();
    await expect
      .poll(() => shared.doc().files[named.documentId])
      .toEqual({ cid: named.cid, url: file.url, size: bytes.byteLength });
    await expect.poll(async () => (await owner.refusals())['huge-file']).toMatch(/oversized/);
    await expect.poll(async () => (await owner.refusals())['swapped-file']).toMatch(/content id/);
    expect(Object.keys(shared.doc().files)).toEqual([named.documentId]);
  });

  it('answers pages served from this machine and refuses the API and the socket to another site', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const local = await fetch(`${base}/api/ledger`, { headers: { Origin: 'http://127.0.0.1:4173' } });
    expect(local.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    const foreign = await fetch(`${base}/api/join`, { method: 'POST', headers: { Origin: 'https://example.com' }, body: '{}' });
    expect(foreign.status).toBe(403);
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}`, { origin: 'https://example.com' });
    const status = await new Promise<number>((done) =>
      socket.once('unexpected-response', (_request, response) => done(response.statusCode ?? 0)),
    );
    expect(status).toBe(401);
  });

  it('keeps a block whose head another device brings later, and blocks two devices wrote apart', async () => {
    const key = await authorKey(ledger.storage, SARAH.id);
    const tip = seeded[seeded.length - 1];
    const at = new Date().toISOString();
    const signed = async (heads: string[], place: number, title: string) =>
      signBlock(mineChild(heads, place, await rewrite(title, at), at), key);
    const first = await signed([tip.hash], seeded.length, 'Follow-up');
    const second = await signed([first.hash], seeded.length + 1, 'Second follow-up');
    const apart = await signed([tip.hash], seeded.length, 'Written on another device');

    const tablet = await device('tablet', [...seeded, second]); // holds a block without the one it follows
    expect(await tablet.join()).toMatchObject({ ok: true });
    const desk = await device('desk', [...seeded, first, apart]);
    expect(await desk.join()).toMatchObject({ ok: true });

    await expect.poll(async () => (await server.info()).height).toBe(seeded.length + 3);
    const shared = await desk.ledger();
    await expect
      .poll(() => Object.keys(shared.doc().blocks))
      .toEqual(expect.arrayContaining([first.hash, second.hash, apart.hash]));
    expect((await tablet.refusals())[second.hash]).toBeUndefined();
  });
  // last: its upload adds a block the tests above do not count
  it('keeps a file sent in chunks once every chunk is here and the whole has its content id, and refuses a bad chunk list', async () => {
    await ledger.service.upload(uploadOf('Ultrasound', [fileInput('ultrasound.pdf', FILE_CHUNK_BYTES + 1000)]));
    const blocks = await ledger.blocks();
    const named = (blocks[blocks.length - 1].data as ClinicalRecord).files[0];
    const bytes = new Uint8Array((await ledger.storage.readContent(named.documentId)) as ArrayBuffer);
    const scanner = await device('scanner', blocks);
    expect(await scanner.join()).toMatchObject({ ok: true });
    const chunk = (index: number, part: Uint8Array) =>
      scanner.repo.create<FileChunkDoc>({ kind: 'medledger-file-chunk', cid: named.cid, index, bytes: part }).url;
    const chunks = splitFile(bytes).map((part, index) => chunk(index, part));
    const shortLast = [chunks[0], chunk(1, new Uint8Array(5))];
    const entry = { cid: named.cid, url: chunks[0], size: bytes.byteLength };
    scanner.handle.change((doc) => {
      doc.files[named.documentId] = { ...entry, chunks };
      doc.files['short-chunk'] = { ...entry, chunks: shortLast };
      doc.files['extra-chunk'] = { ...entry, chunks: [...chunks, chunks[1]] };
    });
    const shared = await scanner.ledger();
    await expect.poll(() => shared.doc().files[named.documentId], { timeout: 20_000 }).toEqual({ ...entry, chunks });
    await expect.poll(async () => (await scanner.refusals())['short-chunk']).toBe('file chunk size does not match its entry');
    await expect.poll(async () => (await scanner.refusals())['extra-chunk']).toBe('chunk count does not match the file size');
    expect(Object.keys(shared.doc().files)).not.toContain('short-chunk');
  });
});
