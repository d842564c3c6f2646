// Proof-of-work nonce search over a fixed header prefix. js-sha256 has no way to copy a hash state, so
// the prefix's whole 64-byte blocks are compressed once here (a midstate) and each attempt compresses only
// the last block holding the nonce digits: about 3x less work than hashing the full ~160-byte header.
// The winning nonce is re-hashed with js-sha256 by chain.ts, so a fault here cannot produce a bad block.
import { ledgerError } from './errors';
import { INITIAL_STATE, compress } from './sha256';

export const MAX_DIFFICULTY = 64; // leading zero hex digits: a SHA-256 hex digest has 64

export function isValidDifficulty(difficulty: number): boolean {
  return Number.isInteger(difficulty) && difficulty >= 0 && difficulty <= MAX_DIFFICULTY;
}

export function isValidNonce(nonce: number): boolean {
  return Number.isSafeInteger(nonce) && nonce >= 0;
}

export interface NonceSearch {
  // First nonce in [start, start + count) whose header hash has `difficulty` leading zero hex digits, else -1.
  search(start: number, count: number): number;
  // The digest words of prefix + nonce (big-endian 32-bit words, as signed ints); for tests and the bench.
  digestWords(nonce: number): Int32Array;
}

// prefix: the header bytes before the nonce's decimal digits. difficulty: leading zero hex digits.
export function createNonceSearch(prefix: Uint8Array, difficulty: number): NonceSearch {
  if (!isValidDifficulty(difficulty))
    throw ledgerError('ValidationError', `Difficulty must be a whole number from 0 to ${MAX_DIFFICULTY}`);
  const wholeBytes = prefix.length - (prefix.length % 64);
  const midstate = Int32Array.from(INITIAL_STATE);
  for (let offset = 0; offset < wholeBytes; offset += 64) compress(midstate, midstate, prefix, offset);
  const restLength = prefix.length - wholeBytes; // 0..63 prefix bytes that start the last block(s)
  // rest of prefix + up to 16 nonce digits + 0x80 + 8 length bytes fits in 128 bytes
  const tail = new Uint8Array(128);
  tail.set(prefix.subarray(wholeBytes));
  const out = new Int32Array(8);
  const zeroWords = (difficulty * 4) >>> 5; // digest words that must be entirely zero
  const restBits = (difficulty * 4) & 31; // leading bits of the next word that must be zero
  const digits = new Uint8Array(16);

  function hashNonce(nonce: number): void {
    let digitCount = 0;
    let n = nonce;
    do {
      digits[digitCount++] = 48 + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
    let at = restLength;
    while (digitCount > 0) tail[at++] = digits[--digitCount];
    tail[at] = 0x80;
    const blockEnd = at + 9 <= 64 ? 64 : 128;
    for (let i = at + 1; i < blockEnd - 8; i++) tail[i] = 0;
    // message length in bits, big-endian 64-bit; headers stay far below 2^32 bits
    const bits = (wholeBytes + at) * 8;
    tail[blockEnd - 8] = 0;
    tail[blockEnd - 7] = 0;
    tail[blockEnd - 6] = 0;
    tail[blockEnd - 5] = 0;
    tail[blockEnd - 4] = bits >>> 24;
    tail[blockEnd - 3] = (bits >>> 16) & 0xff;
    tail[blockEnd - 2] = (bits >>> 8) & 0xff;
    tail[blockEnd - 1] = bits & 0xff;
    compress(midstate, out, tail, 0);
    if (blockEnd === 128) compress(out, out, tail, 64);
  }

  function meets(): boolean {
    for (let i = 0; i < zeroWords; i++) if (out[i] !== 0) return false;
    return restBits === 0 || out[zeroWords] >>> (32 - restBits) === 0;
  }

  return {
    search(start, count) {
      if (!isValidNonce(start) || !Number.isInteger(count) || count < 0)
        throw ledgerError('ValidationError', 'A nonce range must start at a whole number, 0 or more');
      const end = Math.min(start + count, Number.MAX_SAFE_INTEGER + 1);
      for (let nonce = start; nonce < end; nonce++) {
        hashNonce(nonce);
        if (meets()) return nonce;
      }
      return -1;
    },
    digestWords(nonce) {
      if (!isValidNonce(nonce)) throw ledgerError('ValidationError', 'A nonce must be a whole number, 0 or more');
      hashNonce(nonce);
      return Int32Array.from(out);
    },
  };
}
