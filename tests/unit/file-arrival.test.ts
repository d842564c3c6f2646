// A file larger than one chunk travels in chunk documents (workers/core/file-chunks.ts) that the receiving device
// counts as they land; the worker shows how far on each document of a record (workers/ledger/arrivals.ts) and tells
// the screens a few times a second at most. The screens' side: tests/ui/file-arrival.test.tsx.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerChange } from '../../workers/api';
import { contentId, storedSize } from '../../workers/core/documents';
import { chunkBytes, chunkCount, chunkLength, chunkListProblem, joinChunks, splitFile } from '../../workers/core/file-chunks';
import { FILE_CHUNK_BYTES, type DeviceDoc, type FileChunkDoc, type FileDoc } from '../../workers/core/sync-protocol';
import type { DocumentInfo } from '../../workers/core/types';
import { PROGRESS_NOTICE_MS, createArrivals } from '../../workers/ledger/arrivals';
import { startSync } from '../../workers/sync/sync-client';
import type { RepoLike, SyncClient, SyncTransport } from '../../workers/sync/sync-ports';
import { fakeBlock, fakeProve, fakeServer, fakeStore } from '../support/fake-sync';
import { CARTER, SARAH, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { createTestLedgerService } from '../support/test-ledger';

const MiB = FILE_CHUNK_BYTES;
const GENESIS = fakeBlock('a'.repeat(64), 0);
const SERVER = 'ws://127.0.0.1:3030';

function patterned(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) % 251;
  return bytes;
}

// Byte for byte, without a deep equality of millions of elements.
const same = (a: Uint8Array | null | undefined, b: Uint8Array) => !!a && Buffer.from(a).equals(b);

const clients: SyncClient[] = [];
afterEach(async () => {
  while (clients.length > 0) await clients.pop()?.close();
});

// The transport with chunk documents held back: chunk `index` is found only once `allow` let more than `index` through.
function chunkGate(transport: SyncTransport, server: ReturnType<typeof fakeServer>) {
  let allowed = 0;
  const waiting = new Set<() => void>();
  const openRepo = async (url: string): Promise<RepoLike> => {
    const repo = await transport.openRepo(url);
    return {
      ...repo,
      async find<T>(found: string) {
        const doc = server.repos.docs.get(found) as Partial<FileChunkDoc> | undefined;
        while (doc?.kind === 'medledger-file-chunk' && (doc.index ?? 0) >= allowed)
          await new Promise<void>((resolve) => waiting.add(resolve));
        return repo.find<T>(found);
      },
    };
  };
  return {
    transport: { ...transport, openRepo },
    allow(count: number) {
      allowed = count;
      for (const resolve of waiting) resolve();
      waiting.clear();
    },
  };
}

describe('a file in chunks', () => {
  it('splits into full chunks and a shorter last one, and joins back into the same bytes', () => {
    const bytes = patterned(2 * MiB + 5);
    const chunks = splitFile(bytes);
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([MiB, MiB, 5]);
    expect(chunkCount(bytes.byteLength)).toBe(3);
    expect(chunks.map((_, index) => chunkLength(bytes.byteLength, index))).toEqual([MiB, MiB, 5]);
    expect(same(joinChunks(chunks, bytes.byteLength), bytes)).toBe(true);
    expect(joinChunks(chunks.slice(0, 2), bytes.byteLength)).toBeNull(); // a chunk short
  });

  it('travels whole when it fits in one chunk', () => {
    expect(chunkCount(MiB)).toBe(0);
    expect(chunkCount(MiB + 1)).toBe(2);
  });

  it('refuses a chunk of another file or place, of the wrong size, or not a chunk at all', () => {
    const entry = { cid: 'Qm-file', size: MiB + 3 };
    const last = { kind: 'medledger-file-chunk', cid: 'Qm-file', index: 1, bytes: new Uint8Array(3) };
    expect(chunkBytes(last, entry, 1)).toEqual(new Uint8Array(3));
    expect(chunkBytes({ ...last, cid: 'Qm-other' }, entry, 1)).toBe('file chunk of another file or place');
    expect(chunkBytes(last, entry, 0)).toBe('file chunk of another file or place');
    expect(chunkBytes({ ...last, bytes: new Uint8Array(4) }, entry, 1)).toBe('file chunk size does not match its entry');
    expect(chunkBytes({ kind: 'medledger-file', cid: 'Qm-file', bytes: new Uint8Array(3) }, entry, 1)).toBe(
      'malformed file chunk',
    );
  });

  it('refuses a chunk list whose count does not follow from the size, or whose url is not its first chunk', () => {
    const chunks = ['automerge:a', 'automerge:b'];
    expect(chunkListProblem({ size: MiB + 1, url: 'automerge:a', chunks })).toBeNull();
    expect(chunkListProblem({ size: 3 * MiB, url: 'automerge:a', chunks })).toBe('chunk count does not match the file size');
    expect(chunkListProblem({ size: MiB + 1, url: 'automerge:b', chunks })).toBe('file url is not its first chunk');
    expect(chunkListProblem({ size: 100, url: 'automerge:a' })).toBeNull(); // a file sent whole
  });
});

describe('progress of files on their way', () => {
  const scan: DocumentInfo = {
    id: 'doc-1',
    fileName: 'scan.pdf',
    fileType: 'application/pdf',
    fileSize: 6 * MiB,
    uploadDate: '2026-11-26T10:00:00.000Z',
    ipfsHash: 'Qm-scan',
    patientId: 'patient-1',
    doctorId: 'doctor-1',
    isEncrypted: true,
  };

  function arrivalsAt(awaiting: Set<string>) {
    let time = 0;
    const timers: { run: () => void; at: number }[] = [];
    const notify = vi.fn();
    const arrivals = createArrivals(
      () => awaiting,
      notify,
      () => time,
      (run, ms) => void timers.push({ run, at: time + ms }),
    );
    const advance = (ms: number) => {
      time += ms;
      for (const timer of timers.filter((t) => t.at <= time)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.run();
      }
    };
    return { arrivals, notify, advance };
  }

  it('says nothing of a file that is not awaited, and 0 of its stored size before any byte came', () => {
    const { arrivals } = arrivalsAt(new Set(['doc-1']));
    expect(arrivals.of({ ...scan, id: 'doc-2' })).toBeUndefined();
    expect(arrivals.of(scan)).toEqual({ receivedBytes: 0, totalBytes: storedSize(6 * MiB) });
    expect(arrivals.of({ ...scan, deletedAt: '2026-11-26T11:00:00.000Z' })).toBeUndefined();
  });

  it('counts the bytes reported until they are stored, then says nothing more, even while its key is awaited', () => {
    const awaiting = new Set(['doc-1']);
    const { arrivals } = arrivalsAt(awaiting);
    arrivals.progress('doc-1', 2 * MiB, 6 * MiB + 28);
    expect(arrivals.of(scan)).toEqual({ receivedBytes: 2 * MiB, totalBytes: 6 * MiB + 28 });
    arrivals.progress('doc-1', 6 * MiB + 28, 6 * MiB + 28); // stored here: only its key is still awaited
    expect(arrivals.of(scan)).toBeUndefined();
    arrivals.progress('doc-1', 2 * MiB, 6 * MiB + 28);
    awaiting.delete('doc-1'); // bytes and key here
    expect(arrivals.of(scan)).toBeUndefined();
  });

  it('tells the screens at once, then at most once per interval however often progress moves', () => {
    const { arrivals, notify, advance } = arrivalsAt(new Set(['doc-1']));
    arrivals.progress('doc-1', 1, 10);
    expect(notify).toHaveBeenCalledTimes(1);
    for (let received = 2; received <= 6; received++) arrivals.progress('doc-1', received, 10);
    expect(notify).toHaveBeenCalledTimes(1);
    advance(PROGRESS_NOTICE_MS - 1);
    expect(notify).toHaveBeenCalledTimes(1);
    advance(1);
    expect(notify).toHaveBeenCalledTimes(2); // the last value is read when the screens ask
    arrivals.progress('doc-1', 6, 10); // no move: no notice
    advance(PROGRESS_NOTICE_MS);
    expect(notify).toHaveBeenCalledTimes(2);
  });
});

describe('a device sending and taking a file in chunks', () => {
  async function connect(
    server: ReturnType<typeof fakeServer>,
    store: ReturnType<typeof fakeStore>,
    transport = server.transport,
  ) {
    const client = await startSync({
      serverUrl: SERVER,
      deviceName: 'Sarah’s laptop',
      deviceId: 'device-1',
      prove: fakeProve,
      store,
      transport,
      now: () => Date.UTC(2026, 10, 26, 10, 42),
      changed: () => undefined,
    });
    clients.push(client);
    return client;
  }

  it('lists the chunk documents of a file over one chunk in its entry, the first as its url', async () => {
    const bytes = patterned(2 * MiB + 10);
    const cid = await contentId(bytes);
    const server = fakeServer({ genesis: GENESIS });
    const client = await connect(server, fakeStore([GENESIS], { files: { 'doc-1': { cid, bytes } } }));
    await expect.poll(() => server.repos.doc<DeviceDoc>(client.deviceUrl).files['doc-1']?.chunks?.length).toBe(3);
    const entry = server.repos.doc<DeviceDoc>(client.deviceUrl).files['doc-1'];
    expect(entry).toMatchObject({ cid, size: bytes.byteLength, url: entry.chunks?.[0] });
    const chunks = (entry.chunks ?? []).map((url) => server.repos.doc<FileChunkDoc>(url));
    expect(chunks.map(({ kind, cid: of, index }) => ({ kind, of, index }))).toEqual(
      [0, 1, 2].map((index) => ({ kind: 'medledger-file-chunk', of: cid, index })),
    );
    expect(
      same(
        joinChunks(
          chunks.map((chunk) => chunk.bytes),
          bytes.byteLength,
        ),
        bytes,
      ),
    ).toBe(true);
  });

  it('reports each chunk as it lands and stores the joined bytes once their content id holds', async () => {
    const bytes = patterned(2 * MiB + 10);
    const cid = await contentId(bytes);
    const server = fakeServer({ genesis: GENESIS });
    const chunks = splitFile(bytes).map(
      (part, index) => server.repos.repo.create<FileChunkDoc>({ kind: 'medledger-file-chunk', cid, index, bytes: part }).url,
    );
    const gate = chunkGate(server.transport, server);
    const store = fakeStore([GENESIS]);
    store.named.set('doc-1', cid);
    await connect(server, store, gate.transport);
    server.ledgerHandle()?.change((d) => void (d.files['doc-1'] = { cid, url: chunks[0], size: bytes.byteLength, chunks }));
    await expect.poll(() => store.fileProgress.mock.calls.at(-1)).toEqual(['doc-1', 0, bytes.byteLength]);
    gate.allow(1);
    await expect.poll(() => store.fileProgress.mock.calls.at(-1)).toEqual(['doc-1', MiB, bytes.byteLength]);
    expect(store.addRemoteContent).not.toHaveBeenCalled();
    gate.allow(3);
    await expect.poll(() => store.addRemoteContent.mock.calls.length).toBe(1);
    expect(store.fileProgress.mock.calls.map(([, received]) => received)).toEqual([0, MiB, 2 * MiB, bytes.byteLength]);
    const [[documentId, stored]] = store.addRemoteContent.mock.calls;
    expect(documentId).toBe('doc-1');
    expect(same(stored, bytes)).toBe(true);
  });

  it('sends a file again on its next connection when the documents it made are gone before the server took it', async () => {
    const bytes = patterned(100);
    const cid = await contentId(bytes);
    const server = fakeServer({ genesis: GENESIS });
    const store = fakeStore([GENESIS], { files: { 'doc-1': { cid, bytes } } });
    const first = await connect(server, store);
    await expect.poll(() => server.repos.doc<DeviceDoc>(first.deviceUrl).files['doc-1']?.url).toBeDefined();
    const lost = server.repos.doc<DeviceDoc>(first.deviceUrl).files['doc-1'].url;
    await first.close();
    server.repos.docs.delete(lost); // a reload: this device's repo keeps nothing, and the server had not fetched it
    const again = await startSync({
      serverUrl: SERVER,
      deviceName: 'Sarah’s laptop',
      deviceId: 'device-1',
      prove: fakeProve,
      deviceUrl: first.deviceUrl,
      store,
      transport: server.transport,
      now: () => Date.UTC(2026, 10, 26, 10, 43),
      changed: () => undefined,
    });
    clients.push(again);
    await expect.poll(() => server.repos.doc<DeviceDoc>(again.deviceUrl).files['doc-1']?.url).not.toBe(lost);
    const url = server.repos.doc<DeviceDoc>(again.deviceUrl).files['doc-1'].url;
    expect(server.repos.doc<FileDoc>(url)).toEqual({ kind: 'medledger-file', cid, bytes });
  });

  it('stores nothing of a file whose chunks do not join into the bytes its content id names', async () => {
    const bytes = patterned(MiB + 10);
    const cid = await contentId(bytes);
    const server = fakeServer({ genesis: GENESIS });
    const forged = splitFile(bytes.map((byte) => byte ^ 1)).map(
      (part, index) => server.repos.repo.create<FileChunkDoc>({ kind: 'medledger-file-chunk', cid, index, bytes: part }).url,
    );
    const wholeCid = await contentId(patterned(10));
    const whole = server.repos.repo.create<FileDoc>({ kind: 'medledger-file', cid: wholeCid, bytes: patterned(10) }); // sent whole
    const store = fakeStore([GENESIS]);
    store.named.set('doc-forged', cid);
    store.named.set('doc-small', wholeCid);
    await connect(server, store);
    server.ledgerHandle()?.change((d) => {
      d.files['doc-forged'] = { cid, url: forged[0], size: bytes.byteLength, chunks: forged };
      d.files['doc-small'] = { cid: wholeCid, url: whole.url, size: 10 };
    });
    await expect.poll(() => store.addRemoteContent.mock.calls.map(([id]) => id)).toEqual(['doc-small']);
    expect(store.contents.has('doc-forged')).toBe(false);
  });
});

describe("a record's file arriving on another device, through the service", () => {
  it('shows on each document how far its bytes came, tells the screens, and opens once it lands', async () => {
    const server = fakeServer({ relay: true });
    const phone = createTestLedgerService({ syncTransport: server.transport, now: () => Date.UTC(2026, 10, 26, 10, 42) });
    await signInAs(phone, SARAH);
    await phone.connectSync({ serverUrl: SERVER, deviceName: 'Sarah’s phone' });
    const gate = chunkGate(server.transport, server);
    const clinic = createTestLedgerService({ syncTransport: gate.transport });
    await signInAs(clinic, CARTER);
    // the clinic's browser holds a ledger of its own: Dr. Carter takes the server's with his password, signed in throughout
    await clinic.connectSync({ serverUrl: SERVER, deviceName: 'Clinic PC', password: DEMO_PASSWORD });
    const changes: LedgerChange[] = [];
    await clinic.onChange(Object.assign((change: LedgerChange) => void changes.push(change), {}) as never);

    const size = 2 * MiB + 100;
    const { record } = await phone.upload(uploadOf('Ultrasound', [fileInput('ultrasound.pdf', size)]));
    const total = storedSize(size);
    const arriving = async () =>
      (await clinic.listRecords(SARAH.id)).records.find((shown) => shown.id === record.id)?.documents[0]?.arriving ?? null;
    await expect.poll(arriving).toEqual({ receivedBytes: 0, totalBytes: total });
    const heightThen = (await clinic.chainStatus()).height;
    const noticesThen = changes.length;
    gate.allow(1);
    await expect.poll(arriving).toEqual({ receivedBytes: MiB, totalBytes: total });
    // the screens hear of the progress itself: no block came meanwhile
    await expect
      .poll(() => changes.slice(noticesThen).filter((change) => change.kinds.includes('records')).length)
      .toBeGreaterThan(0);
    expect((await clinic.chainStatus()).height).toBe(heightThen);
    await expect(clinic.readDocument(record.documentIds[0])).rejects.toThrow('This file has not reached this device yet.');

    gate.allow(3);
    await expect.poll(arriving).toBeNull();
    // its key came wrapped before it and is taken as it lands: it opens at once
    const content = await clinic.readDocument(record.documentIds[0]);
    expect(content.bytes.byteLength).toBe(size);
    expect(content.document.arriving).toBeUndefined();
  });
});
