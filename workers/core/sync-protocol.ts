// What devices and the sync server exchange through Automerge-repo (docs/decisions/one-ledger-across-devices.md).
// Plain shapes only: the worker's sync module and the server both read and write them.
import type { KeyWrap } from './key-wraps';
import type { DeviceProof } from './sync-proof';
import type { Block } from './types';

export const SYNC_PROTOCOL_VERSION = 2; // 2: a device proves its user's enrolled key before it opens anything
export const DEFAULT_SYNC_PORT = 3030; // `npm start` runs the sync server on 127.0.0.1 here
export const MAX_SYNC_MESSAGE_BYTES = 16 * 1024 * 1024; // the server drops a larger WebSocket message
export const MAX_SYNC_FILE_BYTES = 10 * 1024 * 1024 + 64 * 1024; // a file's encrypted bytes: 10 MB + IV and tag, with room
export const FILE_CHUNK_BYTES = 1024 * 1024; // a larger file travels in chunk documents of this size: its arrival can be counted

// Blocks travel as UTF-8 JSON bytes (a scalar in Automerge: never collaborative text), keyed by their hash.
export type EncodedBlocks = Record<string, Uint8Array>;

// Document keys travel wrapped (core/key-wraps.ts): UTF-8 JSON of one KeyWrap, keyed by wrapId.
export type EncodedWraps = Record<string, Uint8Array>;

// One stored file's encrypted bytes, in a document of its own so the ledger document stays small.
export interface FileDoc {
  kind: 'medledger-file';
  cid: string; // IPFS content id of `bytes`, checked on arrival
  bytes: Uint8Array;
}

// One FILE_CHUNK_BYTES slice of a larger file's encrypted bytes (the last one shorter); the content id is checked
// over the whole file once every chunk is here (docs/decisions/one-ledger-across-devices.md).
export interface FileChunkDoc {
  kind: 'medledger-file-chunk';
  cid: string; // the whole file's content id
  index: number; // its place in the entry's `chunks`
  bytes: Uint8Array;
}

export interface FileEntry {
  cid: string;
  url: string; // the Automerge URL of its FileDoc; for a file in chunks, of its first chunk
  size: number; // bytes of the encrypted file
  chunks?: string[]; // a file larger than FILE_CHUNK_BYTES: the Automerge URLs of its FileChunkDocs, in order
}

// Written only by its device, and opened by no other: the server reads it and never writes it.
export interface DeviceDoc {
  kind: 'medledger-device';
  version: number;
  deviceId: string;
  name: string;
  genesis: string; // hash of block 0: the ledger this device holds
  blocks: EncodedBlocks;
  files: Record<string, FileEntry>; // by document id
  keys?: Uint8Array; // UTF-8 JSON of SyncedKeys: only the device that seeds a new server sends them
  wraps?: EncodedWraps; // the document keys this device holds, wrapped to their readers (absent in older documents)
  tip: string; // hash of its newest block in the order
  height: number;
  seenAt: string; // ISO 8601, updated while connected
  refused?: Record<string, string>; // written by servers of protocol 1; read by nobody now
}

export interface DeviceSummary {
  userId?: string; // the user who proved this device (absent in older documents): a device removes only its own user's
  name: string;
  tip: string;
  height: number;
  seenAt: string;
  refusedDropped?: number; // refusals of this device dropped, oldest first, beyond the number kept
  waitingDropped?: number; // blocks of this device dropped after waiting too long for a block they name
  limit?: string; // why the server refuses this device's new data now (a limit it reached), if it does
}

export interface RefusedBlock {
  reason: string;
  deviceId: string;
  at: string; // ISO 8601
}

// Written only by the server, from what it verified and stored in its own files; every proven device may open it,
// and a change a device sends to it is dropped.
export interface LedgerDoc {
  kind: 'medledger-ledger';
  version: number;
  genesis: string;
  blocks: EncodedBlocks;
  files: Record<string, FileEntry>;
  keys: Uint8Array; // UTF-8 JSON of SyncedKeys
  wraps?: EncodedWraps; // checked wraps copied from the devices (absent in older documents)
  devices: Record<string, DeviceSummary>;
  refused: Record<string, RefusedBlock>;
}

// The users' keys as they travel: public keys and private keys wrapped under each user's password (as a
// backup carries them). The ledger's private key never travels.
export interface SyncedKeys {
  algorithm: 'Ed25519';
  users: Record<string, unknown>; // user id -> WrappedUserKey (core/signatures.ts)
  ledger: { publicKey: string };
}

// GET /api/ledger, open to anyone: which ledger this is, and nothing to open or write it with.
export interface LedgerInfo {
  protocol: number;
  genesis: string | null; // null until the first device joins
  height: number;
  serverTime: string; // ISO 8601: a device compares its clock
}

// GET /api/adopt: what a device holding only the untouched demo ledger needs to sign in to this one (its genesis and
// the users' keys, private halves wrapped under their passwords), before it can prove anything.
export interface AdoptAnswer {
  genesis: unknown; // the genesis block, verified by the device
  keys: SyncedKeys;
}

// POST /api/challenge: a one-time challenge the device signs in its join.
export interface ChallengeAnswer {
  challenge: string;
}

// POST /api/release, asked with a ReleaseRequest or a SummaryReleaseRequest (core/key-wraps.ts): the care network's
// wrap of a document's key (under an active full grant) or of an epoch's summary key (either level), re-wrapped to its doctor.
export type ReleaseAnswer = { ok: true; wrap: KeyWrap } | { ok: false; reason: string };

// POST /api/join: the proof of the signed-in user's key; the device that seeds an empty server sends the genesis
// block and the keys it enrols.
export interface JoinRequest {
  protocol: number;
  name: string;
  proof: DeviceProof; // its genesis and deviceId name the ledger and the device
  seed?: { genesis: unknown; keys: SyncedKeys };
}
// session: the bearer of this device's proof, for the WebSocket (?session=) and the other calls (Authorization)
export type JoinAnswer =
  | { ok: true; session: string; ledgerUrl: string; genesis: string; careNetworkKey: string; serverTime: string }
  | { ok: false; reason: string; retry?: true; removed?: true }; // removed: this device id was removed, join under a new one

// POST /api/device, with the session: the device's DeviceDoc, which the server then reads.
// retry: the refusal is passing (the server has not received the device document yet): ask again shortly
export type DeviceAnswer = { ok: true } | { ok: false; reason: string; retry?: true };

// POST /api/remove-device, with the session: a device of the same user (or this one) loses its place on the server.
// The blocks, files and wraps it sent stay; its session ends and a join under its id is refused.
export interface RemoveDeviceRequest {
  deviceId: string;
}
export type RemoveDeviceAnswer = { ok: true } | { ok: false; reason: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function encodeBlock(block: Block): Uint8Array {
  return encoder.encode(JSON.stringify(block));
}

export function encodeWrap(wrap: KeyWrap): Uint8Array {
  return encoder.encode(JSON.stringify(wrap));
}

// Whatever a peer sent, as a value the verifier can check (never throws): undefined when it is not JSON.
export function decodeBlock(bytes: unknown): unknown {
  if (!(bytes instanceof Uint8Array)) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}
