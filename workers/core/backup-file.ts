// The backup file (docs/decisions/backup-file.md): a CAR file whose first root is a small header block (format,
// PBKDF2 parameters, salt, and the chain with the document keys sealed by AES-256-GCM under the password's key:
// every block, or in a 'mine' backup the records its maker may read and the other blocks' headers),
// and whose other roots are the documents' content ids, each with the dag-pb blocks `ipfs add` makes of the
// encrypted bytes. `ipfs dag import` takes the same file, and each document's id resolves to its encrypted bytes.
// Loaded only when a backup or a restore runs (workers/ledger/backup-restore.ts imports it lazily).
import { CarReader, CarWriter } from '@ipld/car';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { importBytes } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { base64ToBytes, bytesToBase64 } from './base64';
import { partsSink } from './byte-parts';
import type { BackupScope } from '../api';
import { checkBlock, headerProblem } from './chain';
import { BACKUP_FORMAT, BACKUP_VERSION, IPFS_CHUNK_BYTES, IPFS_MAX_CHILDREN, MAX_BACKUP_ITERATIONS } from './constants';
import { ipfsAddDefaults } from './ipfs-add';
import { ledgerError } from './errors';
import { summaryKeysOf, type SummaryKey } from './sealed-fields';
import { IV_BYTES, SALT_BYTES, passwordKey, type PortableKeys } from './signatures';
import type { Block } from './types';

const SHA2_256 = 0x12;

// A block whose record its maker may not read: its header only, so the links and signatures still verify.
export type OpaqueBlock = Omit<Block, 'data'> & { opaque: true };
export type BackupBlock = Block | OpaqueBlock;

// 'browser': every user's wrapped key and the ledger key; 'mine': the maker's own wrapped key only.
export type BackupKeys = Omit<PortableKeys, 'ledger'> & { ledger?: PortableKeys['ledger'] };

// What the password seals: every block (whole, or its header only in a 'mine' backup) and the keys it may carry.
// A backup made before scopes has no `scope` and holds the whole browser.
export interface BackupContents {
  scope: BackupScope;
  blocks: BackupBlock[];
  keys: Record<string, string>; // document id -> AES-256 key (64 hex)
  signingKeys: BackupKeys; // the chain's signatures are these keys' (docs/decisions/restore-merges.md)
  summaryKeys?: SummaryKey[]; // the summary keys sealed records open with (absent in backups made before sealing)
}

export function isOpaque(block: BackupBlock): block is OpaqueBlock {
  return (block as Partial<OpaqueBlock>).opaque === true;
}

export function opaqueBlock({ data: _data, ...header }: Block): OpaqueBlock {
  return { ...header, opaque: true };
}

// The first block of a backup's chain whose header, link, hash or difficulty fails (a whole block's data hash
// too), or null; the rules and signatures are checked where the blocks are used.
export function backupChainProblem(blocks: readonly BackupBlock[], difficulty: number): { index: number; reason: string } | null {
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index];
    const previous = blocks[index - 1];
    const reason = isOpaque(block)
      ? opaqueProblem(block, index, previous, difficulty)
      : checkBlock(block, index, previous as Block, difficulty);
    if (reason !== null) return { index, reason };
  }
  return null;
}

function opaqueProblem(block: OpaqueBlock, index: number, previous: BackupBlock | undefined, difficulty: number): string | null {
  if (typeof block.timestamp !== 'string' || typeof block.dataHash !== 'string')
    return 'block is malformed (its header is not text)';
  return headerProblem(block, index, previous, difficulty, null);
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string; // ISO 8601
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: string }; // salt in base64
  cipher: { name: 'AES-GCM'; iv: string }; // iv in base64
  sealed: string; // base64 of the AES-GCM ciphertext (and tag) of the BackupContents JSON
}

function damaged(detail: string): never {
  throw ledgerError('ValidationError', `The backup file is damaged or incomplete: ${detail}. Nothing was replaced.`);
}

function notABackup(): never {
  throw ledgerError('ValidationError', 'This file is not a MedLedger backup. Nothing was replaced.');
}

export async function sealContents(
  contents: BackupContents,
  password: string,
  iterations: number,
  createdAt: string,
): Promise<BackupHeader> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await passwordKey(password, salt, iterations, ['encrypt']);
  const plain = new TextEncoder().encode(JSON.stringify(contents));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain));
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: bytesToBase64(salt) },
    cipher: { name: 'AES-GCM', iv: bytesToBase64(iv) },
    sealed: bytesToBase64(sealed),
  };
}

// The GCM tag checks the password: a wrong one never yields a chain.
export async function openContents(header: BackupHeader, password: string): Promise<BackupContents> {
  const salt = base64ToBytes(header.kdf.salt);
  const iv = base64ToBytes(header.cipher.iv);
  const sealed = base64ToBytes(header.sealed);
  if (!salt || !iv || !sealed) notABackup();
  const key = await passwordKey(password, salt, header.kdf.iterations, ['decrypt']);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed);
  } catch {
    throw ledgerError('ValidationError', 'The password is wrong: this backup cannot be opened with it. Nothing was replaced.');
  }
  let contents: Partial<BackupContents>;
  try {
    contents = JSON.parse(new TextDecoder().decode(plain)) as Partial<BackupContents>;
  } catch {
    notABackup();
  }
  if (contents === null || typeof contents !== 'object') notABackup();
  if (!Array.isArray(contents.blocks) || typeof contents.keys !== 'object' || contents.keys === null) notABackup();
  if (typeof contents.signingKeys !== 'object' || contents.signingKeys === null) notABackup();
  if (typeof contents.signingKeys.users !== 'object' || contents.signingKeys.users === null) notABackup();
  if (contents.blocks.some((block) => block === null || typeof block !== 'object')) notABackup();
  const scope = contents.scope ?? 'browser'; // made before scopes: the whole browser
  if (scope !== 'mine' && scope !== 'browser') notABackup();
  const summaryKeys = [...summaryKeysOf(contents.summaryKeys).values()];
  return { scope, blocks: contents.blocks, keys: contents.keys, signingKeys: contents.signingKeys, summaryKeys };
}

export async function headerBlock(header: BackupHeader): Promise<{ cid: CID; bytes: Uint8Array }> {
  const bytes = new TextEncoder().encode(JSON.stringify(header));
  return { cid: CID.create(1, raw.code, await sha256.digest(bytes)), bytes };
}

// A CAR writer whose output is collected as it is written (the writer waits for its reader).
export function createBackupWriter(header: { cid: CID; bytes: Uint8Array }, documentIds: string[]) {
  const { writer, out } = CarWriter.create([header.cid, ...documentIds.map((id) => CID.parse(id))]);
  const sink = partsSink();
  const collecting = (async () => {
    for await (const chunk of out) sink.push(chunk);
  })();
  const written = writer.put(header);
  return {
    // Adds the dag-pb blocks `ipfs add` makes of these encrypted bytes; refuses bytes whose id is not `expected`.
    async addDocument(stored: Uint8Array, expected: string): Promise<void> {
      const puts: Promise<void>[] = [];
      const { cid } = await importBytes(
        stored,
        {
          put: (blockCid, bytes) => {
            if (!(bytes instanceof Uint8Array)) throw new TypeError('the importer gave a block as a stream'); // it gives whole blocks
            puts.push(writer.put({ cid: blockCid, bytes }));
            return blockCid;
          },
        },
        ipfsAddDefaults(),
      );
      await Promise.all(puts);
      if (cid.toString() !== expected) {
        throw ledgerError('IntegrityError', `The stored bytes of document ${expected} do not match their content id.`);
      }
    },
    async finish(): Promise<ArrayBuffer[]> {
      await written;
      await writer.close();
      await collecting;
      return sink.finish();
    },
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

// Reads the CAR and checks every block against its CID before anything in it is used.
export async function readBackupFile(
  file: Uint8Array,
): Promise<{ header: BackupHeader; blocks: Map<string, Uint8Array>; documentIds: string[] }> {
  let reader: CarReader;
  try {
    reader = await CarReader.fromBytes(file);
  } catch {
    if (file.length > 0 && file[0] === 0x7b) notABackup(); // '{': a JSON file, e.g. a FHIR export
    damaged('it is not a whole CAR file');
  }
  const roots = await reader.getRoots();
  const blocks = new Map<string, Uint8Array>();
  try {
    for await (const { cid, bytes } of reader.blocks()) {
      if (cid.multihash.code !== SHA2_256 || !(cid.code === dagPb.code || cid.code === raw.code))
        damaged(`block ${cid} is of an unknown kind`);
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
      if (!sameBytes(digest, cid.multihash.digest)) damaged(`block ${cid} does not match its content id`);
      blocks.set(cid.toString(), bytes);
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'ValidationError') throw error;
    damaged('a block is cut short');
  }
  const headerBytes = roots[0] && roots[0].code === raw.code ? blocks.get(roots[0].toString()) : undefined;
  if (!headerBytes) notABackup();
  let header: BackupHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(headerBytes)) as BackupHeader;
  } catch {
    notABackup();
  }
  if (header?.format !== BACKUP_FORMAT) notABackup();
  if (header.version !== BACKUP_VERSION) {
    throw ledgerError(
      'ValidationError',
      `This backup is of version ${String(header.version)}, which this MedLedger does not read. Nothing was replaced.`,
    );
  }
  const iterations = header.kdf?.iterations;
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > MAX_BACKUP_ITERATIONS) notABackup();
  return { header, blocks, documentIds: roots.slice(1).map((root) => root.toString()) };
}

const BLOCKS_PER_SLICE = 8; // block reads between two macrotasks while a document is read

// What a document read out of a backup may cost, and how it lets the worker answer meanwhile.
export interface DocumentLimit {
  fileName: string; // named in the messages
  maxBytes: number; // the stored size the chain records for it: a DAG that holds or needs more is refused
  nextTask: () => Promise<void>; // a macrotask (core has no timers of its own)
}

// The blocks `ipfs add` makes of this many bytes (ipfsAddDefaults): the chunks, then each level of links above them.
function blocksOf(bytes: number): number {
  let level = Math.max(1, Math.ceil(bytes / IPFS_CHUNK_BYTES));
  let total = level;
  while (level > 1) {
    level = Math.ceil(level / IPFS_MAX_CHILDREN);
    total += level;
  }
  return total;
}

// One UnixFS node's own bytes and the links to its children, in order; throws on anything but a file's node.
function fileNode(cid: CID, bytes: Uint8Array): { data: Uint8Array; links: CID[]; size: bigint } {
  if (cid.code === raw.code) return { data: bytes, links: [], size: BigInt(bytes.length) };
  if (cid.code !== dagPb.code) throw new Error(`block ${cid.toString()} is of an unknown kind`);
  const node = dagPb.decode(bytes);
  const unixfs = UnixFS.unmarshal(node.Data ?? new Uint8Array());
  if (unixfs.type !== 'file' && unixfs.type !== 'raw') throw new Error(`block ${cid.toString()} is not a file's`);
  if (node.Links.length !== unixfs.blockSizes.length) throw new Error(`block ${cid.toString()} has sizes unlike its links`);
  return { data: unixfs.data ?? new Uint8Array(), links: node.Links.map((link) => link.Hash), size: unixfs.fileSize() };
}

// The encrypted bytes of one document: its UnixFS DAG read depth first, each read counted against the chain's size.
export async function assembleDocument(
  cid: string,
  blocks: ReadonlyMap<string, Uint8Array>,
  limit: DocumentLimit,
): Promise<Uint8Array> {
  const tooMuch = () =>
    ledgerError(
      'ValidationError',
      `The backup holds more for "${limit.fileName}" than the file its chain records. Nothing was replaced.`,
    );
  const budget = blocksOf(limit.maxBytes);
  const parts: Uint8Array[] = [];
  let total = 0;
  let reads = 0;
  try {
    const pending = [CID.parse(cid)]; // a stack: the next block to read is last
    while (pending.length > 0) {
      const next = pending.pop()!;
      reads += 1;
      if (reads % BLOCKS_PER_SLICE === 0) await limit.nextTask();
      const bytes = blocks.get(next.toString());
      if (!bytes) throw new Error(`block ${next.toString()} is missing`);
      const { data, links, size } = fileNode(next, bytes);
      if (reads === 1 && size > BigInt(limit.maxBytes)) throw tooMuch();
      parts.push(data);
      total += data.length;
      if (total > limit.maxBytes || reads + pending.length + links.length > budget) throw tooMuch();
      pending.push(...links.reverse());
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'ValidationError') throw error;
    damaged(`the blocks of "${limit.fileName}" cannot be read`);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
