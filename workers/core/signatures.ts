// Per-user signing keys and block signatures (docs/decisions/signed-blocks.md): Ed25519 through WebCrypto,
// each user's private key stored only wrapped (AES-GCM) under a PBKDF2-SHA-256 key from their password.
import { base64ToBytes, bytesToBase64 } from './base64';
import { LEDGER_AUTHOR, MAX_BACKUP_ITERATIONS } from './constants';
import { ENCRYPTION_ALGORITHM, createEncryptionKeyPair, exportEncryptionPublicKey } from './key-wraps';
import { storedValueText } from './record-format';
import { kindOf } from './records/kinds';
import type { Block, ChainRecord, KeyEnrolment } from './types';

export const SIGNATURE_ALGORITHM = 'Ed25519';
export { LEDGER_AUTHOR } from './constants';
export const PBKDF2_ITERATIONS = 600_000; // OWASP's 2023 figure for PBKDF2-HMAC-SHA-256
export const SALT_BYTES = 16;
export const IV_BYTES = 12;
const SIGNED_PREFIX = 'medledger-block|'; // a block signature can never be mistaken for a signature of anything else

// One user's key as stored: the public key, and the private key wrapped under the password, with the parameters to unwrap it.
export interface WrappedUserKey {
  publicKey: string; // raw Ed25519 public key, base64
  kdf: 'PBKDF2';
  hash: 'SHA-256';
  iterations: number;
  salt: string; // base64, random per user
  iv: string; // base64, the AES-GCM IV of the wrapping
  wrappedKey: string; // base64: pkcs8 private key encrypted with AES-256-GCM
  encryption?: WrappedEncryptionKey; // absent on keys made before document keys travelled wrapped
}

// The user's key for receiving document keys (core/key-wraps.ts), wrapped under the same password key as the
// signing key (same salt and iterations), so sign-in derives one key for both.
export interface WrappedEncryptionKey {
  publicKey: string; // raw ECDH P-256 public key, base64
  iv: string; // base64, the AES-GCM IV of its wrapping
  wrappedKey: string; // base64: pkcs8 private key encrypted with AES-256-GCM
}

// What sign-in unlocks: both private keys, non-extractable (no encryption key on keys made before it existed).
export interface UnlockedKeys {
  signingKey: CryptoKey;
  encryptionKey?: CryptoKey;
}

// Everything the worker stores about keys, beside the chain (the public halves are also enrolled on it).
export interface StoredKeys {
  algorithm: typeof SIGNATURE_ALGORITHM;
  users: Record<string, WrappedUserKey>;
  // extractable only so a backup can carry it, sealed under the backup's password; absent on a device that took the
  // ledger from a sync server (it never travels): that device leaves expiries to one that holds it
  ledger: { publicKey: string; privateKey?: CryptoKey };
}

// The keys as a backup carries them (inside its password-sealed part): the ledger's private key as pkcs8.
export interface PortableKeys {
  algorithm: typeof SIGNATURE_ALGORITHM;
  users: Record<string, WrappedUserKey>;
  ledger: { publicKey: string; privateKey?: string }; // base64 pkcs8; absent when the backed-up device did not hold it
}

const encoder = new TextEncoder();

export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  return bytesToBase64(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const bytes = base64ToBytes(text);
  if (!bytes) throw new Error('The text is not base64.');
  return bytes;
}

function randomBytes(count: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(count));
}

// An AES-256-GCM key derived from a password with PBKDF2-SHA-256 (the users' keys, and a backup's seal).
export async function passwordKey(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  usages: KeyUsage[],
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    usages,
  );
}

// New key pairs for one user, signing and encryption: the private halves leave this function only wrapped under `password`.
export async function createUserKey(password: string, iterations: number): Promise<WrappedUserKey> {
  const pair = (await crypto.subtle.generateKey(SIGNATURE_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const encryption = await createEncryptionKeyPair();
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const encryptionIv = randomBytes(IV_BYTES);
  const wrapping = await passwordKey(password, salt, iterations, ['wrapKey', 'unwrapKey']);
  const wrapped = await crypto.subtle.wrapKey('pkcs8', pair.privateKey, wrapping, { name: 'AES-GCM', iv });
  const wrappedEncryption = await crypto.subtle.wrapKey('pkcs8', encryption.privateKey, wrapping, {
    name: 'AES-GCM',
    iv: encryptionIv,
  });
  return {
    publicKey: toBase64(await crypto.subtle.exportKey('raw', pair.publicKey)),
    kdf: 'PBKDF2',
    hash: 'SHA-256',
    iterations,
    salt: toBase64(salt),
    iv: toBase64(iv),
    wrappedKey: toBase64(wrapped),
    encryption: {
      publicKey: await exportEncryptionPublicKey(encryption.publicKey),
      iv: toBase64(encryptionIv),
      wrappedKey: toBase64(wrappedEncryption),
    },
  };
}

// The user's private signing key, non-extractable, or null when `password` is not the one it was wrapped with.
export async function unlockUserKey(stored: WrappedUserKey, password: string): Promise<CryptoKey | null> {
  return (await unlockUserKeys(stored, password))?.signingKey ?? null;
}

// Both of the user's private keys from one password derivation, or null when `password` is not the one they were
// wrapped with. An encryption key that does not unwrap is left out: it only stops document keys reaching this user.
export async function unlockUserKeys(stored: WrappedUserKey, password: string): Promise<UnlockedKeys | null> {
  // a stored count far past any this app writes is refused like a wrong password, not derived for hours
  const { iterations } = stored;
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > MAX_BACKUP_ITERATIONS) return null;
  const wrapping = await passwordKey(password, fromBase64(stored.salt), iterations, ['wrapKey', 'unwrapKey']);
  let signingKey: CryptoKey;
  try {
    signingKey = await crypto.subtle.unwrapKey(
      'pkcs8',
      fromBase64(stored.wrappedKey),
      wrapping,
      { name: 'AES-GCM', iv: fromBase64(stored.iv) },
      SIGNATURE_ALGORITHM,
      false,
      ['sign'],
    );
  } catch {
    return null; // AES-GCM's tag does not match: a wrong password
  }
  const { encryption } = stored;
  if (!encryption) return { signingKey };
  try {
    const encryptionKey = await crypto.subtle.unwrapKey(
      'pkcs8',
      fromBase64(encryption.wrappedKey),
      wrapping,
      { name: 'AES-GCM', iv: fromBase64(encryption.iv) },
      ENCRYPTION_ALGORITHM,
      false,
      ['deriveBits'],
    );
    return { signingKey, encryptionKey };
  } catch {
    return { signingKey };
  }
}

// Keys for every listed user (all wrapped under `password`) and the ledger's own key.
export async function createStoredKeys(userIds: readonly string[], password: string, iterations: number): Promise<StoredKeys> {
  const ledger = (await crypto.subtle.generateKey(SIGNATURE_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const users = await Promise.all(userIds.map(() => createUserKey(password, iterations)));
  return {
    algorithm: SIGNATURE_ALGORITHM,
    users: Object.fromEntries(userIds.map((id, i) => [id, users[i]])),
    ledger: { publicKey: toBase64(await crypto.subtle.exportKey('raw', ledger.publicKey)), privateKey: ledger.privateKey },
  };
}

export async function exportKeys(keys: StoredKeys): Promise<PortableKeys> {
  const { publicKey, privateKey } = keys.ledger;
  const ledger = privateKey
    ? { publicKey, privateKey: toBase64(await crypto.subtle.exportKey('pkcs8', privateKey)) }
    : { publicKey };
  return { algorithm: keys.algorithm, users: keys.users, ledger };
}

// The keys of a backup, or null when they are malformed or do not match what its genesis block enrolled.
export async function importKeys(portable: PortableKeys, enrolment: KeyEnrolment): Promise<StoredKeys | null> {
  try {
    const portableKey = portable.ledger.privateKey;
    const privateKey =
      portableKey === undefined
        ? undefined
        : await crypto.subtle.importKey('pkcs8', fromBase64(portableKey), SIGNATURE_ALGORITHM, true, ['sign']);
    const keys: StoredKeys = {
      algorithm: SIGNATURE_ALGORITHM,
      users: portable.users,
      ledger: { publicKey: portable.ledger.publicKey, ...(privateKey ? { privateKey } : {}) },
    };
    const enrolled = enrolmentOf(keys);
    const same = (a: Record<string, string> = {}, b: Record<string, string> = {}) =>
      Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([id, key]) => b[id] === key);
    // a ledger made before keys travelled enrols no encryption keys: the ones the keys carry are simply not enrolled yet
    const sameEncryption = enrolment.encryption === undefined || same(enrolment.encryption, enrolled.encryption);
    const sameUsers = same(enrolment.users, enrolled.users) && sameEncryption;
    const keyHolds = privateKey === undefined || (await keyMatches(privateKey, enrolment.ledger));
    return sameUsers && enrolled.ledger === enrolment.ledger && keyHolds ? keys : null;
  } catch {
    return null;
  }
}

// What the genesis block enrols: every public key, so verification needs nothing outside the chain. Encryption
// keys are enrolled only when every user has one (keys made before they existed have none).
export function enrolmentOf(keys: StoredKeys): KeyEnrolment {
  const entries = Object.entries(keys.users);
  const users = Object.fromEntries(entries.map(([id, key]) => [id, key.publicKey]));
  const enrolment: KeyEnrolment = { algorithm: keys.algorithm, ledger: keys.ledger.publicKey, users };
  if (entries.length > 0 && entries.every(([, key]) => key.encryption))
    enrolment.encryption = Object.fromEntries(
      entries.map(([id, key]) => [id, (key.encryption as WrappedEncryptionKey).publicKey]),
    );
  return enrolment;
}

// The enrolled public key of `author` (base64), or undefined.
export function enrolledKey(enrolment: KeyEnrolment, author: string): string | undefined {
  if (author === LEDGER_AUTHOR) return enrolment.ledger;
  return Object.hasOwn(enrolment.users, author) ? enrolment.users[author] : undefined;
}

// The one author who may write `record`: the patient for their uploads, deletions, acknowledgements, shares
// and revokes, and the ends they make of grants on them; the doctor for their grants, reads and ends, and for
// reads under a share; the ledger for the genesis and expiries.
export function authorOf(record: ChainRecord): string {
  // each kind says who writes it (records/); a record of no known kind is the patient's, as it always was
  return kindOf(record)?.author(record) ?? record.patientId;
}

// The signed bytes: the author and the block hash (which covers index, link, time, data hash and nonce).
export function signedBytes(author: string, hash: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${SIGNED_PREFIX}${author}|${hash}`);
}

export async function signBlock(block: Block, privateKey: CryptoKey): Promise<Block> {
  const signature = await crypto.subtle.sign(SIGNATURE_ALGORITHM, privateKey, signedBytes(block.author, block.hash));
  return { ...block, signature: toBase64(signature) };
}

export function importPublicKey(publicKey: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase64(publicKey), SIGNATURE_ALGORITHM, false, ['verify']);
}

// True when `privateKey` is the private half of `publicKey`: a session key is checked against the enrolled key.
export async function keyMatches(privateKey: CryptoKey, publicKey: string): Promise<boolean> {
  const probe = encoder.encode('medledger-session-probe');
  try {
    const signature = await crypto.subtle.sign(SIGNATURE_ALGORITHM, privateKey, probe);
    return await crypto.subtle.verify(SIGNATURE_ALGORITHM, await importPublicKey(publicKey), signature, probe);
  } catch {
    return false;
  }
}

// What a signature check reads of a block: all a checker worker is sent.
export type SignedPart = Pick<Block, 'author' | 'hash' | 'signature'>;

export interface SignatureFailure {
  offset: number; // in the checked list
  reason: string;
}

// Checks lists of signatures elsewhere (the ledger worker: a pool of checker workers, workers/signature-pool.ts).
export interface SignatureChecker {
  lanes: number; // lists worth checking at once: one per checker
  check(blocks: SignedPart[], enrolment: KeyEnrolment): Promise<SignatureFailure | null>;
}

// The first block of `blocks` whose signature fails, or null; the checks run concurrently.
export async function firstSignatureFailure(
  blocks: readonly SignedPart[],
  enrolment: KeyEnrolment,
  publicKeys: Map<string, Promise<CryptoKey>>,
): Promise<SignatureFailure | null> {
  const problems = await Promise.all(blocks.map((block) => signatureProblem(block, enrolment, publicKeys)));
  const offset = problems.findIndex((problem) => problem !== null);
  return offset < 0 ? null : { offset, reason: problems[offset] as string };
}

// The signature check of one block as a rule: null when it holds, else the reason, which starts with "signature".
export async function signatureProblem(
  block: SignedPart,
  enrolment: KeyEnrolment,
  publicKeys: Map<string, Promise<CryptoKey>>, // base64 key -> imported key, shared across calls
): Promise<string | null> {
  if (typeof block.signature !== 'string' || block.signature === '') return 'signature: the block is not signed';
  const publicKey = typeof block.author === 'string' ? enrolledKey(enrolment, block.author) : undefined;
  if (publicKey === undefined) return `signature: its author "${storedValueText(block.author)}" has no enrolled key`;
  let key = publicKeys.get(publicKey);
  if (!key) {
    key = importPublicKey(publicKey);
    publicKeys.set(publicKey, key);
  }
  try {
    const signature = fromBase64(block.signature);
    // one spelling per signature: base64 with other padding bits would decode to the same bytes
    if (toBase64(signature) !== block.signature) return 'signature is malformed';
    const holds = await crypto.subtle.verify(SIGNATURE_ALGORITHM, await key, signature, signedBytes(block.author, block.hash));
    return holds ? null : `signature does not hold for the enrolled key of ${block.author}`;
  } catch {
    return 'signature is malformed';
  }
}
