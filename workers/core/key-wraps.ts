// Document keys travel wrapped to a reader's enrolled encryption key (docs/decisions/document-keys-travel-wrapped.md):
// ECDH P-256 with a fresh key per wrap, HKDF-SHA-256, AES-256-GCM. Pure: no storage, randomness from WebCrypto.
import { careConsentOf, isGrantActive } from './access';
import { base64ToBytes, bytesToBase64 } from './base64';
import type { GrantState, LedgerState } from './ledger-state';
import type { KeyWrap } from './types';

export type { KeyWrap } from './types'; // defined with the records that carry wraps, which import nothing

export const ENCRYPTION_ALGORITHM = { name: 'ECDH', namedCurve: 'P-256' } as const;
export const CARE_NETWORK = 'care-network'; // the recipient id of the sync server's emergency key
const WRAP_PREFIX = 'medledger-key-wrap'; // a wrap's derived key and tag can never be mistaken for anything else's
const IV_BYTES = 12;
const KEY_HEX = /^[0-9a-f]{64}$/;
const P256_PUBLIC_KEY = /^B[A-Za-z0-9+/]{86}=$/; // 65 bytes (0x04, x, y) in base64

export interface Recipient {
  id: string;
  publicKey: string; // base64 raw P-256 public key, as enrolled
}

// The care network's key pair as the sync server keeps it: the private half as base64 pkcs8, on its disk only.
export interface CareNetworkKey {
  publicKey: string;
  privateKey: string;
}

const encoder = new TextEncoder();

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const bytes = base64ToBytes(text);
  if (!bytes) throw new Error('The text is not base64.');
  return bytes;
}

function keyBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function keyHex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

// One wrap per document and reader: a wrap made again for them replaces the last (it opens to the same key).
export function wrapId(wrap: Pick<KeyWrap, 'documentId' | 'to'>): string {
  return `${wrap.documentId}|${wrap.to}`;
}

export function isEncryptionPublicKey(value: unknown): value is string {
  return typeof value === 'string' && P256_PUBLIC_KEY.test(value);
}

export function isKeyWrap(value: unknown): value is KeyWrap {
  const wrap = value as Partial<Record<keyof KeyWrap, unknown>> | null;
  return (
    typeof wrap === 'object' &&
    wrap !== null &&
    (['documentId', 'cid', 'to', 'from', 'iv', 'wrapped'] as const).every(
      (field) => typeof wrap[field] === 'string' && (wrap[field] as string).length <= 200,
    ) &&
    isEncryptionPublicKey(wrap.ephemeralPublicKey)
  );
}

// A new ECDH pair: the private half extractable only so createUserKey can wrap it under the password.
export function createEncryptionKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(ENCRYPTION_ALGORITHM, true, ['deriveBits']) as Promise<CryptoKeyPair>;
}

export async function exportEncryptionPublicKey(key: CryptoKey): Promise<string> {
  return bytesToBase64(new Uint8Array(await crypto.subtle.exportKey('raw', key)));
}

function importEncryptionPublicKey(publicKey: string): Promise<CryptoKey> {
  if (!isEncryptionPublicKey(publicKey)) throw new Error('The key is not a P-256 public key.');
  return crypto.subtle.importKey('raw', fromBase64(publicKey), ENCRYPTION_ALGORITHM, false, []);
}

// The additional data and HKDF info of a wrap: the document, its content and the recipient are bound to it.
function context(documentId: string, cid: string, to: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${WRAP_PREFIX}|${documentId}|${cid}|${to}`);
}

async function wrapAesKey(
  privateKey: CryptoKey,
  publicKey: CryptoKey,
  ephemeralPublicKey: string,
  info: Uint8Array<ArrayBuffer>,
  usage: 'encrypt' | 'decrypt',
): Promise<CryptoKey> {
  const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256);
  const material = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: fromBase64(ephemeralPublicKey), info },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  );
}

// The 32 key bytes of `keyHex` sealed to `recipient` under the context `bound`: the shared part of every wrap.
async function sealKeyTo(
  bound: Uint8Array<ArrayBuffer>,
  keyHex: string,
  recipient: Recipient,
): Promise<Pick<KeyWrap, 'ephemeralPublicKey' | 'iv' | 'wrapped'>> {
  const recipientKey = await importEncryptionPublicKey(recipient.publicKey);
  const ephemeral = await createEncryptionKeyPair();
  const ephemeralPublicKey = await exportEncryptionPublicKey(ephemeral.publicKey);
  const aes = await wrapAesKey(ephemeral.privateKey, recipientKey, ephemeralPublicKey, bound, 'encrypt');
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const wrapped = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bound }, aes, keyBytes(keyHex));
  return { ephemeralPublicKey, iv: bytesToBase64(iv), wrapped: bytesToBase64(new Uint8Array(wrapped)) };
}

// The key (64 hex) a wrap made under the context `bound` holds, or null when the tag does not hold.
async function openKey(wrap: KeyWrap, bound: Uint8Array<ArrayBuffer>, privateKey: CryptoKey): Promise<string | null> {
  try {
    const ephemeral = await importEncryptionPublicKey(wrap.ephemeralPublicKey);
    const aes = await wrapAesKey(privateKey, ephemeral, wrap.ephemeralPublicKey, bound, 'decrypt');
    const iv = fromBase64(wrap.iv);
    if (iv.length !== IV_BYTES) return null;
    const plain = new Uint8Array(
      await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: bound }, aes, fromBase64(wrap.wrapped)),
    );
    return plain.length === 32 ? keyHex(plain) : null;
  } catch {
    return null; // the tag does not hold: not this key's wrap, or changed on the way
  }
}

// `encryptionKeyHex` (64 hex) wrapped to `recipient`; throws when the key or the recipient's public key is malformed.
export async function wrapKey(
  documentId: string,
  cid: string,
  encryptionKeyHex: string,
  recipient: Recipient,
  from: string,
): Promise<KeyWrap> {
  const hex = encryptionKeyHex.toLowerCase();
  if (!KEY_HEX.test(hex)) throw new Error('A document key is 64 hex digits.');
  const sealed = await sealKeyTo(context(documentId, cid, recipient.id), hex, recipient);
  return { documentId, cid, to: recipient.id, from, ...sealed };
}

// The document key (64 hex) a wrap holds, or null: another recipient's key, a changed field, another content id.
export async function unwrapKey(wrap: unknown, privateKey: CryptoKey, expectedCid?: string): Promise<string | null> {
  if (!isKeyWrap(wrap) || (expectedCid !== undefined && wrap.cid !== expectedCid)) return null;
  return openKey(wrap, context(wrap.documentId, wrap.cid, wrap.to), privateKey);
}

// A patient's summary key travels in the same KeyWrap shape, so the wire (sync-protocol.ts) carries it unchanged:
// its `documentId` is `summary-key:<patient>:<epoch>` and its `cid` the epoch id (docs/decisions/nothing-medical-in-clear.md).
const SUMMARY_SUBJECT = 'summary-key:';
const SUMMARY_WRAP_PREFIX = 'medledger-summary-key-wrap'; // never the context of a document's wrap
const EPOCH_ID = /^[0-9a-f]{32}$/;

export function summaryKeySubject(patientId: string, epochId: string): string {
  return `${SUMMARY_SUBJECT}${patientId}:${epochId}`;
}

// The patient and epoch a summary-key wrap names, or null when it is a document's wrap (or malformed).
export function summaryWrapOf(wrap: unknown): { patientId: string; epochId: string } | null {
  if (!isKeyWrap(wrap) || !wrap.documentId.startsWith(SUMMARY_SUBJECT)) return null;
  const rest = wrap.documentId.slice(SUMMARY_SUBJECT.length);
  const colon = rest.lastIndexOf(':');
  const patientId = rest.slice(0, colon);
  const epochId = rest.slice(colon + 1);
  return colon > 0 && EPOCH_ID.test(epochId) && wrap.cid === epochId ? { patientId, epochId } : null;
}

function summaryContext(patientId: string, epochId: string, to: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${SUMMARY_WRAP_PREFIX}|${patientId}|${epochId}|${to}`);
}

// The summary key (64 hex) of `patientId`'s epoch `epochId` wrapped to `recipient`.
export async function wrapSummaryKey(
  patientId: string,
  epochId: string,
  summaryKeyHex: string,
  recipient: Recipient,
  from: string,
): Promise<KeyWrap> {
  const hex = summaryKeyHex.toLowerCase();
  if (!KEY_HEX.test(hex)) throw new Error('A summary key is 64 hex digits.');
  if (!EPOCH_ID.test(epochId) || patientId === '' || patientId.includes('|')) throw new Error('Not a summary epoch.');
  const sealed = await sealKeyTo(summaryContext(patientId, epochId, recipient.id), hex, recipient);
  return { documentId: summaryKeySubject(patientId, epochId), cid: epochId, to: recipient.id, from, ...sealed };
}

// The summary key (64 hex) a summary-key wrap holds, or null: a document's wrap, another reader's, a changed field,
// or another patient or epoch than `expected`. The caller checks the key against its epoch id (summaryEpochId).
export async function unwrapSummaryKey(
  wrap: unknown,
  privateKey: CryptoKey,
  expected?: { patientId: string; epochId: string },
): Promise<string | null> {
  const named = summaryWrapOf(wrap);
  if (!named || !isKeyWrap(wrap)) return null;
  if (expected && (expected.patientId !== named.patientId || expected.epochId !== named.epochId)) return null;
  return openKey(wrap, summaryContext(named.patientId, named.epochId, wrap.to), privateKey);
}

// True when `privateKey` is the private half of `publicKey`: a stored encryption key is checked against the enrolled one.
export async function encryptionKeyMatches(privateKey: CryptoKey, publicKey: string): Promise<boolean> {
  try {
    const probe = await createEncryptionKeyPair();
    const mine = await crypto.subtle.deriveBits(
      { name: 'ECDH', public: await importEncryptionPublicKey(publicKey) },
      probe.privateKey,
      256,
    );
    const theirs = await crypto.subtle.deriveBits({ name: 'ECDH', public: probe.publicKey }, privateKey, 256);
    return keyHex(new Uint8Array(mine)) === keyHex(new Uint8Array(theirs));
  } catch {
    return false;
  }
}

// The sync server's emergency key pair; it publishes the public half and keeps the private half on its disk.
export async function createCareNetworkKey(): Promise<CareNetworkKey> {
  const pair = await createEncryptionKeyPair();
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  return { publicKey: await exportEncryptionPublicKey(pair.publicKey), privateKey: bytesToBase64(pkcs8) };
}

// The care network's private key as releaseForGrant uses it: non-extractable.
export function importCareNetworkKey(privateKey: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', fromBase64(privateKey), ENCRYPTION_ALGORITHM, false, ['deriveBits']);
}

export interface ReleaseRequest {
  grantId: string;
  documentId: string;
  readBlock: string; // the hash of the doctor's signed read of the document under the grant: no read block, no key
}

// The grant `grantId` while it is active and its patient lets the care network open their records, with the granted
// doctor's enrolled encryption key: what every release of the care network starts from; else why not.
function releasableGrant(
  state: LedgerState,
  grantId: string,
  now: number,
  opens: 'files' | 'records',
): { known: GrantState; doctor: Recipient } | string {
  const known = state.grants.get(grantId);
  if (!known) return `no grant ${grantId} is on the ledger`;
  const { grant } = known;
  if (known.closedBy || !isGrantActive(grant, now)) return `grant ${grantId} is not active`;
  if (!careConsentOf(state, grant.patientId)) return `the patient does not let the care network open their ${opens}`;
  const doctorKey = state.enrolment?.encryption?.[grant.doctorId];
  if (!doctorKey) return `the ledger enrols no encryption key for ${grant.doctorId}`;
  return { known, doctor: { id: grant.doctorId, publicKey: doctorKey } };
}

// The document key of `wrapToCareNetwork`, re-wrapped in memory to the doctor of grant `grantId` at their enrolled
// key, only while that grant is active, of full level, on the document's patient, the document is live, and the
// chain holds the doctor's read of it under the grant (block `readBlock`, which the patient sees); else why not.
// `state` is the projection of the verified chain; the key is never returned in clear.
export async function releaseForGrant(
  state: LedgerState,
  request: ReleaseRequest,
  wrapToCareNetwork: unknown,
  carePrivateKey: CryptoKey,
  now: number,
): Promise<KeyWrap | string> {
  const releasable = releasableGrant(state, request.grantId, now, 'files');
  if (typeof releasable === 'string') return releasable;
  const { known, doctor } = releasable;
  if (known.grant.accessLevel !== 'full') return `grant ${request.grantId} is basic access, which opens no files`;
  const document = state.documents.get(request.documentId);
  if (!document || document.deletedAt) return `document ${request.documentId} is not a stored document`;
  if (document.patientId !== known.grant.patientId) return `document ${request.documentId} is not the granted patient's`;
  if (!isKeyWrap(wrapToCareNetwork) || wrapToCareNetwork.to !== CARE_NETWORK || wrapToCareNetwork.documentId !== document.id)
    return `the wrap is not the care network's wrap of document ${request.documentId}`;
  if (!known.reads.some((read) => read.block === request.readBlock && read.documentId === document.id))
    return `block ${request.readBlock} is not a read of document ${request.documentId} under grant ${request.grantId}`;
  const key = await unwrapKey(wrapToCareNetwork, carePrivateKey, document.ipfsHash);
  if (!key) return `the care network's wrap of document ${request.documentId} does not open`;
  return wrapKey(document.id, document.ipfsHash, key, doctor, CARE_NETWORK);
}

// The id of a summary-key epoch: derived from the key, so a key that arrives wrapped (from anyone: wraps to a public
// key can be made by all) is checked against the epoch a sealed part names, as a file is checked against its content id.
export async function summaryEpochId(patientId: string, summaryKeyHex: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`medledger-summary-epoch|${patientId}|${summaryKeyHex}`));
  return keyHex(new Uint8Array(digest)).slice(0, 32);
}

export interface SummaryReleaseRequest {
  grantId: string;
  epochId: string; // the summary-key epoch a sealed part the doctor holds names
  readBlock: string; // the hash of the doctor's signed read under the grant: no read block, no key
}

// The summary key of `wrapToCareNetwork`, re-wrapped in memory to the doctor of grant `grantId`: releaseForGrant's
// rules for the key of the profile and the record titles, which a grant of either level opens (basic and full); the
// chain must hold a read under the grant (block `readBlock`). Else why not; the key is never returned in clear.
export async function releaseSummaryForGrant(
  state: LedgerState,
  request: SummaryReleaseRequest,
  wrapToCareNetwork: unknown,
  carePrivateKey: CryptoKey,
  now: number,
): Promise<KeyWrap | string> {
  const releasable = releasableGrant(state, request.grantId, now, 'records');
  if (typeof releasable === 'string') return releasable;
  const { known, doctor } = releasable;
  const named = summaryWrapOf(wrapToCareNetwork);
  if (!named || !isKeyWrap(wrapToCareNetwork) || wrapToCareNetwork.to !== CARE_NETWORK)
    return `the wrap is not the care network's wrap of a summary key`;
  if (named.patientId !== known.grant.patientId || named.epochId !== request.epochId)
    return `the wrap is not the care network's wrap of epoch ${request.epochId} of the granted patient`;
  if (!known.reads.some((read) => read.block === request.readBlock))
    return `block ${request.readBlock} is not a read under grant ${request.grantId}`;
  const key = await unwrapSummaryKey(wrapToCareNetwork, carePrivateKey, named);
  if (!key || (await summaryEpochId(named.patientId, key)) !== named.epochId)
    return `the care network's wrap of epoch ${request.epochId} does not open`;
  return wrapSummaryKey(named.patientId, named.epochId, key, doctor, CARE_NETWORK);
}
