// HKDF-SHA256 (RFC 5869) with an empty salt and 32 bytes out, in plain JS on sha256.ts: the same bytes WebCrypto's
// deriveKey gives, without its two asynchronous jobs per key (a first read derives one file key per upload).
import { sha256Words } from './sha256';

const HASH_BYTES = 32;
const BLOCK_BYTES = 64;

function wordsToBytes(words: Int32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  for (let i = 0; i < words.length; i++) {
    bytes[i * 4] = words[i] >>> 24;
    bytes[i * 4 + 1] = (words[i] >>> 16) & 0xff;
    bytes[i * 4 + 2] = (words[i] >>> 8) & 0xff;
    bytes[i * 4 + 3] = words[i] & 0xff;
  }
  return bytes;
}

// HMAC-SHA256 with a key of at most one block (every key here is 32 bytes).
function hmac(key: Uint8Array, message: Uint8Array): Uint8Array {
  if (key.length > BLOCK_BYTES) throw new Error('An HMAC key here is at most 64 bytes.');
  const inner = new Uint8Array(BLOCK_BYTES + message.length);
  const outer = new Uint8Array(BLOCK_BYTES + HASH_BYTES);
  for (let i = 0; i < BLOCK_BYTES; i++) {
    inner[i] = (key[i] ?? 0) ^ 0x36;
    outer[i] = (key[i] ?? 0) ^ 0x5c;
  }
  inner.set(message, BLOCK_BYTES);
  outer.set(wordsToBytes(sha256Words(inner)), BLOCK_BYTES);
  inner.fill(0);
  const mac = wordsToBytes(sha256Words(outer));
  outer.fill(0);
  return mac;
}

export function hkdfSha256(keyMaterial: Uint8Array, info: Uint8Array): Uint8Array<ArrayBuffer> {
  const pseudoRandomKey = hmac(new Uint8Array(HASH_BYTES), keyMaterial); // an empty salt is a block of zeros
  const first = new Uint8Array(info.length + 1);
  first.set(info);
  first[info.length] = 1;
  const out = hmac(pseudoRandomKey, first);
  pseudoRandomKey.fill(0);
  return new Uint8Array(out);
}
