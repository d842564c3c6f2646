// Proof-of-work nonce search over a fixed header prefix. js-sha256 has no way to copy a hash state, so
// this file carries its own SHA-256 compression: the prefix's whole 64-byte blocks are compressed once
// (a midstate) and each attempt compresses only the last block holding the nonce digits, about 3x less
// work than hashing the full ~160-byte header. The winning nonce is always re-hashed with js-sha256 by
// the caller (chain.ts), so a fault here can never produce a block that fails verification.

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

// Message schedule, shared: the search is synchronous and never re-entered.
const W = new Int32Array(64);

// One SHA-256 compression of bytes[offset..offset+64) applied to `state`, written to `out` (may be `state`).
function compress(state: Int32Array, out: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
  }
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15];
    const y = W[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  out[0] = (state[0] + a) | 0;
  out[1] = (state[1] + b) | 0;
  out[2] = (state[2] + c) | 0;
  out[3] = (state[3] + d) | 0;
  out[4] = (state[4] + e) | 0;
  out[5] = (state[5] + f) | 0;
  out[6] = (state[6] + g) | 0;
  out[7] = (state[7] + h) | 0;
}

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
  if (!isValidDifficulty(difficulty)) throw new RangeError(`difficulty must be a whole number from 0 to ${MAX_DIFFICULTY}`);
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
      if (!isValidNonce(start) || !Number.isInteger(count) || count < 0) throw new RangeError('bad nonce range');
      const end = Math.min(start + count, Number.MAX_SAFE_INTEGER + 1);
      for (let nonce = start; nonce < end; nonce++) {
        hashNonce(nonce);
        if (meets()) return nonce;
      }
      return -1;
    },
    digestWords(nonce) {
      if (!isValidNonce(nonce)) throw new RangeError('bad nonce');
      hashNonce(nonce);
      return Int32Array.from(out);
    },
  };
}
