// The bench's own worker, built only by `npm run bench` (never shipped): it runs the same core code as the
// ledger worker, in a real browser Worker, seeds the app's IndexedDB with legal chains (bench-chain.ts, every
// live file with its key and encrypted bytes) and times the ledger service loading them.
import { sha256 } from 'js-sha256';
import { blockTemplate, createGenesisBlock, verifyChain } from '../../workers/core/chain';
import { DEMO_PASSWORD, DIFFICULTY } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { encryptDocument } from '../../workers/core/documents';
import { createNonceSearch } from '../../workers/core/nonce-search';
import { project, verifyLedger } from '../../workers/core/projection';
import type { Block, ChainRecord, DocumentKey } from '../../workers/core/types';
import { createLedgerService } from '../../workers/service';
import { createIndexedDbStorage } from '../../workers/storage/indexeddb-storage';
import {
  FORMAT_KEY,
  KEYS_KEY,
  LEDGER_FORMAT,
  SESSION_KEY,
  REVISION_KEY,
  type LedgerStorage,
  type StoredState,
} from '../../workers/storage/ledger-storage';
import { PBKDF2_ITERATIONS, enrolmentOf, type StoredKeys } from '../../workers/core/signatures';
import { benchRecords, countKinds, liveFiles } from './bench-chain';
import { mineSigned, unlockBenchKeys, type BenchKeys } from './signed-chain';

export type BenchCommand =
  | { cmd: 'hashRate'; ms: number }
  | { cmd: 'verify'; blocks: number; runs: number }
  | { cmd: 'seed'; blocks: number }
  | { cmd: 'load'; blocks: number };

const WRITE_BATCH = 5_000; // blocks mined, then written in one transaction while the next batch is mined

interface Prepared {
  records: ChainRecord[];
  documents: DocumentKey[];
  contents: Map<string, ArrayBuffer>;
  encryptMs: number;
}

// The records of a `height`-block chain, each live file encrypted as an upload would be (its own key, its
// real content id); deleted files keep their placeholder id, and no key or bytes, as after a deletion.
async function prepare(height: number): Promise<Prepared> {
  const records = benchRecords(height, undefined, enrolmentOf((await benchKeys()).stored));
  const began = performance.now();
  const documents: DocumentKey[] = [];
  const contents = new Map<string, ArrayBuffer>();
  for (const file of liveFiles(records)) {
    const plain = new Uint8Array(file.size);
    for (let i = 0; i < plain.length; i++) plain[i] = (i * 31 + file.size) & 255;
    const encrypted = await encryptDocument(plain.buffer);
    file.cid = encrypted.ipfsHash;
    documents.push({ id: file.documentId, encryptionKey: encrypted.encryptionKey });
    contents.set(file.documentId, encrypted.stored);
  }
  return { records, documents, contents, encryptMs: performance.now() - began };
}

// Every user's keys (wrapped as the app wraps them) and each one unlocked, once per bench worker: the seeded
// chains are signed by their authors, as the app signs them. Keys the app already made are reused, so the
// session of a user signed in before the seed still holds the enrolled key.
let keys: Promise<BenchKeys> | null = null;
function benchKeys() {
  keys ??= createIndexedDbStorage()
    .readMeta(KEYS_KEY)
    .then((stored) => unlockBenchKeys(stored as StoredKeys | undefined));
  return keys;
}

async function mine(records: readonly ChainRecord[], blocks: Block[], until: number): Promise<void> {
  await mineSigned(records, blocks, until, (await benchKeys()).signing);
}

const built = new Map<number, { prepared: Prepared; blocks: Block[] }>();

// A legal chain of `height` blocks at the records chain's difficulty, built once per height (the 10,000-block
// chain is verified, then seeded as it is).
async function chainOf(height: number): Promise<{ blocks: Block[]; buildMs: number }> {
  const cached = built.get(height);
  if (cached) return { blocks: cached.blocks, buildMs: 0 };
  const began = performance.now();
  const prepared = await prepare(height);
  const blocks: Block[] = [];
  await mine(prepared.records, blocks, height);
  built.set(height, { prepared, blocks });
  return { blocks, buildMs: performance.now() - began };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Hashes per second of the mining loop (midstate nonce search) and of plain js-sha256 on the same header bytes.
function hashRate(ms: number) {
  const [first, second] = benchRecords(2);
  const genesis = createGenesisBlock(first, first.timestamp, DIFFICULTY);
  const template = blockTemplate(genesis, second, second.timestamp);
  const prefix = new TextDecoder().decode(template.prefixBytes);
  // difficulty 64 is never met: the search runs every attempt it is given
  const search = createNonceSearch(template.prefixBytes, 64);
  const chunk = 20_000;
  let attempts = 0;
  let began = performance.now();
  while (performance.now() - began < ms) {
    search.search(attempts, chunk);
    attempts += chunk;
  }
  const miningLoop = (attempts * 1000) / (performance.now() - began);
  const encoder = new TextEncoder();
  let hashed = 0;
  began = performance.now();
  while (performance.now() - began < ms) {
    for (let i = 0; i < 2000; i++) sha256.array(encoder.encode(prefix + String(hashed + i)));
    hashed += 2000;
  }
  const jsSha256 = (hashed * 1000) / (performance.now() - began);
  return { prefix, miningLoop, jsSha256 };
}

// verifyChain (hashes only) and verifyLedger (hashes, rules, projection) in alternating runs.
async function verify(height: number, runs: number) {
  const { blocks, buildMs } = await chainOf(height);
  const chainTimes: number[] = [];
  const ledgerTimes: number[] = [];
  for (let run = 0; run < runs; run++) {
    let began = performance.now();
    const hashes = verifyChain(blocks, DIFFICULTY);
    chainTimes.push(performance.now() - began);
    if (!hashes.valid)
      throw new Error(`the ${height}-block bench chain failed verifyChain: ${JSON.stringify(hashes.firstInvalid)}`);
    began = performance.now();
    const ledger = verifyLedger(blocks, DIFFICULTY);
    ledgerTimes.push(performance.now() - began);
    if (ledger.firstInvalid)
      throw new Error(`the ${height}-block bench chain failed verifyLedger: ${JSON.stringify(ledger.firstInvalid)}`);
  }
  return {
    blocks: height,
    valid: true,
    runs,
    medianMs: median(chainTimes),
    minMs: Math.min(...chainTimes),
    ledgerMedianMs: median(ledgerTimes),
    ledgerMinMs: Math.min(...ledgerTimes),
    buildMs,
  };
}

// Replaces the app's stored ledger with a legal chain of `height` blocks, its keys and encrypted bytes, in
// batches: each batch is mined while the previous one is written.
async function seed(height: number) {
  const began = performance.now();
  const cached = built.get(height);
  const { records, documents, contents, encryptMs } = cached?.prepared ?? (await prepare(height));
  const keyOf = new Map(documents.map((row) => [row.id, row]));
  const storage = createIndexedDbStorage();
  const session = await storage.readMeta(SESSION_KEY); // kept across the seed: the signed-in user stays signed in
  const blocks: Block[] = cached?.blocks ?? []; // a chain not built before is mined here, batch by batch
  let mineMs = 0;
  let writeWaitMs = 0;
  let pending: Promise<void> = Promise.resolve();
  for (let from = 0; from < height; from += WRITE_BATCH) {
    const until = Math.min(height, from + WRITE_BATCH);
    const mineBegan = performance.now();
    await mine(records, blocks, until);
    mineMs += performance.now() - mineBegan;
    const batch = blocks.slice(from, until);
    const ids = batch
      .flatMap((block) => ('files' in block.data ? block.data.files : []))
      .flatMap((file) => (keyOf.has(file.documentId) ? [file.documentId] : []));
    const waitBegan = performance.now();
    await pending;
    writeWaitMs += performance.now() - waitBegan;
    pending = storage.commit({
      ...(from === 0
        ? {
            clear: true,
            meta: {
              [REVISION_KEY]: 1,
              [FORMAT_KEY]: LEDGER_FORMAT,
              [KEYS_KEY]: (await benchKeys()).stored,
              ...(session ? { [SESSION_KEY]: session } : {}),
            },
          }
        : {}),
      blocks: batch,
      documents: ids.map((id) => keyOf.get(id) as DocumentKey),
      contents: ids.map((id) => ({ id, bytes: contents.get(id) as ArrayBuffer })),
    });
  }
  const waitBegan = performance.now();
  await pending;
  writeWaitMs += performance.now() - waitBegan;
  const totalMs = performance.now() - began;
  return {
    blocks: height,
    kinds: countKinds(records),
    files: documents.length,
    contentBytes: [...contents.values()].reduce((sum, bytes) => sum + bytes.byteLength, 0),
    encryptMs: cached ? 0 : encryptMs,
    mineMs,
    reused: !!cached, // mined (and its files encrypted) before, for the verification timings
    writeWaitMs, // the writes not hidden behind mining
    totalMs,
  };
}

// In a fresh worker: the ledger service over the stored chain, as the app's worker starts it, from its
// creation to its first answer (signIn waits for the load: storage.load, verifyLedger, the off-chain
// checks). Then, on the blocks it loaded, the parts of that load timed apart.
async function load(height: number) {
  const idb = createIndexedDbStorage();
  let storageLoadMs = 0;
  let loaded: StoredState | null = null;
  const storage: LedgerStorage = {
    ...idb,
    async load() {
      const began = performance.now();
      loaded = await idb.load();
      storageLoadMs += performance.now() - began;
      return loaded;
    },
  };
  const began = performance.now();
  const service = createLedgerService({
    storage,
    now: () => Date.now(),
    randomId: () => crypto.randomUUID(),
    uploadDelayMs: 0,
    grantDelayMs: 0,
    difficulty: DIFFICULTY,
    keyIterations: PBKDF2_ITERATIONS,
  });
  await service.signIn(DEMO_ACCOUNTS.patient, DEMO_PASSWORD, 'patient');
  const firstCallMs = performance.now() - began;
  let status = await service.chainStatus();
  while (status.valid && status.signaturesChecked < status.signaturesToCheck) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    status = await service.chainStatus();
  }
  const signaturesMs = performance.now() - began;
  if (!status.valid || status.height !== height) {
    const bad = status.firstInvalid;
    throw new Error(
      `the ledger service loaded the seeded ${height}-block chain as ${status.valid ? 'valid' : 'INVALID'} with height ${status.height}` +
        (bad ? `: first failure at ${bad.item ?? `block #${bad.index}`}: ${bad.reason}` : ''),
    );
  }
  let at = performance.now();
  const overview = await service.patientOverview();
  const overviewMs = performance.now() - at;
  const blocks = (loaded as StoredState | null)?.blocks ?? [];
  at = performance.now();
  const hashes = verifyChain(blocks, DIFFICULTY);
  const verifyChainMs = performance.now() - at;
  at = performance.now();
  project(blocks);
  const projectMs = performance.now() - at;
  at = performance.now();
  structuredClone(blocks);
  const cloneMs = performance.now() - at; // serialize + deserialize: an upper bound of what getAll spends decoding
  return {
    blocks: height,
    valid: status.valid && hashes.valid,
    firstCallMs,
    signaturesMs, // until every signature was checked
    storageLoadMs,
    verifyAndChecksMs: firstCallMs - storageLoadMs, // verifyLedger, the off-chain checks, the service's own setup
    verifyChainMs,
    projectMs,
    cloneMs,
    overviewMs,
    totalRecords: overview.totalRecords,
    files: (loaded as StoredState | null)?.documents.length ?? 0,
  };
}

self.onmessage = async (event: MessageEvent<BenchCommand & { id: number }>) => {
  const { id, ...command } = event.data;
  try {
    let result: unknown;
    if (command.cmd === 'hashRate') result = hashRate(command.ms);
    else if (command.cmd === 'verify') result = await verify(command.blocks, command.runs);
    else if (command.cmd === 'seed') result = await seed(command.blocks);
    else result = await load(command.blocks);
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
};
