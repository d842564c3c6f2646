// The records chain: canonical record hashing, the compact block header, mining and verification
// (docs/decisions/sha256-chain.md, chain-verification.md).
import { sha256 } from 'js-sha256';
import { DIFFICULTY } from './constants';
import { ledgerError } from './errors';
import { MAX_DIFFICULTY, createNonceSearch, isValidDifficulty, isValidNonce } from './nonce-search';
import { storedValueText } from './record-format';
import { authorOf } from './signatures';
import { sha256Hex } from './sha256';
import type { Block, ChainRecord } from './types';

export const GENESIS_PREVIOUS_HASH = '0'.repeat(64);

export interface VerifyResult {
  valid: boolean;
  height: number;
  firstInvalid?: { index: number; reason: string };
}

const encoder = new TextEncoder();

// Attempts per synchronous search call in mineBlock: large enough to amortise the call, any value is correct.
const SYNC_CHUNK = 1 << 20;

// JSON with object keys sorted at every level, so the same record hashes the same after IndexedDB or
// structured clone reorders its keys. JSON.stringify with a key list writes every object's keys in the
// list's order (and skips the absent ones), so the sorted union of all keys gives canonical JSON natively.
// Blocks store their record already sorted (see blockTemplate), so verification mostly takes the fast path:
// plain JSON.stringify, about 3x quicker than with a key list.
export function canonicalJson(value: unknown): string {
  if (keysSorted(value)) return JSON.stringify(value) ?? 'null';
  const keys: string[] = [];
  collectKeys(value, keys);
  // a key list makes JSON.stringify read inherited properties too: a "__proto__" key would write the prototype
  if (keys.includes('__proto__')) return sortedJson(value) ?? 'null';
  return JSON.stringify(value, keys.sort()) ?? 'null';
}

// Canonical JSON written out key by key: only for the rare value with a "__proto__" key (canonicalJson).
function sortedJson(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => sortedJson(item) ?? 'null').join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .flatMap((key) => {
      const text = sortedJson((value as Record<string, unknown>)[key]);
      return text === undefined ? [] : [`${JSON.stringify(key)}:${text}`];
    });
  return `{${entries.join(',')}}`;
}

// True when every object's own keys enumerate in sorted order (integer-like keys enumerate first, so an
// object holding them usually fails here and takes the key-list path).
function keysSorted(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!keysSorted(item)) return false;
    return true;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1] < keys[i])) return false;
    if (!keysSorted((value as Record<string, unknown>)[keys[i]])) return false;
  }
  return true;
}

function collectKeys(value: unknown, keys: string[]): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectKeys(item, keys);
    return;
  }
  for (const key of Object.keys(value)) {
    keys.push(key); // duplicates are harmless: JSON.stringify ignores repeats in the key list
    collectKeys((value as Record<string, unknown>)[key], keys);
  }
}

// UTF-8 of `text` in a reused buffer, valid until the next call: verification hashes 2 strings per block
// and a fresh Uint8Array for each costs more than the hashing of the header.
let scratch = new Uint8Array(4096);
function utf8(text: string): Uint8Array {
  if (text.length * 3 > scratch.length) scratch = new Uint8Array(text.length * 3);
  return scratch.subarray(0, encoder.encodeInto(text, scratch).written);
}

export function recordDataHash(record: ChainRecord): string {
  return sha256Hex(utf8(canonicalJson(record)));
}

// The mined header is index|previousHash|timestamp|dataHash|nonce (about 160 bytes of UTF-8); this is
// everything before the nonce's decimal digits.
export function headerPrefix(index: number, previousHash: string, timestamp: string, dataHash: string): string {
  return `${index}|${previousHash}|${timestamp}|${dataHash}|`;
}

// The header of a block that names its heads: dag|heads|timestamp|dataHash|nonce, its place not included.
export function headsHeaderPrefix(heads: readonly string[], timestamp: string, dataHash: string): string {
  return `dag|${heads.join(',')}|${timestamp}|${dataHash}|`;
}

export function headsBlockHash(heads: readonly string[], timestamp: string, dataHash: string, nonce: number): string {
  return sha256Hex(utf8(headsHeaderPrefix(heads, timestamp, dataHash) + String(nonce)));
}

function headerBytes(index: number, previousHash: string, timestamp: string, dataHash: string, nonce: number): Uint8Array {
  return utf8(headerPrefix(index, previousHash, timestamp, dataHash) + String(nonce));
}

export function blockHash(index: number, previousHash: string, timestamp: string, dataHash: string, nonce: number): string {
  return sha256Hex(headerBytes(index, previousHash, timestamp, dataHash, nonce));
}

export function meetsDifficulty(hash: string, difficulty: number): boolean {
  if (typeof hash !== 'string' || hash.length < difficulty) return false;
  for (let i = 0; i < difficulty; i++) if (hash.charCodeAt(i) !== 48) return false;
  return true;
}

export function assertDifficulty(difficulty: number): void {
  if (!isValidDifficulty(difficulty)) {
    throw ledgerError('ValidationError', `Difficulty must be a whole number from 0 to ${MAX_DIFFICULTY}`);
  }
}

// Everything mining needs for one new block; the nonce search works on `prefixBytes`.
export interface BlockTemplate {
  index: number;
  previousHash: string;
  heads?: string[]; // a block that names its heads hashes them instead of its index
  timestamp: string;
  dataHash: string;
  record: ChainRecord;
  prefixBytes: Uint8Array;
}

// The record as hashed: the canonical JSON read back, keys sorted, undefined fields gone.
function canonicalRecord(record: ChainRecord): { dataHash: string; record: ChainRecord } {
  if (record === null || typeof record !== 'object') throw ledgerError('ValidationError', 'A block needs a record');
  const canonical = canonicalJson(record);
  return { dataHash: sha256Hex(utf8(canonical)), record: JSON.parse(canonical) as ChainRecord };
}

// A block in a straight chain: its header hashes its index and the block before it (the genesis, the sandbox's
// chains, and every block written before devices synced).
export function blockTemplate(
  previous: Pick<Block, 'id' | 'hash'> | null,
  record: ChainRecord,
  timestamp: string,
): BlockTemplate {
  const canonical = canonicalRecord(record);
  let index = 0;
  let previousHash = GENESIS_PREVIOUS_HASH;
  if (previous) {
    index = Number(previous.id) + 1;
    if (!Number.isSafeInteger(index) || index < 1 || previous.id !== String(index - 1)) {
      throw ledgerError('ValidationError', 'The previous block has no valid index');
    }
    previousHash = previous.hash;
  }
  const prefixBytes = encoder.encode(headerPrefix(index, previousHash, timestamp, canonical.dataHash));
  return { index, previousHash, timestamp, ...canonical, prefixBytes };
}

// A block of the records chain: its header hashes the heads its author saw, not its place, so the same block keeps
// its hash wherever a merge with another device's blocks puts it (docs/decisions/one-ledger-across-devices.md).
export function childTemplate(heads: readonly string[], index: number, record: ChainRecord, timestamp: string): BlockTemplate {
  const sorted = [...new Set(heads)].sort();
  if (sorted.length === 0 || !sorted.every(isHash))
    throw ledgerError('ValidationError', 'A block must name the heads it follows');
  if (!Number.isSafeInteger(index) || index < 1) throw ledgerError('ValidationError', 'The new block has no valid place');
  const canonical = canonicalRecord(record);
  const prefixBytes = encoder.encode(headsHeaderPrefix(sorted, timestamp, canonical.dataHash));
  return { index, previousHash: sorted[0], heads: sorted, timestamp, ...canonical, prefixBytes };
}

const HASH = /^[0-9a-f]{64}$/;
export function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH.test(value);
}

// Builds the block for a nonce the search found. The hash is recomputed with js-sha256, independent of
// the fast SHA-256 in sha256.ts: a block is only sealed when both implementations agree.
export function sealBlock(template: BlockTemplate, nonce: number, difficulty: number): Block {
  const { index, previousHash, heads, timestamp, dataHash, record } = template;
  const bytes = heads
    ? utf8(headsHeaderPrefix(heads, timestamp, dataHash) + String(nonce))
    : headerBytes(index, previousHash, timestamp, dataHash, nonce);
  const hash = sha256.hex(bytes);
  if (hash !== sha256Hex(bytes) || !meetsDifficulty(hash, difficulty)) {
    throw ledgerError('IntegrityError', `Mining produced a hash that does not meet difficulty ${difficulty}`);
  }
  return {
    id: String(index),
    hash,
    previousHash,
    ...(heads ? { heads } : {}),
    timestamp,
    dataHash,
    data: record,
    nonce,
    author: authorOf(record),
    signature: '',
  };
}

function mineTemplate(template: BlockTemplate, difficulty: number): Block {
  assertDifficulty(difficulty);
  const search = createNonceSearch(template.prefixBytes, difficulty);
  for (let start = 0; start <= Number.MAX_SAFE_INTEGER; start += SYNC_CHUNK) {
    const nonce = search.search(start, SYNC_CHUNK);
    if (nonce >= 0) return sealBlock(template, nonce, difficulty);
  }
  throw ledgerError('IntegrityError', `No nonce meets difficulty ${difficulty}`);
}

export function createGenesisBlock(record: ChainRecord, timestamp: string, difficulty: number = DIFFICULTY): Block {
  return mineTemplate(blockTemplate(null, record, timestamp), difficulty);
}

// Synchronous: fine at difficulty 2 (about 256 attempts); the lab uses mineBlockAsync.
export function mineBlock(previous: Block, record: ChainRecord, timestamp: string, difficulty: number = DIFFICULTY): Block {
  return mineTemplate(blockTemplate(previous, record, timestamp), difficulty);
}

// A records-chain block after `heads`, numbered `index` for now (the order decides its place).
export function mineChild(
  heads: readonly string[],
  index: number,
  record: ChainRecord,
  timestamp: string,
  difficulty: number = DIFFICULTY,
): Block {
  return mineTemplate(childTemplate(heads, index, record, timestamp), difficulty);
}

// The header fields a block is hashed and linked by.
export type BlockHeader = Pick<Block, 'id' | 'hash' | 'previousHash' | 'heads' | 'timestamp' | 'dataHash' | 'nonce'>;

// The hash a header should have at place `index`: a block with heads hashes them, any other its index and link.
export function headerHash(header: BlockHeader, index: number): string {
  return header.heads !== undefined
    ? headsBlockHash(header.heads, header.timestamp, header.dataHash, header.nonce)
    : blockHash(index, header.previousHash, header.timestamp, header.dataHash, header.nonce);
}

// The first check a header fails at place `index` after `previous`, or null: id, link or heads, the record's
// data check (`dataProblem`, decided by the caller: a reader's copy may hold only the header), nonce, time,
// hash and difficulty. That a block's heads come before it is the order's check (projection.ts verifyLedger).
export function headerProblem(
  header: BlockHeader,
  index: number,
  previous: Pick<Block, 'hash'> | undefined,
  difficulty: number,
  dataProblem: string | null,
): string | null {
  if (header.id !== String(index)) return `id "${storedValueText(header.id)}" does not match index ${index}`;
  if (header.heads !== undefined) {
    const heads: unknown = header.heads;
    if (index === 0) return 'the genesis block names heads';
    if (!Array.isArray(heads) || heads.length === 0 || !heads.every(isHash)) return 'heads are not a list of block hashes';
    for (let i = 1; i < heads.length; i++) if (!(heads[i - 1] < heads[i])) return 'heads are not sorted and distinct';
    if (header.previousHash !== heads[0]) return 'previousHash is not the first head';
  } else if (index === 0) {
    if (header.previousHash !== GENESIS_PREVIOUS_HASH) return 'previousHash of the genesis block is not 64 zeros';
  } else if (!previous || header.previousHash !== previous.hash) {
    return `previousHash does not match block ${index - 1}`;
  }
  if (dataProblem !== null) return dataProblem;
  if (!isValidNonce(header.nonce)) return 'nonce is not a whole number';
  // the header writes the timestamp as text: ["T"] would hash like "T", so the type is checked too
  if (typeof header.timestamp !== 'string') return 'timestamp is not text';
  if (headerHash(header, index) !== header.hash) return 'hash does not match the block header';
  if (!meetsDifficulty(header.hash, difficulty)) return `hash does not meet difficulty ${difficulty}`;
  return null;
}

// Why a block's record fails its data hash, or null.
export function dataProblemOf(block: Pick<Block, 'data' | 'dataHash'>): string | null {
  if (block.data === null || typeof block.data !== 'object') return 'block is malformed (no record data)';
  try {
    return recordDataHash(block.data) === block.dataHash ? null : 'record data was changed (data hash mismatch)';
  } catch {
    return 'block is malformed (its record holds a value JSON cannot hold)'; // a BigInt or a cycle, which IndexedDB stores
  }
}

// The first check block `index` fails, or null. `previous` is the block before it (ignored for index 0).
export function checkBlock(
  block: Block,
  index: number,
  previous: Pick<Block, 'hash'> | undefined,
  difficulty: number,
): string | null {
  if (block === null || typeof block !== 'object' || block.data === null || typeof block.data !== 'object') {
    return 'block is malformed (no record data)';
  }
  return headerProblem(block, index, previous, difficulty, dataProblemOf(block));
}

export function verifyChain(blocks: readonly Block[], difficulty: number = DIFFICULTY): VerifyResult {
  return verifyChainFrom(blocks, 0, difficulty);
}

// Checks blocks[fromIndex..] on the assumption that blocks[0..fromIndex) were verified before; the link of
// blocks[fromIndex] to the block before it is checked too.
export function verifyChainFrom(blocks: readonly Block[], fromIndex: number, difficulty: number = DIFFICULTY): VerifyResult {
  assertDifficulty(difficulty);
  if (!Number.isSafeInteger(fromIndex) || fromIndex < 0) {
    throw ledgerError('ValidationError', 'Verification must start at a block index of 0 or more');
  }
  const height = blocks.length;
  if (height === 0) return { valid: false, height, firstInvalid: { index: 0, reason: 'the chain has no genesis block' } };
  for (let index = fromIndex; index < height; index++) {
    const reason = checkBlock(blocks[index], index, blocks[index - 1], difficulty);
    if (reason !== null) return { valid: false, height, firstInvalid: { index, reason } };
  }
  return { valid: true, height };
}
