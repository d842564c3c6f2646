import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGenesisBlock, mineBlock, verifyChain } from '../../workers/core/chain';
import { mineBlockAsync, type MiningProgressReport } from '../../workers/core/mining';
import { createNonceSearch } from '../../workers/core/nonce-search';
import type { ChainRecord } from '../../workers/core/types';

function wordsToHex(words: Int32Array): string {
  return Array.from(words, (word) => (word >>> 0).toString(16).padStart(8, '0')).join('');
}

function nodeHeaderHash(prefix: Uint8Array, nonce: number): string {
  return createHash('sha256').update(prefix).update(String(nonce)).digest('hex');
}

function record(i: number): ChainRecord {
  return {
    id: `record-${i}`,
    patientId: 'patient-2',
    doctorId: 'doctor-2',
    type: 'test_report',
    title: `Blood panel ${i}`,
    description: '',
    files: [],
    timestamp: new Date(Date.UTC(2025, 5, 1, 12, i)).toISOString(),
  };
}

const genesis = createGenesisBlock(record(0), record(0).timestamp);

describe('nonce search (midstate SHA-256)', () => {
  it('hashes prefix + nonce digits exactly as node:crypto does, for any prefix length and nonce', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 200 }), fc.oneof(fc.nat(1000), fc.maxSafeNat()), (prefix, nonce) => {
        expect(wordsToHex(createNonceSearch(prefix, 0).digestWords(nonce))).toBe(nodeHeaderHash(prefix, nonce));
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with node:crypto at every tail length around the 64-byte block boundaries', () => {
    for (let length = 40; length <= 140; length++) {
      const prefix = new Uint8Array(length).map((_, i) => (i * 31 + length) & 0xff);
      const search = createNonceSearch(prefix, 0);
      for (const nonce of [0, 9, 10, 123456, 9007199254740991]) {
        expect(wordsToHex(search.digestWords(nonce))).toBe(nodeHeaderHash(prefix, nonce));
      }
    }
  });

  it('returns the first nonce in the range whose hash has the leading zero digits, for difficulties 1 to 9', () => {
    const prefix = new TextEncoder().encode('3|' + 'f'.repeat(64) + '|2025-06-01T12:00:00.000Z|' + 'e'.repeat(64) + '|');
    const hashes = Array.from({ length: 3000 }, (_, nonce) => nodeHeaderHash(prefix, nonce));
    for (let difficulty = 1; difficulty <= 9; difficulty++) {
      const expected = hashes.findIndex((hash) => hash.startsWith('0'.repeat(difficulty)));
      expect(createNonceSearch(prefix, difficulty).search(0, hashes.length), `difficulty ${difficulty}`).toBe(expected);
    }
    expect(createNonceSearch(prefix, 1).search(0, 0)).toBe(-1);
  });

  it('checks the whole zero words for difficulties of 8 digits and more', () => {
    const prefix = new TextEncoder().encode('x');
    const search = createNonceSearch(prefix, 8);
    expect(search.search(0, 5000)).toBe(-1);
  });
});

describe('mineBlockAsync', () => {
  it('mines the same block as the synchronous miner and counts every attempt', async () => {
    const expected = mineBlock(genesis, record(1), record(1).timestamp, 3);
    const { block, attempts } = await mineBlockAsync(genesis, record(1), record(1).timestamp, { difficulty: 3, yieldEvery: 500 });
    expect(block).toEqual(expected);
    expect(attempts).toBe(expected.nonce + 1);
    expect(block!.hash.startsWith('000')).toBe(true);
    expect(verifyChain([genesis, block!], 2).valid).toBe(true);
  });

  it('starts at startNonce, so disjoint workers can search their own ranges', async () => {
    const expected = mineBlock(genesis, record(1), record(1).timestamp, 3);
    const { block, attempts } = await mineBlockAsync(genesis, record(1), record(1).timestamp, {
      difficulty: 3,
      startNonce: expected.nonce,
    });
    expect(block?.nonce).toBe(expected.nonce);
    expect(attempts).toBe(1);
  });

  it('stops at the next yield once cancelled, returning no block', async () => {
    let cancelled = false;
    const result = await mineBlockAsync(genesis, record(1), record(1).timestamp, {
      difficulty: 14,
      yieldEvery: 1000,
      progressEveryMs: 0,
      isCancelled: () => cancelled,
      onProgress: (p) => {
        if (p.attempts >= 3000) cancelled = true;
      },
    });
    expect(result).toEqual({ block: null, attempts: 3000 });
  });

  it('sees a cancel set by another task: it yields macrotasks, not just microtasks', async () => {
    let cancelled = false;
    setTimeout(() => {
      cancelled = true;
    }, 20);
    const result = await mineBlockAsync(genesis, record(1), record(1).timestamp, {
      difficulty: 14,
      isCancelled: () => cancelled,
    });
    // at difficulty 14 the search would outlast the test's timeout: returning at all means the cancel was seen
    expect(result.block).toBeNull();
    expect(result.attempts).toBeGreaterThan(0);
  });

  it('reports progress no more often than every 100 ms, with attempts and hash rate', async () => {
    let clock = 0;
    const reports: MiningProgressReport[] = [];
    let cancelled = false;
    const result = await mineBlockAsync(genesis, record(1), record(1).timestamp, {
      difficulty: 14,
      yieldEvery: 1000,
      now: () => (clock += 30),
      isCancelled: () => cancelled,
      onProgress: (p) => {
        reports.push(p);
        if (reports.length === 3) cancelled = true;
      },
    });
    expect(result.block).toBeNull();
    expect(reports).toHaveLength(3);
    // the clock moves 30 ms per reading, one reading per 1000 attempts: a report every 4 chunks
    expect(reports.map((r) => r.attempts)).toEqual([4000, 8000, 12000]);
    expect(reports.map((r) => r.elapsedMs)).toEqual([120, 240, 360]);
    for (const r of reports) expect(r.hashRate).toBeCloseTo((r.attempts * 1000) / r.elapsedMs, 6);
    expect(result.attempts).toBe(12000);
  });

  it('refuses a bad difficulty or yield interval', async () => {
    await expect(mineBlockAsync(genesis, record(1), 'now', { difficulty: 65 })).rejects.toMatchObject({
      name: 'ValidationError',
    });
    await expect(mineBlockAsync(genesis, record(1), 'now', { difficulty: 2, yieldEvery: 0 })).rejects.toMatchObject({
      name: 'ValidationError',
    });
  });
});
