// Property tests for document encryption (docs/decisions/aes-gcm-documents.md, ipfs-content-ids.md): AES-256-GCM round-trips any bytes up to 64 KB, and any
// single flipped bit of the stored bytes or the key is refused with IntegrityError, never returned as data.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentId, decryptDocument, encryptDocument } from '../../workers/core/documents';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 60_000; // hundreds of WebCrypto calls on up to 64 KB on a shared 2-core machine

// Reproducible pseudo-random bytes (xorshift32): fast-check picks the length and seed, so a failure replays.
function bytesFrom(length: number, seed: number): ArrayBuffer {
  const bytes = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes.buffer;
}

const lengthArb = fc.oneof(fc.constantFrom(0, 1, 15, 16, 17, MAX_BYTES), fc.integer({ min: 0, max: MAX_BYTES }));
const plainArb = fc.tuple(lengthArb, fc.integer()).map(([length, seed]) => bytesFrom(length, seed));

type Region = 'iv' | 'ciphertext' | 'tag';
const flipArb = fc.record({
  region: fc.constantFrom<Region>('iv', 'ciphertext', 'tag'),
  at: fc.nat(),
  bit: fc.integer({ min: 0, max: 7 }),
});

// The stored layout is iv (12) || ciphertext (same length as the plain bytes) || tag (16): the byte to flip in `region`.
function byteIndex(region: Region, at: number, plainLength: number): number | null {
  if (region === 'iv') return at % IV_BYTES;
  if (region === 'tag') return IV_BYTES + plainLength + (at % TAG_BYTES);
  return plainLength === 0 ? null : IV_BYTES + (at % plainLength);
}

function flipped(buffer: ArrayBuffer, index: number, bit: number): ArrayBuffer {
  const copy = new Uint8Array(buffer.slice(0));
  copy[index] ^= 1 << bit;
  return copy.buffer;
}

// -1 when equal; toEqual on 64 KB typed arrays costs seconds.
function firstDifference(a: ArrayBuffer, b: ArrayBuffer): number {
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return i;
  return -1;
}

async function failure(promise: Promise<unknown>): Promise<{ name: string; message: string } | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

describe('AES-256-GCM documents on random bytes', { timeout: TIMEOUT_MS }, () => {
  it('returns exactly the bytes it was given, for any 0 to 64 KB', async () => {
    await fc.assert(
      fc.asyncProperty(plainArb, async (plain) => {
        const encrypted = await encryptDocument(plain);
        expect(encrypted.stored.byteLength).toBe(IV_BYTES + plain.byteLength + TAG_BYTES);
        expect(encrypted.ipfsHash).toBe(await contentId(encrypted.stored));
        const back = await decryptDocument(encrypted.stored, encrypted.encryptionKey, encrypted.ipfsHash);
        expect(back.byteLength).toBe(plain.byteLength);
        expect(firstDifference(back, plain)).toBe(-1);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses any single flipped bit of the IV, ciphertext or tag with IntegrityError, by content id and by the GCM tag', async () => {
    await fc.assert(
      fc.asyncProperty(plainArb, fc.array(flipArb, { minLength: 1, maxLength: 6 }), async (plain, flips) => {
        const { stored, encryptionKey, ipfsHash } = await encryptDocument(plain);
        for (const { region, at, bit } of flips) {
          const index = byteIndex(region, at, plain.byteLength);
          if (index === null) continue; // no ciphertext bytes to flip in an empty document
          const tampered = flipped(stored, index, bit);
          const where = `bit ${bit} of byte ${index} (${region}) of ${plain.byteLength} bytes`;
          // as stored: the content id no longer matches
          const byId = await failure(decryptDocument(tampered, encryptionKey, ipfsHash));
          expect(byId, where).toEqual({
            name: 'IntegrityError',
            message: expect.stringContaining('does not match its content id'),
          });
          // a tamperer who also rewrote the content id: the GCM tag still refuses it
          const byTag = await failure(decryptDocument(tampered, encryptionKey, await contentId(tampered)));
          expect(byTag, where).toEqual({ name: 'IntegrityError', message: expect.stringContaining('could not be decrypted') });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a flipped bit in any chunk of a document larger than one 256 KiB chunk, by content id', async () => {
    const chunk = 262_144;
    // stored = plain + 28 (iv and tag): exactly one chunk, one byte over, exactly two chunks, then 2 to 4 chunks
    const sizeArb = fc.oneof(fc.constantFrom(chunk - 28, chunk - 27, 2 * chunk - 28), fc.integer({ min: chunk, max: 3 * chunk }));
    await fc.assert(
      fc.asyncProperty(sizeArb, fc.integer(), fc.nat(), fc.integer({ min: 0, max: 7 }), async (length, seed, at, bit) => {
        const { stored, encryptionKey, ipfsHash } = await encryptDocument(bytesFrom(length, seed));
        const index = at % stored.byteLength;
        const byId = await failure(decryptDocument(flipped(stored, index, bit), encryptionKey, ipfsHash));
        expect(byId, `bit ${bit} of byte ${index} of ${stored.byteLength} stored bytes`).toEqual({
          name: 'IntegrityError',
          message: expect.stringContaining('does not match its content id'),
        });
      }),
      { numRuns: 20 },
    );
  });

  it('refuses any single flipped bit of the key with IntegrityError', async () => {
    await fc.assert(
      fc.asyncProperty(plainArb, fc.integer({ min: 0, max: 255 }), async (plain, keyBit) => {
        const { stored, encryptionKey, ipfsHash } = await encryptDocument(plain);
        const digit = keyBit >> 2; // 4 bits per hex digit
        const wrongDigit = (parseInt(encryptionKey[digit], 16) ^ (1 << (keyBit & 3))).toString(16);
        const wrongKey = encryptionKey.slice(0, digit) + wrongDigit + encryptionKey.slice(digit + 1);
        expect(wrongKey).not.toBe(encryptionKey);
        expect(await failure(decryptDocument(stored, wrongKey, ipfsHash))).toEqual({
          name: 'IntegrityError',
          message: expect.stringContaining('could not be decrypted'),
        });
      }),
      { numRuns: 60 },
    );
  });

  it('uses a fresh key and IV every time, so the same bytes never store the same way twice', async () => {
    await fc.assert(
      fc.asyncProperty(plainArb, async (plain) => {
        const [a, b] = await Promise.all([encryptDocument(plain), encryptDocument(plain)]);
        expect(a.encryptionKey).not.toBe(b.encryptionKey);
        expect(new Uint8Array(a.stored.slice(0, IV_BYTES))).not.toEqual(new Uint8Array(b.stored.slice(0, IV_BYTES)));
        expect(a.ipfsHash).not.toBe(b.ipfsHash);
      }),
      { numRuns: 30 },
    );
  });
});
