// The server's ledger: what it verified, kept in files of its own (verified-store.ts) and published in one LedgerDoc
// it alone writes; fed from the device documents of the devices that proved their user's enrolled key.
// Every block is verified by workers/core/merge.ts before it is kept; the server re-implements no check.
import { parseAutomergeUrl, type AutomergeUrl, type DocHandle, type Repo } from '@automerge/automerge-repo';
import { contentId } from '../workers/core/documents';
import { parentsOf } from '../workers/core/dag';
import { chunkBytes, chunkListProblem, joinChunks } from '../workers/core/file-chunks';
import {
  CARE_NETWORK,
  importCareNetworkKey,
  releaseForGrant,
  releaseSummaryForGrant,
  summaryKeySubject,
  summaryWrapOf,
  wrapId,
  type CareNetworkKey,
  type KeyWrap,
  type ReleaseRequest,
  type SummaryReleaseRequest,
} from '../workers/core/key-wraps';
import { MAX_BLOCK_BYTES, mergeBlocks, type RefusedBlockReport } from '../workers/core/merge';
import type { LedgerState } from '../workers/core/projection';
import { proofProblem } from '../workers/core/sync-proof';
import {
  MAX_SYNC_FILE_BYTES,
  SYNC_PROTOCOL_VERSION,
  decodeBlock,
  encodeBlock,
  type AdoptAnswer,
  type DeviceAnswer,
  type DeviceDoc,
  type DeviceSummary,
  type FileEntry,
  type JoinAnswer,
  type JoinRequest,
  type LedgerDoc,
  type LedgerInfo,
  type ReleaseAnswer,
  type RemoveDeviceAnswer,
  type SyncedKeys,
} from '../workers/core/sync-protocol';
import type { Block, ClinicalRecord } from '../workers/core/types';
import { LIMITS } from './limits';
import type { Access, PeerGate } from './peer-gate';
import { writeState, type ServerState } from './state-file';
import type { StoredWrap, VerifiedStore } from './verified-store';
import { MAX_NAME_CHARS, isFileEntry, syncedKeysOf, wrapEntryOf } from './wire-checks';

const FIND_TIMEOUT_MS = 10_000; // a device document, file document or read block the server waits for
const RELEASE_POLL_MS = 50;

export interface LedgerKeeper {
  info(): LedgerInfo;
  adopt(): AdoptAnswer | null;
  join(request: JoinRequest): Promise<JoinAnswer>;
  registerDevice(deviceId: string, deviceUrl: string): Promise<DeviceAnswer>;
  removeDevice(deviceId: string, removedId: string): Promise<RemoveDeviceAnswer>;
  release(request: ReleaseRequest, deviceId: string): Promise<ReleaseAnswer>;
  releaseSummary(request: SummaryReleaseRequest, deviceId: string): Promise<ReleaseAnswer>;
  access(deviceId: string, documentId: string): Access;
  refuseData(deviceId: string, bytes: number): string | null;
  tookData(deviceId: string, bytes: number): void;
}

interface WaitingBlock {
  value: Record<string, unknown>;
  since: number; // ms
}

interface WatchedDevice {
  id: string;
  handle: DocHandle<DeviceDoc>;
  decided: Set<string>; // entries (block hashes, file document ids) refused or copied: not offered again
  waiting: Map<string, WaitingBlock>; // blocks naming a block not held yet
  writable: Set<string>; // documents of its file entries the server has not accepted yet: only it may open them
  scannedHeads: string; // the document's heads when its blocks were last read: unchanged, they are not read again
  placedAt: number; // the held height when its waiting blocks were last tried
  filesInFlight: Set<string>;
  scheduled: boolean;
  stop: () => void;
}

type Refusal = [key: string, reason: string];

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function short(hash: string): string {
  return hash.slice(0, 8);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function documentIdOf(url: string): string | null {
  try {
    return parseAutomergeUrl(url as AutomergeUrl).documentId;
  } catch {
    return null;
  }
}

function documentsOf(entry: FileEntry): string[] {
  return [entry.url, ...(entry.chunks ?? [])].map(documentIdOf).filter((id) => id !== null);
}

// Merges again while blocks placed in one pass let waiting ones in: `incoming` may come in any order.
// `heldState` (the projection of `held`) lets a merge that only appends fold on from it.
async function mergeSettled(
  held: readonly Block[],
  heldState: LedgerState | undefined,
  incoming: readonly unknown[],
  publicKeys: Map<string, Promise<CryptoKey>>,
) {
  const now = Date.now();
  let outcome = await mergeBlocks(held, incoming, { publicKeys, heldState, now });
  const added = [...outcome.added];
  const refused: RefusedBlockReport[] = [...outcome.refused];
  while (outcome.added.length > 0 && outcome.waiting.length > 0) {
    outcome = await mergeBlocks(outcome.blocks, outcome.waiting, { publicKeys, heldState: outcome.state, now });
    for (const block of outcome.added) added.push(block); // one by one: a spread of 100,000 overflows the stack
    for (const report of outcome.refused) refused.push(report);
  }
  return { blocks: outcome.blocks, state: outcome.state, added, refused, waiting: outcome.waiting };
}

// Blocks of `pool` whose every named block is held or among the others here: only these are worth a merge.
export function placeable(
  pool: ReadonlyMap<string, Record<string, unknown>>,
  isHeld: (hash: string) => boolean,
): Record<string, unknown>[] {
  const verdict = new Map<string, boolean>();
  // depth first with a stack of its own: a device's chain of 10,000 blocks, each naming the one before, overflowed the
  // call stack when visited by recursion
  const path: { hash: string; parents: readonly string[]; next: number }[] = [];
  const enter = (hash: string): void => {
    verdict.set(hash, false); // a cycle places nothing
    const value = pool.get(hash);
    const parents = value ? namedParents(value) : null;
    // a value whose parents cannot be read goes to the merge, which refuses it with the reason
    if (!value) verdict.set(hash, isHeld(hash));
    else if (parents === null) verdict.set(hash, true);
    else path.push({ hash, parents, next: 0 });
  };
  const visit = (hash: string): boolean => {
    if (!verdict.has(hash)) enter(hash);
    while (path.length > 0) {
      const step = path[path.length - 1];
      const parent = step.parents[step.next];
      if (parent === undefined) {
        verdict.set(step.hash, true); // every parent held or placeable
        path.pop();
      } else if (isHeld(parent) || verdict.get(parent) === true) step.next++;
      else if (!verdict.has(parent)) enter(parent);
      else {
        path.pop(); // a parent that cannot be placed, or a cycle: neither can this block
      }
    }
    return verdict.get(hash) === true;
  };
  return [...pool].filter(([hash]) => visit(hash)).map(([, value]) => value);
}

// A device document's block entry as a value to verify, or why it is refused before verification.
function entryValue(key: string, bytes: unknown): { value: Record<string, unknown> } | { reason: string } {
  if (!(bytes instanceof Uint8Array)) return { reason: 'malformed entry: not bytes' };
  if (bytes.byteLength > MAX_BLOCK_BYTES) return { reason: `oversized entry: more than ${MAX_BLOCK_BYTES} bytes` }; // not even parsed
  const value = decodeBlock(bytes);
  if (!isRecord(value)) return { reason: 'malformed entry: not a block in UTF-8 JSON' };
  if (value.hash !== key) return { reason: 'malformed entry: stored under another hash than its own' };
  return { value };
}

// The blocks a value names before it, or null when it names them in no readable way (the merge refuses it).
function namedParents(value: Record<string, unknown>): readonly string[] | null {
  try {
    const parents = parentsOf(value as unknown as Block);
    return Array.isArray(parents) && parents.every((parent) => typeof parent === 'string') ? parents : null;
  } catch {
    return null;
  }
}

function namedCids(block: Block): string[] {
  const files = (block.data as Partial<ClinicalRecord> | undefined)?.files;
  return Array.isArray(files) ? files.map((file: { cid?: unknown }) => file?.cid).filter((cid) => typeof cid === 'string') : [];
}

function summaryOf(doc: DeviceDoc, userId: string): Pick<DeviceSummary, 'userId' | 'name' | 'tip' | 'height' | 'seenAt'> {
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_NAME_CHARS) : '');
  return {
    userId, // from the server's own state, never from the document
    name: text(doc.name),
    tip: text(doc.tip),
    height: Number.isSafeInteger(doc.height) ? doc.height : 0,
    seenAt: text(doc.seenAt),
  };
}

export interface KeeperOptions {
  repo: Repo;
  state: ServerState;
  stateFile: string;
  store: VerifiedStore;
  gate: PeerGate;
  careKey: CareNetworkKey;
  storageFull: (incoming?: number) => string | null;
  log: (line: string) => void;
}

export async function createLedgerKeeper(options: KeeperOptions): Promise<LedgerKeeper> {
  const { repo, state, stateFile, store, gate, careKey, storageFull, log } = options;
  const carePrivateKey = await importCareNetworkKey(careKey.privateKey); // non-extractable from here on
  const publicKeys = new Map<string, Promise<CryptoKey>>(); // imported enrolled keys, shared by every merge
  const devices = new Map<string, WatchedDevice>();
  let ledger: DocHandle<LedgerDoc> | null = null;
  let keys: SyncedKeys | null = store.keys();
  let held: Block[] = [];
  let heldState: LedgerState | undefined; // the projection of `held`
  const heldHashes = new Set<string>();
  const heldCids = new Set<string>();
  let wraps: Record<string, StoredWrap> = store.wraps();
  let files: Record<string, FileEntry> = store.files();
  const acceptedDocuments = new Set(Object.values(files).flatMap(documentsOf)); // every proven device may read these
  const joinTimes: number[] = []; // new device ids accepted, for the hourly limit

  // One task at a time: every merge reads and replaces `held`.
  let tail: Promise<unknown> = Promise.resolve();
  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  }

  function saveState(): void {
    try {
      writeState(stateFile, state);
    } catch (error) {
      log(`storage error: could not save the server's state: ${message(error)}`);
    }
  }

  function hold(blocks: Block[], next: LedgerState): void {
    held = blocks;
    heldState = next;
    for (const block of blocks) {
      heldHashes.add(block.hash);
      for (const cid of namedCids(block)) heldCids.add(cid);
    }
  }

  function summaryField(deviceId: string, change: (summary: DeviceSummary) => void): void {
    ledger?.change((doc) => {
      if (!doc.devices[deviceId]) doc.devices[deviceId] = { name: '', tip: '', height: 0, seenAt: '' };
      change(doc.devices[deviceId]); // the document's own object: a plain one assigned above would not record changes
    });
  }

  // Refusals go to the published ledger document, at most LIMITS.refusedKept per device: the oldest are dropped, counted.
  function refuse(device: WatchedDevice, refusals: readonly Refusal[]): void {
    if (!ledger) return;
    for (const [key] of refusals) device.decided.add(key);
    const known = ledger.doc().refused;
    const fresh = refusals.filter(([key, reason]) => known[key]?.reason !== reason || known[key]?.deviceId !== device.id);
    if (fresh.length === 0) return;
    const at = new Date().toISOString();
    ledger.change((doc) => {
      for (const [key, reason] of fresh) doc.refused[key] = { reason, deviceId: device.id, at };
      const mine = Object.entries(doc.refused)
        .filter(([, refusal]) => refusal.deviceId === device.id)
        .sort(([, a], [, b]) => a.at.localeCompare(b.at));
      const over = mine.length - LIMITS.refusedKept;
      if (over <= 0) return;
      for (const [key] of mine.slice(0, over)) delete doc.refused[key];
      const summary = doc.devices[device.id];
      if (summary) summary.refusedDropped = (summary.refusedDropped ?? 0) + over;
    });
    for (const [key, reason] of fresh.slice(0, 20)) log(`refused ${short(key)} from device ${device.id}: ${reason}`);
    if (fresh.length > 20) log(`refused ${fresh.length - 20} more entries from device ${device.id}`);
  }

  function mirrorSummary(device: WatchedDevice, doc: DeviceDoc): void {
    const owner = Object.hasOwn(state.devices, device.id) ? state.devices[device.id] : undefined;
    if (!owner) return; // removed while a pass was queued: its summary does not come back
    const summary = summaryOf(doc, owner.userId);
    const known = ledger?.doc().devices[device.id];
    if (known && Object.entries(summary).every(([field, value]) => known[field as keyof DeviceSummary] === value)) return;
    summaryField(device.id, (row) => Object.assign(row, summary));
  }

  async function syncBlocks(device: WatchedDevice): Promise<void> {
    if (!ledger || !device.handle.isReady()) return; // watched after a restart: its document has not come back yet
    const doc = device.handle.doc();
    if (!isRecord(doc)) return;
    mirrorSummary(device, doc);
    const refusals: Refusal[] = [];
    const now = Date.now();
    const waitingBefore = device.waiting.size;
    const heads = JSON.stringify(device.handle.heads());
    // reading 20,000 entries again on every pass would slow every other device's blocks
    if (heads !== device.scannedHeads) {
      for (const [key, bytes] of Object.entries(isRecord(doc.blocks) ? doc.blocks : {})) {
        if (heldHashes.has(key) || device.decided.has(key) || device.waiting.has(key)) continue;
        const entry = entryValue(key, bytes);
        if ('reason' in entry) refusals.push([key, entry.reason]);
        else if (device.waiting.size >= LIMITS.waitingBlocks)
          refusals.push([key, `too many blocks of this device wait for blocks they name (at most ${LIMITS.waitingBlocks})`]);
        else device.waiting.set(key, { value: entry.value, since: now });
      }
      device.scannedHeads = heads;
    }
    let dropped = 0;
    for (const [hash, waiting] of device.waiting) {
      if (heldHashes.has(hash)) device.waiting.delete(hash);
      else if (now - waiting.since > LIMITS.waitingMs) {
        device.waiting.delete(hash);
        device.decided.add(hash);
        dropped++;
      }
    }
    if (dropped > 0) {
      log(`dropped ${dropped} block(s) of device ${device.id} that waited too long for blocks they name`);
      summaryField(device.id, (row) => void (row.waitingDropped = (row.waitingDropped ?? 0) + dropped));
    }
    const tryAgain = device.waiting.size > waitingBefore || held.length !== device.placedAt;
    const pool = new Map(tryAgain ? [...device.waiting].map(([hash, waiting]) => [hash, waiting.value]) : []);
    const incoming = placeable(pool, (hash) => heldHashes.has(hash));
    device.placedAt = held.length;
    const stuck = device.waiting.size - incoming.length;
    if (device.waiting.size > waitingBefore && stuck > 0)
      log(`${stuck} block(s) of device ${device.id} wait for blocks they name (dropped after ${LIMITS.waitingMs} ms)`);
    if (incoming.length > 0) {
      const outcome = await mergeSettled(held, heldState, incoming, publicKeys);
      if (outcome.added.length > 0) {
        try {
          store.addBlocks(outcome.added); // in the server's own files before it counts them as held
        } catch (error) {
          log(`storage error: could not keep ${outcome.added.length} verified block(s): ${message(error)}`);
          return refuse(device, refusals); // they wait, and are offered again on the next change
        }
        ledger.change((ledgerDoc) => {
          for (const block of outcome.added) ledgerDoc.blocks[block.hash] = encodeBlock(block);
        });
      }
      hold(outcome.blocks, outcome.state);
      for (const block of outcome.added) device.waiting.delete(block.hash);
      for (const { hash } of outcome.refused) device.waiting.delete(hash);
      if (outcome.added.length > 0) {
        log(`accepted ${outcome.added.length} block(s) from device ${device.id}: height ${held.length}`);
        // a block of another device may have waited for one of these
        for (const other of devices.values()) if (other !== device) schedule(other);
      }
      for (const { hash, reason } of outcome.refused) refusals.push([hash, reason]);
    }
    refuse(device, refusals);
  }

  // undefined: wait (the block of its document or epoch has not arrived); null: copy it; else why it is refused.
  function wrapProblem(wrap: KeyWrap | null, device: WatchedDevice): string | null | undefined {
    if (!wrap) return 'malformed key wrap';
    const users = heldState?.enrolment?.users ?? {};
    const toReader = wrap.to === CARE_NETWORK || Object.hasOwn(users, wrap.to);
    const summary = summaryWrapOf(wrap);
    if (summary) {
      const announced = heldState?.summaryEpochs.get(summary.patientId)?.some((epoch) => epoch.epochId === summary.epochId);
      if (!announced) return blocksUndecided(device) ? undefined : 'summary-key wrap of an epoch its patient did not announce';
      return toReader ? null : 'summary-key wrap to no user of this ledger';
    }
    const document = heldState?.documents.get(wrap.documentId);
    if (!document) return undefined;
    if (document.ipfsHash !== wrap.cid) return 'key wrap names other bytes than its document';
    if (document.deletedAt) return 'key wrap of a deleted document';
    return toReader ? null : 'key wrap to no user of this ledger';
  }

  // True while the device offers blocks not yet held or refused: the epoch a wrap names may be among them.
  function blocksUndecided(device: WatchedDevice): boolean {
    const doc = device.handle.doc() as unknown;
    const blocks = isRecord(doc) && isRecord(doc.blocks) ? Object.keys(doc.blocks) : [];
    return blocks.some((key) => !heldHashes.has(key) && !device.decided.has(key));
  }

  // Copies each checked wrap the server does not hold yet: the first wrap to a reader stays (every one opens to the
  // same key). A wrap its device took out (a patient who withdrew the care network's consent) is taken out too; only
  // the device that sent a wrap can take it out. The server cannot open a wrap to a user; it opens the care network's
  // only in release.
  function syncWraps(device: WatchedDevice): void {
    if (!ledger || !device.handle.isReady()) return;
    const doc = device.handle.doc();
    if (!isRecord(doc)) return;
    const offered = isRecord(doc.wraps) ? doc.wraps : {};
    const copied: [string, Uint8Array][] = [];
    const refusals: Refusal[] = [];
    for (const [key, bytes] of Object.entries(offered)) {
      const decidedKey = `wrap:${key}`;
      if (Object.hasOwn(wraps, key) || device.decided.has(decidedKey)) continue;
      const problem = wrapProblem(wrapEntryOf(key, bytes), device);
      if (problem === undefined) continue;
      if (problem === null) {
        device.decided.add(decidedKey);
        copied.push([key, new Uint8Array(bytes as Uint8Array)]);
      } else refusals.push([decidedKey, problem]);
    }
    const withdrawn = Object.entries(wraps)
      .filter(([key, stored]) => stored.from === device.id && !Object.hasOwn(offered, key))
      .map(([key]) => key);
    if (copied.length > 0 || withdrawn.length > 0) {
      const next = { ...wraps };
      for (const [key, bytes] of copied) next[key] = { json: new TextDecoder().decode(bytes), from: device.id };
      for (const key of withdrawn) delete next[key];
      try {
        store.saveWraps(next);
      } catch (error) {
        log(`storage error: could not save key wraps: ${message(error)}`);
        for (const [key] of copied) device.decided.delete(`wrap:${key}`); // offered again on the next pass
        return;
      }
      wraps = next;
      ledger.change((ledgerDoc) => {
        if (!isRecord(ledgerDoc.wraps)) ledgerDoc.wraps = {};
        for (const [key, bytes] of copied) ledgerDoc.wraps[key] = bytes;
        for (const key of withdrawn) delete ledgerDoc.wraps[key];
      });
      for (const key of withdrawn) device.decided.delete(`wrap:${key}`);
      if (copied.length > 0) log(`accepted ${copied.length} key wrap(s) from device ${device.id}`);
      if (withdrawn.length > 0) log(`took out ${withdrawn.length} key wrap(s) device ${device.id} withdrew`);
    }
    refuse(device, refusals);
  }

  // The doctor's device writes the read block just before it asks: give it the time to reach this server.
  async function awaitBlock(hash: string): Promise<void> {
    for (const until = Date.now() + FIND_TIMEOUT_MS; !heldHashes.has(hash) && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, RELEASE_POLL_MS));
  }

  // The ledger's care-network wrap of `subject` (a document id or a summary-key subject), or null.
  function careWrapOf(subject: string): KeyWrap | null {
    const key = wrapId({ documentId: subject, to: CARE_NETWORK });
    const stored = Object.hasOwn(wraps, key) ? wraps[key] : undefined;
    return stored ? wrapEntryOf(key, new TextEncoder().encode(stored.json)) : null;
  }

  // The care network's wrap re-wrapped to the granted doctor, decided on the verified chain; every answer is logged.
  async function release(request: ReleaseRequest, deviceId: string): Promise<ReleaseAnswer> {
    await awaitBlock(request.readBlock);
    const stored = careWrapOf(request.documentId);
    const outcome = heldState
      ? await releaseForGrant(heldState, request, stored, carePrivateKey, Date.now())
      : 'this server holds no ledger yet';
    if (typeof outcome === 'string') {
      log(
        `release refused for document ${request.documentId} under grant ${request.grantId}: ${outcome} (asked by device ${deviceId})`,
      );
      return { ok: false, reason: outcome };
    }
    log(
      `released the key of document ${request.documentId} to ${outcome.to} under grant ${request.grantId} (asked by device ${deviceId})`,
    );
    return { ok: true, wrap: outcome };
  }

  // The summary key of an epoch of the granted patient, as release does it for a document's key: the care network's
  // wrap looked up under the grant's own patient, so another patient's epoch finds none.
  async function releaseSummary(request: SummaryReleaseRequest, deviceId: string): Promise<ReleaseAnswer> {
    await awaitBlock(request.readBlock);
    const patientId = heldState?.grants.get(request.grantId)?.grant.patientId;
    const stored = patientId ? careWrapOf(summaryKeySubject(patientId, request.epochId)) : null;
    const outcome = heldState
      ? await releaseSummaryForGrant(heldState, request, stored, carePrivateKey, Date.now())
      : 'this server holds no ledger yet';
    if (typeof outcome === 'string') {
      log(
        `release refused for summary epoch ${request.epochId} under grant ${request.grantId}: ${outcome} (asked by device ${deviceId})`,
      );
      return { ok: false, reason: outcome };
    }
    log(
      `released the summary key of epoch ${request.epochId} to ${outcome.to} under grant ${request.grantId} (asked by device ${deviceId})`,
    );
    return { ok: true, wrap: outcome };
  }

  // A document a device made, or undefined when it has not arrived within FIND_TIMEOUT_MS.
  async function found(url: string): Promise<unknown> {
    try {
      return (await repo.find(url as AutomergeUrl, { signal: AbortSignal.timeout(FIND_TIMEOUT_MS) })).doc() as unknown;
    } catch {
      return undefined;
    }
  }

  // A file sent whole: its bytes, or why not (undefined: not here yet).
  async function wholeFile(entry: FileEntry): Promise<Uint8Array | string | undefined> {
    const file = await found(entry.url);
    if (file === undefined) return undefined;
    if (!isRecord(file) || file.kind !== 'medledger-file' || !(file.bytes instanceof Uint8Array))
      return 'malformed file document';
    if (file.cid !== entry.cid) return 'file bytes do not have the content id of their entry';
    return file.bytes;
  }

  // A file in chunks (workers/core/file-chunks.ts): every chunk fetched and checked, then joined.
  async function chunkedFile(entry: FileEntry, chunks: readonly string[]): Promise<Uint8Array | string | undefined> {
    const listProblem = chunkListProblem(entry);
    if (listProblem) return listProblem;
    const parts: Uint8Array[] = [];
    for (const [index, url] of chunks.entries()) {
      const doc = await found(url);
      if (doc === undefined) return undefined;
      const part = chunkBytes(doc, entry, index);
      if (typeof part === 'string') return part;
      parts.push(part);
    }
    return joinChunks(parts, entry.size) ?? 'file size does not match its entry';
  }

  // undefined: not decided yet (a file document is not here yet); null: it holds; else why it is refused.
  async function fileProblem(entry: FileEntry): Promise<string | null | undefined> {
    const bytes = entry.chunks ? await chunkedFile(entry, entry.chunks) : await wholeFile(entry);
    if (bytes === undefined || typeof bytes === 'string') return bytes;
    if (bytes.byteLength > MAX_SYNC_FILE_BYTES) return `oversized file: more than ${MAX_SYNC_FILE_BYTES} bytes`;
    if (bytes.byteLength !== entry.size) return 'file size does not match its entry';
    if ((await contentId(bytes)) !== entry.cid) return 'file bytes do not have the content id of their entry';
    return null;
  }

  // Outside the serial queue: a file document may take seconds to arrive, and copying an entry is one change.
  async function syncFiles(device: WatchedDevice): Promise<void> {
    if (!ledger || !device.handle.isReady()) return;
    const doc = device.handle.doc();
    if (!isRecord(doc)) return;
    for (const [id, entry] of Object.entries(isRecord(doc.files) ? doc.files : {})) {
      if (device.decided.has(id) || device.filesInFlight.has(id) || Object.hasOwn(files, id)) continue;
      if (!isFileEntry(entry)) {
        refuse(device, [[id, 'malformed file entry']]);
        continue;
      }
      if (entry.size > MAX_SYNC_FILE_BYTES) {
        refuse(device, [[id, `oversized file: more than ${MAX_SYNC_FILE_BYTES} bytes`]]);
        continue;
      }
      if (!heldCids.has(entry.cid)) continue; // waits for a held block to name it
      device.filesInFlight.add(id);
      let problem: string | null | undefined;
      try {
        problem = await fileProblem(entry);
        if (problem === null) {
          const kept: FileEntry = {
            cid: entry.cid,
            url: entry.url,
            size: entry.size,
            ...(entry.chunks ? { chunks: [...entry.chunks] } : {}),
          };
          store.saveFiles({ ...files, [id]: kept }); // throws when the disk refuses: tried again on the next change
          files = { ...files, [id]: kept };
          for (const documentId of documentsOf(kept)) acceptedDocuments.add(documentId);
          device.decided.add(id);
          ledger.change((ledgerDoc) => {
            ledgerDoc.files[id] = kept;
          });
          log(`accepted file ${entry.cid} from device ${device.id}`);
        } else if (problem !== undefined) {
          refuse(device, [[id, problem]]);
        }
      } finally {
        device.filesInFlight.delete(id);
      }
      // the device sent the file again meanwhile (a reload lost the documents it had made): check the new ones
      const now = device.handle.doc().files as unknown;
      if (problem === undefined && isRecord(now) && isRecord(now[id]) && now[id].url !== entry.url) schedule(device);
    }
  }

  // The documents of its file entries that the server has not accepted: only this device may open them, up to its limit.
  function listWritable(device: WatchedDevice): void {
    const doc = device.handle.isReady() ? (device.handle.doc() as unknown) : undefined;
    const entries = isRecord(doc) && isRecord(doc.files) ? Object.entries(doc.files) : [];
    device.writable.clear();
    const over: Refusal[] = [];
    for (const [id, entry] of entries) {
      if (Object.hasOwn(files, id) || device.decided.has(id) || !isFileEntry(entry)) continue;
      const ids = documentsOf(entry);
      if (device.writable.size + ids.length > LIMITS.documentsPerDevice) {
        over.push([id, `too many documents from this device wait for the server (at most ${LIMITS.documentsPerDevice})`]);
        continue;
      }
      for (const documentId of ids) device.writable.add(documentId);
    }
    refuse(device, over);
  }

  function schedule(device: WatchedDevice): void {
    if (device.scheduled) return;
    device.scheduled = true;
    serial(async () => {
      device.scheduled = false;
      if (devices.get(device.id) !== device) return; // removed, or watched anew
      await syncBlocks(device);
      syncWraps(device);
      listWritable(device);
    })
      .then(() => syncFiles(device))
      .catch((error: unknown) => log(`sync of device ${device.id} failed: ${message(error)}`));
  }

  function watch(id: string, handle: DocHandle<DeviceDoc>): void {
    devices.get(id)?.stop();
    const device: WatchedDevice = {
      id,
      handle,
      decided: new Set(),
      waiting: new Map(),
      writable: new Set(),
      scannedHeads: '',
      placedAt: -1,
      filesInFlight: new Set(),
      scheduled: false,
      stop: () => {},
    };
    const onChange = () => schedule(device);
    handle.on('change', onChange);
    device.stop = () => handle.off('change', onChange);
    devices.set(id, device);
    schedule(device);
  }

  async function findDevice(url: AutomergeUrl): Promise<DocHandle<DeviceDoc> | null> {
    try {
      return await repo.find<DeviceDoc>(url, { signal: AbortSignal.timeout(FIND_TIMEOUT_MS) });
    } catch {
      return null;
    }
  }

  // The ledger document, published from what the server holds (a new one when storage lost it).
  async function publish(): Promise<DocHandle<LedgerDoc>> {
    const found = state.ledgerUrl
      ? await repo.find<LedgerDoc>(state.ledgerUrl, { signal: AbortSignal.timeout(FIND_TIMEOUT_MS) }).catch(() => null)
      : null;
    const handle =
      found ??
      repo.create<LedgerDoc>({
        kind: 'medledger-ledger',
        version: SYNC_PROTOCOL_VERSION,
        genesis: held[0]?.hash ?? '',
        blocks: {},
        files: {},
        keys: new Uint8Array(),
        wraps: {},
        devices: {},
        refused: {},
      });
    // whatever the document holds that the server did not verify is taken out, and what it lacks is put in
    handle.change((doc) => {
      doc.genesis = held[0]?.hash ?? '';
      doc.keys = new TextEncoder().encode(JSON.stringify(keys));
      for (const hash of Object.keys(doc.blocks)) if (!heldHashes.has(hash)) delete doc.blocks[hash];
      for (const block of held) if (!Object.hasOwn(doc.blocks, block.hash)) doc.blocks[block.hash] = encodeBlock(block);
      if (!isRecord(doc.wraps)) doc.wraps = {};
      for (const key of Object.keys(doc.wraps)) if (!Object.hasOwn(wraps, key)) delete doc.wraps[key];
      for (const [key, stored] of Object.entries(wraps))
        if (!Object.hasOwn(doc.wraps, key)) doc.wraps[key] = new TextEncoder().encode(stored.json);
      for (const id of Object.keys(doc.files)) if (!Object.hasOwn(files, id)) delete doc.files[id];
      for (const [id, entry] of Object.entries(files)) if (!Object.hasOwn(doc.files, id)) doc.files[id] = entry;
    });
    if (!found) {
      state.ledgerUrl = handle.url;
      saveState();
    }
    return handle;
  }

  // The first device's genesis (verified as block 0) and keys make the ledger; the answer says why not.
  async function seed(request: JoinRequest): Promise<string | null> {
    const genesis = isRecord(request.seed?.genesis) ? request.seed.genesis : null;
    if (!genesis || genesis.hash !== request.proof.genesis)
      return 'the seeding device sent no genesis block of the ledger it proves';
    let outcome: Awaited<ReturnType<typeof mergeBlocks>>;
    try {
      outcome = await mergeBlocks([], [genesis], { publicKeys, now: Date.now() });
    } catch {
      return 'the genesis block does not verify as block 0'; // merge.ts throws, not refuses, when nothing is left to hold
    }
    if (outcome.added.length !== 1 || outcome.blocks[0]?.hash !== request.proof.genesis) {
      return `the genesis block does not verify: ${outcome.refused[0]?.reason ?? 'it is not block 0'}`;
    }
    const enrolment = (outcome.blocks[0].data as ClinicalRecord).enrolment;
    const seededKeys = syncedKeysOf(new TextEncoder().encode(JSON.stringify(request.seed?.keys)), enrolment);
    if (!seededKeys) return 'the seeding device sent no keys matching the keys its genesis block enrols';
    const problem = await proofProblem(request.proof, enrolment);
    if (problem) return `the device did not prove who it is: ${problem}`;
    store.saveKeys(seededKeys);
    store.addBlocks(outcome.blocks);
    keys = seededKeys;
    hold(outcome.blocks, outcome.state);
    ledger = await publish();
    await repo.flush([ledger.documentId]);
    log(`ledger ${short(request.proof.genesis)} seeded by device ${request.proof.deviceId}: ${ledger.url}`);
    return null;
  }

  function joinLimit(deviceId: string, userId: string): string | null {
    if (Object.hasOwn(state.devices, deviceId)) return null;
    const mine = Object.values(state.devices).filter((device) => device.userId === userId).length;
    if (mine >= LIMITS.devicesPerUser)
      return `this user already has ${mine} devices on this server (at most ${LIMITS.devicesPerUser})`;
    const hourAgo = Date.now() - 3_600_000;
    while (joinTimes.length > 0 && joinTimes[0] < hourAgo) joinTimes.shift();
    if (joinTimes.length >= LIMITS.newDevicesPerHour)
      return `${joinTimes.length} new devices joined in the last hour (at most ${LIMITS.newDevicesPerHour}): try again later`;
    return null;
  }

  async function join(request: JoinRequest): Promise<JoinAnswer> {
    const { proof } = request;
    const refused = (reason: string): JoinAnswer => {
      log(`join refused for device ${proof.deviceId}: ${reason}`);
      return { ok: false, reason };
    };
    if (!gate.takeChallenge(proof.challenge)) return refused('the challenge is unknown, used or expired: ask for a new one');
    return serial(async () => {
      if (!ledger) {
        const full = storageFull();
        if (full) return refused(full);
        const problem = await seed(request);
        if (problem) return refused(problem);
      } else {
        if (proof.genesis !== held[0]?.hash) {
          return refused(
            `this server holds another ledger (genesis ${short(held[0]?.hash ?? '')}); the device holds genesis ${short(proof.genesis)}`,
          );
        }
        const problem = await proofProblem(proof, heldState?.enrolment ?? undefined);
        if (problem) return refused(`the device did not prove who it is: ${problem}`);
      }
      const removed = Object.hasOwn(state.removed, proof.deviceId) ? state.removed[proof.deviceId] : undefined;
      if (removed) {
        const answer = refused(
          `this device was removed from the sync server on ${removed.at.slice(0, 10)} by another device of its user; connect again to join as a new device`,
        );
        return { ...answer, removed: true as const };
      }
      const known = Object.hasOwn(state.devices, proof.deviceId) ? state.devices[proof.deviceId] : undefined;
      if (known && known.userId !== proof.userId) {
        return refused(
          `device id ${proof.deviceId} belongs to another user of this ledger; a device joins under an id of its own`,
        );
      }
      const limit = joinLimit(proof.deviceId, proof.userId);
      if (limit) return refused(limit);
      if (!known) joinTimes.push(Date.now());
      const name = request.name.slice(0, MAX_NAME_CHARS);
      state.devices[proof.deviceId] = {
        ...(known ?? { joinedAt: new Date().toISOString(), bytes: 0 }),
        userId: proof.userId,
        name,
      };
      const session = gate.openSession(proof.deviceId); // saves the state
      log(`join accepted for device ${proof.deviceId} (${name}) of user ${proof.userId}`);
      const current = ledger as DocHandle<LedgerDoc>;
      return {
        ok: true,
        session,
        ledgerUrl: current.url,
        genesis: proof.genesis,
        careNetworkKey: careKey.publicKey,
        serverTime: new Date().toISOString(),
      };
    });
  }

  // A proven device names its DeviceDoc, which the server then reads (and which no other device may open).
  async function registerDevice(deviceId: string, deviceUrl: string): Promise<DeviceAnswer> {
    const known = state.devices[deviceId];
    const refused = (reason: string, retry = false): DeviceAnswer => {
      log(`device document of ${deviceId} refused: ${reason}`);
      return retry ? { ok: false, reason, retry } : { ok: false, reason };
    };
    if (!known) return refused('this device has not joined');
    const documentId = documentIdOf(deviceUrl);
    if (!documentId) return refused('the device document is not an Automerge URL');
    const owner = Object.entries(state.devices).find(([id, device]) => id !== deviceId && device.url === deviceUrl);
    if (owner || acceptedDocuments.has(documentId) || documentId === ledger?.documentId)
      return refused('the document belongs to another device or to the server');
    const before = known.url;
    known.url = deviceUrl as AutomergeUrl; // it may now open its document: the server asks it for the document
    const handle = await findDevice(known.url);
    const doc = handle?.doc() as unknown;
    if (!handle || !isRecord(doc)) {
      if (before) known.url = before;
      return refused('the server could not fetch the device document yet', true);
    }
    if (doc.kind !== 'medledger-device' || doc.deviceId !== deviceId || doc.genesis !== held[0]?.hash) {
      if (before) known.url = before;
      else delete known.url;
      return refused('the device document does not match this device (kind, deviceId or genesis)');
    }
    saveState();
    if (devices.get(deviceId)?.handle !== handle) watch(deviceId, handle);
    return { ok: true };
  }

  // A proven device removes a device of its own user (or itself): its place on the server, its summary and its session
  // go; every block, file and wrap it sent stays, and a join under its id is refused from now on.
  function removeDevice(deviceId: string, removedId: string): Promise<RemoveDeviceAnswer> {
    return serial(async () => {
      const refused = (reason: string): RemoveDeviceAnswer => {
        log(`removal of device ${removedId.slice(0, 60)} refused: ${reason} (asked by device ${deviceId})`);
        return { ok: false, reason };
      };
      const asker = Object.hasOwn(state.devices, deviceId) ? state.devices[deviceId] : undefined;
      if (!asker) return refused('the asking device has not joined');
      const gone = Object.hasOwn(state.removed, removedId) ? state.removed[removedId] : undefined;
      if (gone && gone.userId === asker.userId) return refused(`device ${removedId} was removed already`);
      const target = Object.hasOwn(state.devices, removedId) ? state.devices[removedId] : undefined;
      if (!target) return refused(`this server knows no device ${removedId.slice(0, 60)}`);
      if (target.userId !== asker.userId)
        return refused(`device ${removedId} belongs to another user: a device removes only devices of its own user`);
      delete state.devices[removedId];
      state.removed[removedId] = { userId: target.userId, name: target.name, at: new Date().toISOString(), by: deviceId };
      state.removedBytes[target.userId] = (state.removedBytes[target.userId] ?? 0) + target.bytes;
      const forgotten = Object.keys(state.removed).length - LIMITS.removedKept;
      for (const id of Object.keys(state.removed).slice(0, Math.max(0, forgotten))) delete state.removed[id]; // oldest first
      gate.endSessions(removedId); // saves the state
      gate.closeDevice(removedId);
      devices.get(removedId)?.stop();
      devices.delete(removedId);
      ledger?.change((doc) => {
        delete doc.devices[removedId];
        for (const [key, refusal] of Object.entries(doc.refused)) if (refusal.deviceId === removedId) delete doc.refused[key];
      });
      log(`device ${removedId} (${target.name}) of user ${target.userId} removed by device ${deviceId}: the blocks it sent stay`);
      return { ok: true };
    });
  }

  function access(deviceId: string, documentId: string): Access {
    if (!Object.hasOwn(state.devices, deviceId)) return 'none';
    if (documentId === ledger?.documentId || acceptedDocuments.has(documentId)) return 'read';
    const url = state.devices[deviceId].url;
    if (url && documentIdOf(url) === documentId) return 'write';
    return devices.get(deviceId)?.writable.has(documentId) ? 'write' : 'none';
  }

  // Why `bytes` more of `deviceId`'s changes are not taken: the folder's cap, the device's or its user's limit.
  function refuseData(deviceId: string, bytes: number): string | null {
    const full = storageFull(bytes);
    const device = state.devices[deviceId];
    const removedBytes = device && Object.hasOwn(state.removedBytes, device.userId) ? state.removedBytes[device.userId] : 0;
    const userBytes = Object.values(state.devices)
      .filter((other) => other.userId === device?.userId)
      .reduce((sum, other) => sum + other.bytes, removedBytes); // removing a device does not give its bytes back
    const reason =
      full ??
      (device && device.bytes + bytes > LIMITS.bytesPerDevice
        ? `this device sent ${device.bytes} bytes, and a device may send at most ${LIMITS.bytesPerDevice}`
        : userBytes + bytes > LIMITS.bytesPerUser
          ? `this user's devices sent ${userBytes} bytes, and a user's devices may send at most ${LIMITS.bytesPerUser}`
          : null);
    if (reason && ledger?.doc().devices[deviceId]?.limit !== reason) summaryField(deviceId, (row) => void (row.limit = reason));
    return reason;
  }

  let bytesSaved: ReturnType<typeof setTimeout> | undefined;
  function tookData(deviceId: string, bytes: number): void {
    const device = state.devices[deviceId];
    if (!device) return;
    device.bytes += bytes;
    if (ledger?.doc().devices[deviceId]?.limit) summaryField(deviceId, (row) => void delete row.limit);
    bytesSaved ??= setTimeout(() => {
      bytesSaved = undefined;
      saveState();
    }, 1_000);
  }

  // a device that sends nothing more still has its blocks that waited too long dropped
  setInterval(
    () => {
      for (const device of devices.values()) if (device.waiting.size > 0) schedule(device);
    },
    Math.min(LIMITS.waitingMs, 60_000),
  ).unref();

  // A restart: the ledger comes back from the server's own files, verified again, and is published from them.
  if (keys) {
    const outcome = await mergeSettled([], undefined, store.blocks(), publicKeys);
    hold(outcome.blocks, outcome.state);
    const dropped = outcome.refused.length + outcome.waiting.length;
    ledger = await publish();
    log(
      `ledger ${short(held[0]?.hash ?? '')} loaded: ${held.length} block(s)${dropped ? `, ${dropped} stored block(s) do not verify` : ''}`,
    );
  }
  // not awaited: a device document the server had not saved yet comes back when its device reconnects
  for (const [id, device] of Object.entries(state.devices)) {
    if (!device.url || !ledger) continue;
    repo
      .find<DeviceDoc>(device.url, { allowableStates: ['loading', 'requesting', 'ready', 'unavailable'] })
      .then((handle) => {
        if (!devices.has(id)) watch(id, handle);
      })
      .catch((error: unknown) => log(`device ${id} is not watched until it joins again: ${message(error)}`));
  }

  return {
    info: () => ({
      protocol: SYNC_PROTOCOL_VERSION,
      genesis: held[0]?.hash ?? null,
      height: held.length,
      serverTime: new Date().toISOString(),
    }),
    adopt: () => (keys && held[0] ? { genesis: held[0], keys } : null),
    join,
    registerDevice,
    removeDevice,
    release,
    releaseSummary,
    access,
    refuseData,
    tookData,
  };
}
