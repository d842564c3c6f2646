// The server's ledger: one LedgerDoc it alone writes, fed from the device documents of the devices that joined.
// Every block is verified by workers/core/merge.ts before it is kept; the server re-implements no check.
import type { AutomergeUrl, DocHandle, Repo } from '@automerge/automerge-repo';
import { contentId } from '../workers/core/documents';
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
import {
  MAX_SYNC_FILE_BYTES,
  SYNC_PROTOCOL_VERSION,
  decodeBlock,
  encodeBlock,
  type DeviceDoc,
  type DeviceSummary,
  type FileEntry,
  type JoinAnswer,
  type JoinRequest,
  type LedgerDoc,
  type LedgerInfo,
  type ReleaseAnswer,
} from '../workers/core/sync-protocol';
import type { Block, ClinicalRecord } from '../workers/core/types';
import { readState, writeState, type ServerState } from './state-file';
import { MAX_NAME_CHARS, isFileEntry, syncedKeysOf, wrapEntryOf } from './wire-checks';

const FIND_TIMEOUT_MS = 10_000; // a device document, file document or read block the server waits for
const RELEASE_POLL_MS = 50;

export interface LedgerKeeper {
  info(): LedgerInfo;
  join(request: JoinRequest): Promise<JoinAnswer>;
  release(request: ReleaseRequest): Promise<ReleaseAnswer>;
  releaseSummary(request: SummaryReleaseRequest): Promise<ReleaseAnswer>;
}

interface WatchedDevice {
  id: string;
  handle: DocHandle<DeviceDoc>;
  decided: Set<string>; // entries (block hashes, file document ids) refused or copied: not offered again
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

// Merges again while blocks placed in one pass let waiting ones in: `incoming` may come in any order.
// `heldState` (the projection of `held`) lets a merge that only appends fold on from it.
async function mergeSettled(
  held: readonly Block[],
  heldState: LedgerState | undefined,
  incoming: readonly unknown[],
  publicKeys: Map<string, Promise<CryptoKey>>,
) {
  let outcome = await mergeBlocks(held, incoming, { publicKeys, heldState });
  const added = [...outcome.added];
  const refused: RefusedBlockReport[] = [...outcome.refused];
  while (outcome.added.length > 0 && outcome.waiting.length > 0) {
    outcome = await mergeBlocks(outcome.blocks, outcome.waiting, { publicKeys, heldState: outcome.state });
    added.push(...outcome.added);
    refused.push(...outcome.refused);
  }
  return { blocks: outcome.blocks, state: outcome.state, added, refused, waiting: outcome.waiting };
}

// A device document's block entry as a value to verify, or why it is refused before verification.
function entryValue(key: string, bytes: unknown): { value: unknown } | { reason: string } {
  if (!(bytes instanceof Uint8Array)) return { reason: 'malformed entry: not bytes' };
  if (bytes.byteLength > MAX_BLOCK_BYTES) return { reason: `oversized entry: more than ${MAX_BLOCK_BYTES} bytes` }; // not even parsed
  const value = decodeBlock(bytes);
  if (!isRecord(value)) return { reason: 'malformed entry: not a block in UTF-8 JSON' };
  if (value.hash !== key) return { reason: 'malformed entry: stored under another hash than its own' };
  return { value };
}

function namedCids(block: Block): string[] {
  const files = (block.data as Partial<ClinicalRecord> | undefined)?.files;
  return Array.isArray(files) ? files.map((file: { cid?: unknown }) => file?.cid).filter((cid) => typeof cid === 'string') : [];
}

function summaryOf(doc: DeviceDoc): DeviceSummary {
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_NAME_CHARS) : '');
  return {
    name: text(doc.name),
    tip: text(doc.tip),
    height: Number.isSafeInteger(doc.height) ? doc.height : 0,
    seenAt: text(doc.seenAt),
  };
}

export async function createLedgerKeeper(
  repo: Repo,
  stateFile: string,
  log: (line: string) => void,
  careKey: CareNetworkKey,
): Promise<LedgerKeeper> {
  const state: ServerState = readState(stateFile);
  const carePrivateKey = await importCareNetworkKey(careKey.privateKey); // non-extractable from here on
  const publicKeys = new Map<string, Promise<CryptoKey>>(); // imported enrolled keys, shared by every merge
  const devices = new Map<string, WatchedDevice>();
  let ledger: DocHandle<LedgerDoc> | null = null;
  let held: Block[] = [];
  let heldState: LedgerState | undefined; // the projection of `held`
  const heldHashes = new Set<string>();
  const heldCids = new Set<string>();
  const wrapSource = new Map<string, string>(); // wrap id -> the device it was copied from, since this start

  // One task at a time: every merge reads and replaces `held`.
  let tail: Promise<unknown> = Promise.resolve();
  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  }

  function hold(blocks: Block[], state: LedgerState): void {
    held = blocks;
    heldState = state;
    for (const block of blocks) {
      heldHashes.add(block.hash);
      for (const cid of namedCids(block)) heldCids.add(cid);
    }
  }

  function refuse(device: WatchedDevice, refusals: readonly Refusal[]): void {
    if (!ledger) return;
    for (const [key] of refusals) device.decided.add(key);
    // after a restart the same entries are refused again: only new refusals are written and logged
    const known = ledger.doc().refused;
    const named = device.handle.doc().refused as unknown;
    const fresh = refusals.filter(
      ([key, reason]) =>
        known[key]?.reason !== reason || known[key]?.deviceId !== device.id || !isRecord(named) || named[key] !== reason,
    );
    if (fresh.length === 0) return;
    const at = new Date().toISOString();
    device.handle.change((doc) => {
      if (!isRecord(doc.refused)) doc.refused = {};
      for (const [key, reason] of fresh) if (doc.refused[key] !== reason) doc.refused[key] = reason;
    });
    ledger.change((doc) => {
      for (const [key, reason] of fresh) {
        if (doc.refused[key]?.reason !== reason || doc.refused[key]?.deviceId !== device.id) {
          doc.refused[key] = { reason, deviceId: device.id, at };
        }
      }
    });
    for (const [key, reason] of fresh) log(`refused ${short(key)} from device ${device.id}: ${reason}`);
  }

  function mirrorSummary(device: WatchedDevice, doc: DeviceDoc): void {
    const summary = summaryOf(doc);
    const known = ledger?.doc().devices[device.id];
    if (known && Object.entries(summary).every(([field, value]) => known[field as keyof DeviceSummary] === value)) return;
    ledger?.change((ledgerDoc) => {
      ledgerDoc.devices[device.id] = summary;
    });
  }

  async function syncBlocks(device: WatchedDevice): Promise<void> {
    if (!ledger || !device.handle.isReady()) return; // watched after a restart: its document has not come back yet
    const doc = device.handle.doc();
    if (!isRecord(doc)) return;
    mirrorSummary(device, doc);
    const incoming: unknown[] = [];
    const refusals: Refusal[] = [];
    for (const [key, bytes] of Object.entries(isRecord(doc.blocks) ? doc.blocks : {})) {
      if (heldHashes.has(key) || device.decided.has(key)) continue;
      const entry = entryValue(key, bytes);
      if ('reason' in entry) refusals.push([key, entry.reason]);
      else incoming.push(entry.value);
    }
    if (incoming.length > 0) {
      const outcome = await mergeSettled(held, heldState, incoming, publicKeys);
      if (outcome.added.length > 0) {
        ledger.change((ledgerDoc) => {
          for (const block of outcome.added) ledgerDoc.blocks[block.hash] = encodeBlock(block);
        });
        await repo.flush([ledger.documentId]); // on disk before the server counts it as held
      }
      hold(outcome.blocks, outcome.state);
      if (outcome.added.length > 0) {
        log(`accepted ${outcome.added.length} block(s) from device ${device.id}: height ${held.length}`);
        // a block of another device may have waited for one of these
        for (const other of devices.values()) if (other !== device) schedule(other);
      }
      refusals.push(...outcome.refused.map(({ hash, reason }): Refusal => [hash, reason]));
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

  // Copies each checked wrap the ledger does not hold yet: the first wrap to a reader stays (every one opens to the
  // same key). A wrap its device took out (a patient who withdrew the care network's consent) is taken out too.
  // The server cannot open a wrap to a user; it opens the care network's only in release.
  function syncWraps(device: WatchedDevice): void {
    if (!ledger || !device.handle.isReady()) return;
    const doc = device.handle.doc();
    if (!isRecord(doc)) return;
    const offered = isRecord(doc.wraps) ? doc.wraps : {};
    const held = ledger.doc().wraps ?? {};
    const copied: [string, Uint8Array][] = [];
    const refusals: Refusal[] = [];
    for (const [key, bytes] of Object.entries(offered)) {
      const decidedKey = `wrap:${key}`;
      if (Object.hasOwn(held, key) || device.decided.has(decidedKey)) continue;
      const problem = wrapProblem(wrapEntryOf(key, bytes), device);
      if (problem === undefined) continue;
      if (problem === null) {
        device.decided.add(decidedKey);
        copied.push([key, new Uint8Array(bytes as Uint8Array)]);
      } else refusals.push([decidedKey, problem]);
    }
    const withdrawn = [...wrapSource]
      .filter(([key, from]) => from === device.id && !Object.hasOwn(offered, key))
      .map(([key]) => key);
    if (copied.length > 0 || withdrawn.length > 0) {
      ledger.change((ledgerDoc) => {
        if (!isRecord(ledgerDoc.wraps)) ledgerDoc.wraps = {};
        for (const [key, bytes] of copied) ledgerDoc.wraps[key] = bytes;
        for (const key of withdrawn) delete ledgerDoc.wraps[key];
      });
      for (const [key] of copied) wrapSource.set(key, device.id);
      for (const key of withdrawn) {
        wrapSource.delete(key);
        device.decided.delete(`wrap:${key}`);
      }
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
    const encoded = ledger?.doc().wraps?.[key];
    return encoded ? wrapEntryOf(key, encoded) : null;
  }

  // The care network's wrap re-wrapped to the granted doctor, decided on the verified chain; every answer is logged.
  async function release(request: ReleaseRequest): Promise<ReleaseAnswer> {
    await awaitBlock(request.readBlock);
    const stored = careWrapOf(request.documentId);
    const outcome = heldState
      ? await releaseForGrant(heldState, request, stored, carePrivateKey, Date.now())
      : 'this server holds no ledger yet';
    if (typeof outcome === 'string') {
      log(`release refused for document ${request.documentId} under grant ${request.grantId}: ${outcome}`);
      return { ok: false, reason: outcome };
    }
    log(`released the key of document ${request.documentId} to ${outcome.to} under grant ${request.grantId}`);
    return { ok: true, wrap: outcome };
  }

  // The summary key of an epoch of the granted patient, as release does it for a document's key: the care network's
  // wrap looked up under the grant's own patient, so another patient's epoch finds none.
  async function releaseSummary(request: SummaryReleaseRequest): Promise<ReleaseAnswer> {
    await awaitBlock(request.readBlock);
    const patientId = heldState?.grants.get(request.grantId)?.grant.patientId;
    const stored = patientId ? careWrapOf(summaryKeySubject(patientId, request.epochId)) : null;
    const outcome = heldState
      ? await releaseSummaryForGrant(heldState, request, stored, carePrivateKey, Date.now())
      : 'this server holds no ledger yet';
    if (typeof outcome === 'string') {
      log(`release refused for summary epoch ${request.epochId} under grant ${request.grantId}: ${outcome}`);
      return { ok: false, reason: outcome };
    }
    log(`released the summary key of epoch ${request.epochId} to ${outcome.to} under grant ${request.grantId}`);
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
      if (device.decided.has(id) || device.filesInFlight.has(id) || ledger.doc().files[id]) continue;
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
          device.decided.add(id);
          ledger.change((ledgerDoc) => {
            ledgerDoc.files[id] = {
              cid: entry.cid,
              url: entry.url,
              size: entry.size,
              ...(entry.chunks ? { chunks: [...entry.chunks] } : {}),
            };
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

  function schedule(device: WatchedDevice): void {
    if (device.scheduled) return;
    device.scheduled = true;
    serial(async () => {
      device.scheduled = false;
      await syncBlocks(device);
      syncWraps(device);
    })
      .then(() => syncFiles(device))
      .catch((error: unknown) => log(`sync of device ${device.id} failed: ${message(error)}`));
  }

  function watch(id: string, handle: DocHandle<DeviceDoc>): void {
    devices.get(id)?.stop();
    const device: WatchedDevice = { id, handle, decided: new Set(), filesInFlight: new Set(), scheduled: false, stop: () => {} };
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

  // The first device's genesis (verified as block 0) and keys make the ledger; the answer says why not.
  async function seed(request: JoinRequest, doc: DeviceDoc): Promise<string | null> {
    const genesis = entryValue(request.genesis, isRecord(doc.blocks) ? doc.blocks[request.genesis] : undefined);
    if ('reason' in genesis) return `the device document's genesis block: ${genesis.reason}`;
    let outcome: Awaited<ReturnType<typeof mergeBlocks>>;
    try {
      outcome = await mergeBlocks([], [genesis.value], { publicKeys });
    } catch {
      return 'the genesis block does not verify as block 0'; // merge.ts throws, not refuses, when nothing is left to hold
    }
    if (outcome.added.length !== 1 || outcome.blocks[0]?.hash !== request.genesis) {
      return `the genesis block does not verify: ${outcome.refused[0]?.reason ?? 'it is not block 0'}`;
    }
    const keys = syncedKeysOf(doc.keys, (outcome.blocks[0].data as ClinicalRecord).enrolment);
    if (!keys) return 'the device document carries no keys matching the keys its genesis block enrols';
    const handle = repo.create<LedgerDoc>({
      kind: 'medledger-ledger',
      version: SYNC_PROTOCOL_VERSION,
      genesis: request.genesis,
      blocks: { [request.genesis]: encodeBlock(outcome.blocks[0]) },
      files: {},
      keys: new Uint8Array(doc.keys as Uint8Array),
      devices: {},
      refused: {},
    });
    await repo.flush([handle.documentId]); // on disk before the state file names it
    ledger = handle;
    hold(outcome.blocks, outcome.state);
    state.ledgerUrl = handle.url;
    writeState(stateFile, state);
    log(`ledger ${short(request.genesis)} seeded by device ${request.deviceId}: ${handle.url}`);
    return null;
  }

  async function join(request: JoinRequest): Promise<JoinAnswer> {
    const refused = (reason: string): JoinAnswer => {
      log(`join refused for device ${request.deviceId}: ${reason}`);
      return { ok: false, reason };
    };
    const held0 = held[0];
    if (held0 && request.genesis !== held0.hash) {
      return refused(
        `this server holds another ledger (genesis ${short(held0.hash)}); the device holds genesis ${short(request.genesis)}`,
      );
    }
    const handle = await findDevice(request.deviceUrl as AutomergeUrl);
    const doc = handle?.doc() as unknown;
    if (!handle || !isRecord(doc)) {
      const { reason } = refused('the server could not fetch the device document yet') as { reason: string };
      return { ok: false, reason, retry: true };
    }
    if (doc.kind !== 'medledger-device' || doc.deviceId !== request.deviceId || doc.genesis !== request.genesis) {
      return refused('the device document does not match the join request (kind, deviceId or genesis)');
    }
    return serial(async () => {
      if (!ledger) {
        const problem = await seed(request, doc as unknown as DeviceDoc);
        if (problem) return refused(problem);
      } else if (request.genesis !== held[0]?.hash) {
        return refused(`this server holds another ledger (genesis ${short(held[0]?.hash ?? '')})`);
      }
      const current = ledger as DocHandle<LedgerDoc>;
      if (state.devices[request.deviceId] !== request.deviceUrl || !devices.has(request.deviceId)) {
        state.devices[request.deviceId] = request.deviceUrl as AutomergeUrl;
        writeState(stateFile, state);
        watch(request.deviceId, handle);
      }
      log(`join accepted for device ${request.deviceId} (${request.name})`);
      return { ok: true, ledgerUrl: current.url, genesis: request.genesis };
    });
  }

  // A restart: the ledger document and the devices' documents come back from storage, and every held block is verified again.
  if (state.ledgerUrl) {
    ledger = await repo.find<LedgerDoc>(state.ledgerUrl);
    const stored = Object.values(ledger.doc().blocks).map(decodeBlock);
    const outcome = await mergeSettled([], undefined, stored, publicKeys);
    hold(outcome.blocks, outcome.state);
    const dropped = outcome.refused.length + outcome.waiting.length;
    log(
      `ledger ${short(held[0]?.hash ?? '')} loaded: ${held.length} block(s)${dropped ? `, ${dropped} stored block(s) do not verify` : ''}`,
    );
  }
  // not awaited: a device document the server had not saved yet comes back when its device reconnects
  for (const [id, url] of Object.entries(state.devices)) {
    repo
      .find<DeviceDoc>(url, { allowableStates: ['loading', 'requesting', 'ready', 'unavailable'] })
      .then((handle) => {
        if (!devices.has(id)) watch(id, handle);
      })
      .catch((error: unknown) => log(`device ${id} is not watched until it joins again: ${message(error)}`));
  }

  return {
    info: () => ({
      protocol: SYNC_PROTOCOL_VERSION,
      ledgerUrl: ledger?.url ?? null,
      genesis: held[0]?.hash ?? null,
      height: held.length,
      careNetworkKey: careKey.publicKey,
    }),
    join,
    release,
    releaseSummary,
  };
}
