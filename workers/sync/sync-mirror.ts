// The mirror of one joined connection: this device's blocks, files and wraps go out through its device document, and
// what the server verified comes in from the ledger document. IndexedDB stays the device's truth: blocks and bytes
// arrive only through the store, which verifies them.
import { contentId } from '../core/documents';
import { chunkBytes, chunkCount, chunkListProblem, joinChunks, splitFile } from '../core/file-chunks';
import { wrapId, type ReleaseRequest, type SummaryReleaseRequest } from '../core/key-wraps';
import {
  decodeBlock,
  encodeBlock,
  encodeWrap,
  type DeviceDoc,
  type FileChunkDoc,
  type FileDoc,
  type FileEntry,
  type LedgerDoc,
  type ReleaseAnswer,
  type RemoveDeviceAnswer,
} from '../core/sync-protocol';
import {
  blocksToPush,
  blocksToTake,
  deviceRows,
  filesToTake,
  namingRefused,
  pendingBlocks,
  pendingFiles,
  takeSlices,
} from './sync-plan';
import type { DocHandleLike, RepoLike, SyncClient, SyncOptions } from './sync-ports';
import { iso, post, readJson } from './sync-http';

function sameBytes(a: unknown, b: Uint8Array): boolean {
  return a instanceof Uint8Array && a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
}

// What the server says is wrong with this device's data: a limit it reached, or a block it wrote dated in the future.
function serverNotice(doc: LedgerDoc | undefined, deviceId: string): string | undefined {
  const limit = doc?.devices[deviceId]?.limit;
  if (typeof limit === 'string') return `The sync server refuses new data from this device: ${limit}.`;
  const future = Object.values(doc?.refused ?? {}).find(
    (refusal) => refusal.deviceId === deviceId && refusal.reason.startsWith('dated in the future'),
  );
  return future
    ? `The sync server refused a block written here, ${future.reason}. Check this device's date and time.`
    : undefined;
}

export function mirror(
  repo: RepoLike,
  device: DocHandleLike<DeviceDoc>,
  ledger: DocHandleLike<LedgerDoc>,
  options: SyncOptions,
  origin: string,
  session: string,
  clock: string | undefined, // this device's clock is off the server's: said on the card
): Omit<SyncClient, 'adopted' | 'genesis'> {
  const { store, keys, now, changed } = options;
  const heldFiles = new Set<string>(); // document ids whose bytes this device holds (read to push, or stored on arrival)
  const sentHere = new Set<string>(); // document ids whose file documents this connection made
  const refusedHere = new Map<string, string>(); // block hash -> why this device's store refused it
  let online = true;
  let offlineSince: number | undefined;
  let closed = false;
  let queue: Promise<void> = Promise.resolve();
  let again = false;
  let takingFiles: Promise<void> | null = null; // the files being taken, beside the passes
  let filesAgain = false;
  let compared = false; // a first pass compared this device with the server: in step is not known before it

  // one pass at a time; changes during a pass ask for one more
  function schedule(): void {
    if (closed) return;
    if (again) return;
    again = true;
    queue = queue.then(async () => {
      again = false;
      if (closed) return;
      try {
        await pull();
        await push();
        compared = true;
      } catch (error) {
        console.warn('MedLedger: a sync pass failed', error);
      }
      changed();
    });
  }

  async function push(): Promise<void> {
    const blocks = store.blocks();
    const sent = device.doc();
    if (!sent || blocks.length === 0 || blocks[0].hash !== sent.genesis) return;
    const missing = blocksToPush(blocks, sent.blocks, ledger.doc()?.blocks);
    const tip = blocks[blocks.length - 1];
    const moved = missing.length > 0 || sent.tip !== tip.hash || sent.height !== blocks.length;
    if (moved)
      device.change((d) => {
        for (const block of missing) d.blocks[block.hash] = encodeBlock(block);
        d.tip = tip.hash;
        d.height = blocks.length;
        d.seenAt = iso(now());
      });
    for (const file of store.liveFiles()) {
      if (Object.hasOwn(ledger.doc()?.files ?? {}, file.id) || sentHere.has(file.id)) continue;
      // listed by an earlier connection but not in the ledger: its documents may have gone with a reload (the repo
      // here keeps nothing) before the server fetched them, so they are made again; one the server refused is not
      if (ledger.doc()?.refused[file.id]?.deviceId === options.deviceId) continue;
      const bytes = await store.readContent(file.id);
      if (!bytes) continue; // not arrived yet on this device either
      heldFiles.add(file.id);
      sentHere.add(file.id);
      const entry = sendFile(file.cid, new Uint8Array(bytes));
      device.change((d) => void (d.files[file.id] = entry));
    }
    await pushWraps();
  }

  // A small file travels whole; a larger one in chunks, so the devices taking it can count them as they land.
  function sendFile(cid: string, bytes: Uint8Array): FileEntry {
    if (chunkCount(bytes.byteLength) === 0) {
      const fileDoc = repo.create<FileDoc>({ kind: 'medledger-file', cid, bytes });
      return { cid, url: fileDoc.url, size: bytes.byteLength };
    }
    const chunks = splitFile(bytes).map(
      (part, index) => repo.create<FileChunkDoc>({ kind: 'medledger-file-chunk', cid, index, bytes: part }).url,
    );
    return { cid, url: chunks[0], size: bytes.byteLength, chunks };
  }

  // Only the entries that changed: an unchanged wrap encodes to the same bytes (key-sharing keeps one per reader);
  // a wrap to a reader who lost access, or to the care network after the patient withdrew consent, is taken out by a
  // device that holds the key.
  async function pushWraps(): Promise<void> {
    if (!keys) return;
    const sent = device.doc()?.wraps ?? {};
    const now = new Map((await keys.wrapsToSend()).map((wrap) => [wrapId(wrap), encodeWrap(wrap)]));
    const fresh = [...now].filter(([id, bytes]) => !sameBytes(sent[id], bytes));
    const vouched = await keys.vouchedSubjects(); // a reset device holds no keys: it takes back nothing it listed
    const gone = Object.keys(sent).filter((id) => !now.has(id) && vouched.has(id.slice(0, id.lastIndexOf('|'))));
    if (fresh.length === 0 && gone.length === 0) return;
    device.change((d) => {
      if (!d.wraps) d.wraps = {};
      for (const [id, bytes] of fresh) d.wraps[id] = bytes;
      for (const id of gone) delete d.wraps[id];
    });
  }

  async function pull(): Promise<void> {
    const doc = ledger.doc();
    const local = store.blocks();
    if (!doc || doc.genesis !== local[0]?.hash) return;
    const held = new Set(local.map((block) => block.hash));
    const incoming = blocksToTake(doc, held, new Set(refusedHere.keys()));
    let waiting: unknown[] = [];
    for (const slice of takeSlices(incoming)) {
      if (closed) return;
      // what waited in a slice before is offered again with the next: the blocks it names may be in it
      const outcome = await store.mergeRemote([...waiting, ...slice]);
      for (const { hash, reason } of outcome.refused) refusedHere.set(hash, reason);
      waiting = outcome.waiting;
      changed(); // the card shows the blocks still to take
    }
    for (const [hash, reason] of namingRefused(waiting, refusedHere)) refusedHere.set(hash, reason);
    startFiles();
    await acceptWraps();
  }

  // A wrap is taken only once its file's bytes are here to check the key against: offered again as each file lands.
  async function acceptWraps(): Promise<void> {
    const wraps = ledger.doc()?.wraps;
    if (keys && wraps) await keys.acceptWraps(Object.values(wraps).map(decodeBlock));
  }

  // Files are taken beside the passes, one at a time: blocks keep flowing while a large file arrives.
  function startFiles(): void {
    if (takingFiles) return void (filesAgain = true);
    takingFiles = (async () => {
      try {
        do {
          filesAgain = false;
          if (await takeFiles()) schedule();
        } while (filesAgain && !closed);
      } catch (error) {
        console.warn('MedLedger: taking files from other devices failed', error); // tried again on the next change
      } finally {
        takingFiles = null;
      }
    })();
  }

  // True when a file was stored.
  async function takeFiles(): Promise<boolean> {
    const doc = ledger.doc();
    if (!doc) return false;
    const known = new Map(store.liveFiles().map((file) => [file.id, file.cid]));
    let stored = false;
    for (const [documentId, entry] of filesToTake(doc.files, heldFiles)) {
      if (closed) break;
      if (known.get(documentId) !== entry.cid) continue; // its block has not arrived, or it names other bytes
      try {
        if (await store.readContent(documentId)) {
          heldFiles.add(documentId);
          store.fileProgress(documentId, entry.size, entry.size); // here: its key may still be on its way
          continue;
        }
        const bytes = await fileBytes(documentId, entry);
        if (!bytes || (await contentId(bytes)) !== entry.cid) continue; // bytes that are not what the chain names
        if (await store.addRemoteContent(documentId, bytes)) {
          heldFiles.add(documentId);
          await acceptWraps(); // its key, when a wrap to the signed-in user came: the file opens as soon as it shows landed
          store.fileProgress(documentId, entry.size, entry.size);
          stored = true;
        }
      } catch (error) {
        console.warn('MedLedger: a file from another device did not arrive yet', error); // tried again on the next change
      }
    }
    return stored;
  }

  // A file's bytes from its FileDoc, or from its chunks counted as they land; null when they are not the file's.
  async function fileBytes(documentId: string, entry: FileEntry): Promise<Uint8Array | null> {
    if (!entry.chunks) {
      const file = (await repo.find<FileDoc>(entry.url)).doc();
      const whole = file?.kind === 'medledger-file' && file.cid === entry.cid && file.bytes instanceof Uint8Array;
      return whole ? file.bytes : null;
    }
    if (chunkListProblem(entry)) return null;
    const parts: Uint8Array[] = [];
    let received = 0;
    store.fileProgress(documentId, 0, entry.size);
    for (const [index, url] of entry.chunks.entries()) {
      if (closed) return null;
      const part = chunkBytes((await repo.find<FileChunkDoc>(url)).doc(), entry, index);
      if (typeof part === 'string') return null;
      parts.push(part);
      received += part.byteLength;
      if (received < entry.size) store.fileProgress(documentId, received, entry.size); // all of it: once stored
    }
    return joinChunks(parts, entry.size);
  }

  // POST /api/release of a document's key or of a summary key; the answered wrap goes to key sharing, which keeps it
  // only when it opens what it names. null when stored, else why not.
  async function released(request: ReleaseRequest | SummaryReleaseRequest, unopened: string): Promise<string | null> {
    const url = `${origin}/api/release`;
    const answer = (await readJson(
      await options.transport.fetch(url, post(request, session)),
      'POST /api/release',
    )) as ReleaseAnswer;
    if (!answer?.ok) return answer?.reason || 'The sync server did not release the key.';
    const stored = keys ? await keys.acceptWraps([answer.wrap]) : 0;
    return stored > 0 ? null : unopened;
  }

  // The socket closed: a server that answers but no longer knows this session removed this device (or restarted
  // without its state), so it joins again; a server that does not answer is away, and the socket tries again.
  async function checkSession(): Promise<void> {
    try {
      const answer = await options.transport.fetch(`${origin}/api/device`, post({ deviceUrl: device.url }, session));
      if (answer.status === 401 && !closed) options.sessionEnded?.();
    } catch {
      // away: nothing to decide
    }
  }

  ledger.on('change', schedule);
  repo.onConnection((open) => {
    online = open;
    offlineSince = open ? undefined : (offlineSince ?? now());
    if (open) schedule();
    else void checkSession();
    changed();
  });
  schedule();

  return {
    deviceUrl: device.url,
    status() {
      const doc = ledger.doc();
      const pending = pendingBlocks(store.blocks(), doc, new Set(refusedHere.keys()));
      const files = pendingFiles(sentHere, doc, options.deviceId);
      const notice = clock ?? serverNotice(doc, options.deviceId);
      const base = {
        ...(notice ? { notice } : {}),
        pendingBlocks: pending,
        pendingFiles: files,
        devices: deviceRows(doc, options.deviceId),
        ...(doc ? { serverHeight: Object.keys(doc.blocks).length } : {}),
      };
      if (!online) return { ...base, state: 'offline', since: iso(offlineSince ?? now()) };
      if (pending > 0 || files > 0 || !compared) return { ...base, state: 'syncing' };
      const tip = store.blocks().at(-1)?.hash;
      return { ...base, state: 'in-step', ...(doc && tip ? { serverTip: tip } : {}) };
    },
    localChanged: schedule,
    release: (request) => released(request, 'The key the sync server released does not open this file.'),
    releaseSummary: (request) => released(request, 'The key the sync server released does not open these records.'),
    async removeDevice(deviceId) {
      const answer = (await readJson(
        await options.transport.fetch(`${origin}/api/remove-device`, post({ deviceId }, session)),
        'POST /api/remove-device',
      )) as RemoveDeviceAnswer;
      return answer?.ok ? null : answer?.reason || 'the sync server did not say why';
    },
    async close() {
      closed = true;
      keys?.setCareNetworkKey(null);
      ledger.off('change', schedule);
      await queue;
      await takingFiles;
      await repo.shutdown();
    },
  };
}
