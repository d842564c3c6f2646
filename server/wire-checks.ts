// Shape checks of what devices send the server (workers/core/sync-protocol.ts): a peer's value is untrusted until checked here.
import { isValidAutomergeUrl } from '@automerge/automerge-repo';
import {
  SYNC_PROTOCOL_VERSION,
  type FileEntry,
  type JoinRequest,
  type RemoveDeviceRequest,
  type SyncedKeys,
} from '../workers/core/sync-protocol';
import { isKeyWrap, wrapId, type KeyWrap, type ReleaseRequest, type SummaryReleaseRequest } from '../workers/core/key-wraps';
import type { KeyEnrolment } from '../workers/core/types';

const HASH = /^[0-9a-f]{64}$/;
const EPOCH_ID = /^[0-9a-f]{32}$/; // a summary-key epoch (workers/core/key-wraps.ts summaryEpochId)
export const MAX_NAME_CHARS = 200; // a device's name or id as the ledger document keeps it
const MAX_WRAP_BYTES = 4 * 1024; // a wrap is about 500 bytes of JSON

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isShortText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME_CHARS;
}

export function isBlockHash(value: unknown): value is string {
  return typeof value === 'string' && HASH.test(value);
}

// The join request, or the reason it is not one.
export function joinRequestOf(value: unknown): JoinRequest | string {
  if (!isRecord(value)) return 'the request is not a JSON object';
  if (value.protocol !== SYNC_PROTOCOL_VERSION) return `this server speaks sync protocol ${SYNC_PROTOCOL_VERSION}`;
  if (!isShortText(value.name)) return 'name is missing or too long';
  const proof = value.proof;
  if (!isRecord(proof)) return 'the proof is missing';
  if (!isShortText(proof.deviceId)) return 'deviceId is missing or too long';
  if (!isShortText(proof.userId)) return 'userId is missing or too long';
  if (!isBlockHash(proof.genesis)) return 'genesis is not a block hash';
  if (!isShortText(proof.challenge) || !isShortText(proof.signature)) return 'the challenge or signature is missing';
  const seed = value.seed;
  if (seed !== undefined && (!isRecord(seed) || !isRecord(seed.keys))) return 'the seed is malformed';
  return {
    protocol: value.protocol,
    name: value.name,
    proof: {
      deviceId: proof.deviceId,
      userId: proof.userId,
      genesis: proof.genesis,
      challenge: proof.challenge,
      signature: proof.signature,
    },
    ...(isRecord(seed) ? { seed: { genesis: seed.genesis, keys: seed.keys as unknown as SyncedKeys } } : {}),
  };
}

// The device document a proven device names, or the reason it is not one.
export function deviceUrlOf(value: unknown): string {
  return isRecord(value) && typeof value.deviceUrl === 'string' && isValidAutomergeUrl(value.deviceUrl) ? value.deviceUrl : '';
}

// The release request, of a document's key or of a summary key's epoch, or the reason it is not one.
export function releaseRequestOf(value: unknown): ReleaseRequest | SummaryReleaseRequest | string {
  if (!isRecord(value)) return 'the request is not a JSON object';
  if (!isShortText(value.grantId)) return 'grantId is missing or too long';
  if (!isBlockHash(value.readBlock)) return 'readBlock is not a block hash';
  if (value.documentId !== undefined && value.epochId !== undefined) return 'the request names a document and an epoch';
  if (value.epochId !== undefined) {
    if (typeof value.epochId !== 'string' || !EPOCH_ID.test(value.epochId)) return 'epochId is not a summary-key epoch';
    return { grantId: value.grantId, epochId: value.epochId, readBlock: value.readBlock };
  }
  if (!isShortText(value.documentId)) return 'documentId is missing or too long';
  return { grantId: value.grantId, documentId: value.documentId, readBlock: value.readBlock };
}

// The device a proven device asks to remove (POST /api/remove-device), or the reason the request names none.
export function removeRequestOf(value: unknown): RemoveDeviceRequest | string {
  if (!isRecord(value)) return 'the request is not a JSON object';
  if (!isShortText(value.deviceId)) return `deviceId is missing or longer than ${MAX_NAME_CHARS} characters`;
  return { deviceId: value.deviceId };
}

// A device's wrap entry as a KeyWrap stored under its own wrapId, or null.
export function wrapEntryOf(key: string, bytes: unknown): KeyWrap | null {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength > MAX_WRAP_BYTES) return null;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  return isKeyWrap(value) && wrapId(value) === key ? value : null;
}

export function isFileEntry(value: unknown): value is FileEntry {
  return (
    isRecord(value) &&
    typeof value.cid === 'string' &&
    value.cid.length <= MAX_NAME_CHARS &&
    typeof value.url === 'string' &&
    isValidAutomergeUrl(value.url) &&
    Number.isSafeInteger(value.size) &&
    (value.size as number) >= 0 &&
    (value.chunks === undefined ||
      (Array.isArray(value.chunks) && value.chunks.every((url) => typeof url === 'string' && isValidAutomergeUrl(url))))
  );
}

// The seeding device's keys when they are well-formed and are the ones its genesis enrolled, else null.
export function syncedKeysOf(bytes: unknown, enrolment: KeyEnrolment | undefined): SyncedKeys | null {
  if (!(bytes instanceof Uint8Array) || !enrolment) return null;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (!isRecord(value) || value.algorithm !== 'Ed25519' || !isRecord(value.users) || !isRecord(value.ledger)) return null;
  if (value.ledger.publicKey !== enrolment.ledger) return null;
  const users = Object.entries(value.users);
  const enrolled = Object.entries(enrolment.users);
  const sameUsers =
    users.length === enrolled.length &&
    users.every(([id, key]) => isRecord(key) && typeof key.wrappedKey === 'string' && key.publicKey === enrolment.users[id]);
  return sameUsers ? (value as unknown as SyncedKeys) : null;
}
