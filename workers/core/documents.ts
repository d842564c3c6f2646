// Document encryption (AES-256-GCM through WebCrypto), content ids (CIDv0) and upload checks:
// docs/decisions/aes-gcm-documents.md, ipfs-content-ids.md and upload-checks.md.
import { ACCEPTED_EXTENSIONS, MAX_FILE_BYTES } from './constants';
import { ledgerError } from './errors';
import { MIME_TYPES, UNKNOWN_MIME_TYPES } from './file-types';
import { bytesToHex, hexToBytes } from './ids';
import { checkFileName, fileExtension, fileNameMessage, mimeEssence } from './text-input';

export { fileExtension };

export interface EncryptedDocument {
  stored: ArrayBuffer; // iv (12 bytes) || AES-GCM ciphertext and 16-byte tag
  encryptionKey: string; // 64 hex: the 32 key bytes
  ipfsHash: string; // CIDv0 (Qm…) that `ipfs add` gives for `stored`
}

const IV_BYTES = 12; // 96-bit IV, the size GCM is specified for
const TAG_BYTES = 16;
const KEY_BYTES = 32;

// The size of a file's stored bytes: the IV, then the ciphertext (as long as the file) and the GCM tag.
export function storedSize(fileSize: number): number {
  return IV_BYTES + fileSize + TAG_BYTES;
}

function toBytes(bytes: ArrayBuffer | Uint8Array): Uint8Array {
  return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
}

// The CIDv0 (Qm…) that `ipfs add` with default settings prints for these bytes. The importer is loaded on first use:
// the worker starts without it (a returning user's dashboard needs no content id).
export async function contentId(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const { ipfsAddId } = await import('./ipfs-add');
  return ipfsAddId(toBytes(bytes));
}

export async function encryptDocument(plain: ArrayBuffer, cryptoImpl: Crypto = globalThis.crypto): Promise<EncryptedDocument> {
  const keyBytes = cryptoImpl.getRandomValues(new Uint8Array(KEY_BYTES));
  const iv = cryptoImpl.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await cryptoImpl.subtle.importKey('raw', keyBytes, { name: 'AES-GCM' }, false, ['encrypt']);
  const sealed = new Uint8Array(await cryptoImpl.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain));
  const stored = new Uint8Array(IV_BYTES + sealed.length);
  stored.set(iv, 0);
  stored.set(sealed, IV_BYTES);
  return { stored: stored.buffer, encryptionKey: bytesToHex(keyBytes), ipfsHash: await contentId(stored) };
}

// Checks the content id first, then lets the GCM tag check the key and every byte: never returns garbage.
export async function decryptDocument(
  stored: ArrayBuffer,
  encryptionKey: string,
  ipfsHash: string,
  cryptoImpl: Crypto = globalThis.crypto,
): Promise<ArrayBuffer> {
  const bytes = new Uint8Array(stored);
  if ((await contentId(bytes)) !== ipfsHash) {
    throw ledgerError('IntegrityError', `The stored document does not match its content id ${ipfsHash}: its bytes were changed`);
  }
  if (bytes.length < IV_BYTES + TAG_BYTES) {
    throw ledgerError('IntegrityError', 'The stored document is too short to hold encrypted content');
  }
  if (typeof encryptionKey !== 'string' || !/^[0-9a-fA-F]{64}$/.test(encryptionKey)) {
    throw ledgerError('IntegrityError', 'The document key is not 64 hex digits');
  }
  const key = await cryptoImpl.subtle.importKey('raw', hexToBytes(encryptionKey), { name: 'AES-GCM' }, false, ['decrypt']);
  try {
    return await cryptoImpl.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES) }, key, bytes.slice(IV_BYTES));
  } catch {
    throw ledgerError(
      'IntegrityError',
      'The document could not be decrypted: the key is wrong or the encrypted bytes were changed',
    );
  }
}

function formatMegabytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MB`;
}

// null when the file may be stored, else the message for the user, naming the file (its name normalised).
export function validateUploadFile(file: { name: string; type: string; bytes: ArrayBuffer }): string | null {
  const { name, problem } = checkFileName(typeof file.name === 'string' ? file.name : '');
  if (problem) return fileNameMessage(problem);
  const extension = fileExtension(name);
  if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(extension)) {
    return `"${name}" is not an accepted file type (${ACCEPTED_EXTENSIONS.join(', ')})`;
  }
  const size = file.bytes?.byteLength ?? 0;
  if (size === 0) return `"${name}" is empty`;
  if (size > MAX_FILE_BYTES) return `"${name}" is larger than ${formatMegabytes(MAX_FILE_BYTES)}`;
  const mime = mimeEssence(typeof file.type === 'string' ? file.type : '');
  if (!UNKNOWN_MIME_TYPES.includes(mime) && !MIME_TYPES[extension].includes(mime)) {
    return `"${name}" is named ${extension} but its type is ${mime}`;
  }
  return null;
}
