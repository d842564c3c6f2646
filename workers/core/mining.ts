// Asynchronous, cancellable mining with progress, for the mining lab and the sandbox chain.
import {
  assertDifficulty,
  blockHash,
  blockTemplate,
  headerPrefix,
  headsBlockHash,
  headsHeaderPrefix,
  meetsDifficulty,
  sealBlock,
} from './chain';
import { ledgerError } from './errors';
import { createNonceSearch, isValidNonce } from './nonce-search';
import type { Block, ChainRecord } from './types';

export interface MiningProgressReport {
  attempts: number;
  elapsedMs: number;
  hashRate: number; // attempts per second
}

export interface MiningJobOptions {
  difficulty: number;
  onProgress?: (p: MiningProgressReport) => void;
  isCancelled?: () => boolean;
  yieldEvery?: number; // attempts between macrotask yields
  now?: () => number; // milliseconds
  startNonce?: number; // first nonce tried: lets several workers search disjoint ranges
  progressEveryMs?: number;
}

// About 3 ms of hashing at the browser's pure-JS rate: a cancel or a message is seen quickly.
export const DEFAULT_YIELD_EVERY = 5000;
export const DEFAULT_PROGRESS_EVERY_MS = 100;

const encoder = new TextEncoder();

export interface MiningOutcome {
  block: Block | null; // null when cancelled
  attempts: number;
}

// A macrotask, not a microtask: only then can a comlink cancel message be handled between chunks.
// Browsers: MessageChannel, free of the 4 ms clamp on nested setTimeout(0). Node: setImmediate, because
// Node drains a MessagePort's re-posted messages in one go and would starve timers and other ports.
function createMacrotaskYield(): { next: () => Promise<void>; close: () => void } {
  // Node's global, absent from the browser's libraries: looked up, not assumed
  const { setImmediate } = globalThis as { setImmediate?: (callback: () => void) => unknown };
  if (typeof setImmediate === 'function') {
    return { next: () => new Promise((resolve) => setImmediate(() => resolve())), close: () => {} };
  }
  if (typeof MessageChannel === 'undefined') {
    return { next: () => new Promise((resolve) => setTimeout(resolve, 0)), close: () => {} };
  }
  const channel = new MessageChannel();
  let pending: (() => void) | null = null;
  channel.port1.onmessage = () => {
    const resolve = pending;
    pending = null;
    resolve?.();
  };
  return {
    next: () =>
      new Promise<void>((resolve) => {
        pending = resolve;
        channel.port2.postMessage(null);
      }),
    close: () => {
      channel.port1.onmessage = null;
      channel.port1.close();
      channel.port2.close();
    },
  };
}

export async function mineBlockAsync(
  previous: Pick<Block, 'id' | 'hash'>, // the sandbox's parent may be a header only
  record: ChainRecord,
  timestamp: string,
  options: MiningJobOptions,
): Promise<MiningOutcome> {
  const { difficulty, onProgress, isCancelled = () => false, now = () => performance.now() } = options;
  const yieldEvery = options.yieldEvery ?? DEFAULT_YIELD_EVERY;
  const progressEveryMs = options.progressEveryMs ?? DEFAULT_PROGRESS_EVERY_MS;
  const startNonce = options.startNonce ?? 0;
  assertDifficulty(difficulty);
  if (!Number.isSafeInteger(yieldEvery) || yieldEvery < 1) {
    throw ledgerError('ValidationError', 'yieldEvery must be a whole number of attempts, at least 1');
  }
  if (!isValidNonce(startNonce)) throw ledgerError('ValidationError', 'startNonce must be a whole number, 0 or more');

  const template = blockTemplate(previous, record, timestamp);
  const search = createNonceSearch(template.prefixBytes, difficulty);
  const macrotask = createMacrotaskYield();
  const startedAt = now();
  let lastReportAt = startedAt;
  let nonce = startNonce;
  let attempts = 0;
  try {
    while (nonce <= Number.MAX_SAFE_INTEGER) {
      if (isCancelled()) return { block: null, attempts };
      const count = Math.min(yieldEvery, Number.MAX_SAFE_INTEGER - nonce + 1);
      const found = search.search(nonce, count);
      if (found >= 0) {
        attempts += found - nonce + 1;
        return { block: sealBlock(template, found, difficulty), attempts };
      }
      attempts += count;
      nonce += count;
      const at = now();
      if (onProgress && at - lastReportAt >= progressEveryMs) {
        lastReportAt = at;
        const elapsedMs = at - startedAt;
        onProgress({ attempts, elapsedMs, hashRate: elapsedMs > 0 ? (attempts * 1000) / elapsedMs : 0 });
      }
      await macrotask.next();
    }
    throw ledgerError('IntegrityError', `No nonce meets difficulty ${difficulty}`);
  } finally {
    macrotask.close();
  }
}

export interface RemineProgressReport extends MiningProgressReport {
  blocksMined: number;
}

// What re-mining hashes of a block besides its place: its time and its data hash. Re-mining works on headers, so
// a block whose record is not at hand (the sandbox's opaque copies of records the reader may not read) re-mines too.
export interface HeaderToMine {
  hash: string; // as held before re-mining: a later block naming it as a head is pointed at the new hash
  timestamp: string;
  dataHash: string;
  heads?: string[]; // a block with heads is re-mined with them (each one re-mined before it renamed)
}

// A re-mined block's new header fields; its record, time and data hash are the caller's.
export interface MinedHeader {
  id: string;
  previousHash: string;
  heads?: string[];
  hash: string;
  nonce: number;
}

export interface RemineOptions {
  difficulty: number;
  previousHash: string; // the hash of the block before the first one re-mined (GENESIS_PREVIOUS_HASH for a genesis block)
  headerOf: (index: number) => HeaderToMine; // read when block `index` is reached
  onBlock: (index: number, header: MinedHeader) => void; // each re-mined block, as soon as it is found
  onProgress?: (p: RemineProgressReport) => void;
  isCancelled?: () => boolean;
  yieldEvery?: number; // attempts between macrotask yields, counted across blocks
  now?: () => number; // milliseconds
  progressEveryMs?: number;
}

export interface RemineOutcome {
  blocksMined: number;
  attempts: number;
  cancelled: boolean;
}

// Re-mines blocks from..to-1 in order, each linked to the block re-mined before it, keeping every block's time
// and data hash. At difficulty 2 most blocks take a few hundred attempts, so the yield counts attempts across
// blocks, not per block: one macrotask every `yieldEvery` attempts lets a cancel (or a live edit) in. A cancel
// keeps the blocks re-mined so far.
export async function remineRange(from: number, to: number, options: RemineOptions): Promise<RemineOutcome> {
  const { difficulty, headerOf, onBlock, onProgress, isCancelled = () => false, now = () => performance.now() } = options;
  const yieldEvery = options.yieldEvery ?? DEFAULT_YIELD_EVERY;
  const progressEveryMs = options.progressEveryMs ?? DEFAULT_PROGRESS_EVERY_MS;
  assertDifficulty(difficulty);
  if (!Number.isSafeInteger(yieldEvery) || yieldEvery < 1) {
    throw ledgerError('ValidationError', 'yieldEvery must be a whole number of attempts, at least 1');
  }
  const macrotask = createMacrotaskYield();
  const startedAt = now();
  let lastReportAt = startedAt;
  let attempts = 0;
  let sinceYield = 0;
  let blocksMined = 0;
  let previousHash = options.previousHash;
  const progress = (): RemineProgressReport => {
    const elapsedMs = now() - startedAt;
    return { attempts, blocksMined, elapsedMs, hashRate: elapsedMs > 0 ? (attempts * 1000) / elapsedMs : 0 };
  };
  try {
    const renamed = new Map<string, string>(); // old hash -> re-mined hash, for the heads of later blocks
    for (let index = from; index < to; index++) {
      const header = headerOf(index);
      const { timestamp, dataHash } = header;
      // one head links to the block before, as a straight chain does; several are renamed where re-mined
      const heads =
        header.heads &&
        (header.heads.length === 1 ? [previousHash] : [...new Set(header.heads.map((head) => renamed.get(head) ?? head))].sort());
      if (heads) previousHash = heads[0];
      const prefix = heads
        ? headsHeaderPrefix(heads, timestamp, dataHash)
        : headerPrefix(index, previousHash, timestamp, dataHash);
      const search = createNonceSearch(encoder.encode(prefix), difficulty);
      let nonce = 0;
      for (;;) {
        if (sinceYield >= yieldEvery) {
          sinceYield = 0;
          const at = now();
          if (onProgress && at - lastReportAt >= progressEveryMs) {
            lastReportAt = at;
            onProgress(progress());
          }
          await macrotask.next();
          if (isCancelled()) return { blocksMined, attempts, cancelled: true };
        }
        const count = Math.min(yieldEvery - sinceYield, Number.MAX_SAFE_INTEGER - nonce + 1);
        if (count <= 0) throw ledgerError('IntegrityError', `No nonce meets difficulty ${difficulty}`);
        const found = search.search(nonce, count);
        const tried = found >= 0 ? found - nonce + 1 : count;
        attempts += tried;
        sinceYield += tried;
        if (found >= 0) {
          const hash = heads
            ? headsBlockHash(heads, timestamp, dataHash, found)
            : blockHash(index, previousHash, timestamp, dataHash, found);
          // the search and the header hash are separate SHA-256 code: a block is kept only when both agree
          if (!meetsDifficulty(hash, difficulty)) {
            throw ledgerError('IntegrityError', `Mining produced a hash that does not meet difficulty ${difficulty}`);
          }
          onBlock(index, { id: String(index), previousHash, ...(heads ? { heads } : {}), hash, nonce: found });
          renamed.set(header.hash, hash);
          previousHash = hash;
          blocksMined++;
          break;
        }
        nonce += count;
      }
    }
    return { blocksMined, attempts, cancelled: false };
  } finally {
    macrotask.close();
  }
}
