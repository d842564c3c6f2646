import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sha256 as jsSha256 } from 'js-sha256';
import { describe, expect, it } from 'vitest';
import {
  GENESIS_PREVIOUS_HASH,
  blockHash,
  canonicalJson,
  createGenesisBlock,
  meetsDifficulty,
  mineBlock,
  recordDataHash,
  verifyChain,
  verifyChainFrom,
} from '../../workers/core/chain';
import { sha256Hex } from '../../workers/core/sha256';
import type { Block, ChainRecord } from '../../workers/core/types';

function nodeSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function record(i: number, overrides: Record<string, unknown> = {}): ChainRecord {
  return {
    id: `record-${i}`,
    patientId: 'patient-1',
    doctorId: 'doctor-1',
    type: i === 0 ? 'diagnosis' : 'prescription',
    title: `Record ${i}`,
    description: `Description of record ${i}, with ünïcödé and an emoji 🩺`,
    files:
      i === 0
        ? []
        : [{ cid: `Qm${'x'.repeat(44)}`, documentId: `doc-${i}`, name: `scan-${i}.pdf`, size: 100, type: 'application/pdf' }],
    timestamp: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    ...overrides,
  } as ChainRecord;
}

function buildChain(length: number, difficulty = 2): Block[] {
  const blocks = [createGenesisBlock(record(0), record(0).timestamp, difficulty)];
  for (let i = 1; i < length; i++) {
    blocks.push(mineBlock(blocks[i - 1], record(i), record(i).timestamp, difficulty));
  }
  return blocks;
}

// A deep copy, so a test can tamper with it without touching the shared chain.
function copy(blocks: Block[]): Block[] {
  return structuredClone(blocks);
}

const chain = buildChain(6);

describe('sha256Hex (the fast SHA-256 verification uses)', () => {
  it('equals node:crypto for every length from 0 to 300 bytes, across the padding boundaries', () => {
    for (let length = 0; length <= 300; length++) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 131 + length * 7) & 0xff);
      expect(sha256Hex(bytes), `length ${length}`).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('equals node:crypto and js-sha256 for random inputs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const expected = createHash('sha256').update(bytes).digest('hex');
        expect(sha256Hex(bytes)).toBe(expected);
        expect(jsSha256.hex(bytes)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('matches the FIPS 180-2 test vector for "abc"', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('record data hash', () => {
  it('is the SHA-256 of the record as JSON with sorted keys', () => {
    const r = record(3);
    const sorted = Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(canonicalJson(r)).toBe(JSON.stringify(sorted));
    expect(recordDataHash(r)).toBe(nodeSha256(JSON.stringify(sorted)));
  });

  it('does not change when the keys arrive in another order, at any depth', () => {
    const r = record(0, {
      isEmergencyAccess: true,
      emergency: { grantId: 'g1', event: 'granted', accessLevel: 'full', reason: 'ER', durationMinutes: 60 },
    });
    const reversed = JSON.parse(JSON.stringify(r, Object.keys(r).reverse())) as ChainRecord;
    (reversed as { emergency: unknown }).emergency = {
      durationMinutes: 60,
      reason: 'ER',
      accessLevel: 'full',
      event: 'granted',
      grantId: 'g1',
    };
    expect(Object.keys(reversed)[0]).not.toBe(Object.keys(r)[0]);
    expect(recordDataHash(reversed)).toBe(recordDataHash(r));
  });

  it('changes when one character of the record changes', () => {
    expect(recordDataHash(record(2, { title: 'Record 2.' }))).not.toBe(recordDataHash(record(2)));
  });

  it('sorts the keys of nested objects and keeps array order', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 2 }, 3], a: { d: null, c: 'x' } })).toBe(
      '{"a":{"c":"x","d":null},"b":[{"a":2,"z":1},3]}',
    );
  });

  it('sorts integer-like keys as text too', () => {
    expect(canonicalJson({ b: 1, 10: 'ten', 2: 'two', a: [{ 1: true, '': 0 }] })).toBe(
      '{"10":"ten","2":"two","a":[{"":0,"1":true}],"b":1}',
    );
  });

  it('writes an own "__proto__" key as data, never the prototype (found by the property below)', () => {
    const value = JSON.parse('{"":{"__proto__":false,"":""}}') as unknown;
    expect(canonicalJson(value)).toBe('{"":{"":"","__proto__":false}}');
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"z":[1,{"y":2,"x":null}]}}'))).toBe(
      '{"__proto__":{"z":[1,{"x":null,"y":2}]},"b":1}',
    );
  });

  it('equals an independent sorted-key serializer for any JSON value, whatever the key order', () => {
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        const entries = Object.keys(value)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${reference((value as Record<string, unknown>)[key])}`);
        return `{${entries.join(',')}}`;
      }
      return JSON.stringify(value);
    };
    const reversed = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reversed);
      if (value !== null && typeof value === 'object') {
        return Object.fromEntries(
          Object.keys(value)
            .reverse()
            .map((key) => [key, reversed((value as Record<string, unknown>)[key])]),
        );
      }
      return value;
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = reference(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(value)).toBe(expected);
        expect(canonicalJson(reversed(value))).toBe(expected);
        expect(canonicalJson(JSON.parse(expected))).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves undefined fields out, as JSON does', () => {
    expect(recordDataHash({ ...record(2), emergencyAccessExpiry: undefined } as unknown as ChainRecord)).toBe(
      recordDataHash(record(2)),
    );
  });
});

describe('block hash', () => {
  it('is the SHA-256 of index|previousHash|timestamp|dataHash|nonce', () => {
    const previous = 'ab'.repeat(32);
    const dataHash = 'cd'.repeat(32);
    expect(blockHash(7, previous, '2025-01-01T00:00:00.000Z', dataHash, 1234)).toBe(
      nodeSha256(`7|${previous}|2025-01-01T00:00:00.000Z|${dataHash}|1234`),
    );
  });

  it('meetsDifficulty counts leading zero hex digits', () => {
    expect(meetsDifficulty('00ab', 2)).toBe(true);
    expect(meetsDifficulty('0ab0', 2)).toBe(false);
    expect(meetsDifficulty('000f', 3)).toBe(true);
    expect(meetsDifficulty('abcd', 0)).toBe(true);
  });
});

describe('mining', () => {
  it('starts the chain with a mined genesis block at index 0 linked to 64 zeros', () => {
    const genesis = chain[0];
    expect(genesis.id).toBe('0');
    expect(genesis.previousHash).toBe(GENESIS_PREVIOUS_HASH);
    expect(genesis.hash).toMatch(/^00[0-9a-f]{62}$/);
    expect(genesis.dataHash).toBe(recordDataHash(record(0)));
    expect(genesis.hash).toBe(blockHash(0, GENESIS_PREVIOUS_HASH, genesis.timestamp, genesis.dataHash, genesis.nonce));
  });

  it('stores exactly the record it hashed: equal to the input, keys sorted, undefined fields dropped', () => {
    const input = { ...record(3), emergencyAccessExpiry: undefined, id: 'record-3' } as unknown as ChainRecord;
    const block = mineBlock(chain[2], input, input.timestamp);
    expect(block.data).toEqual(record(3));
    expect(block.data).not.toBe(input);
    expect('emergencyAccessExpiry' in block.data).toBe(false);
    expect(Object.keys(block.data)).toEqual(Object.keys(block.data).sort());
    expect(block.dataHash).toBe(nodeSha256(JSON.stringify(block.data)));
  });

  it('links each new block to the previous hash, with the next index and a hash meeting difficulty 2', () => {
    for (let i = 1; i < chain.length; i++) {
      expect(chain[i].id).toBe(String(i));
      expect(chain[i].previousHash).toBe(chain[i - 1].hash);
      expect(chain[i].hash.startsWith('00')).toBe(true);
      expect(chain[i].data).toEqual(record(i));
    }
  });

  it('finds the smallest nonce that meets the difficulty', () => {
    for (const block of chain) {
      const index = Number(block.id);
      for (let nonce = 0; nonce < block.nonce; nonce++) {
        const hash = blockHash(index, block.previousHash, block.timestamp, block.dataHash, nonce);
        expect(meetsDifficulty(hash, 2), `nonce ${nonce} of block ${index}`).toBe(false);
      }
    }
  });

  it('mines to the difficulty it is given', () => {
    const block = mineBlock(chain[5], record(6), record(6).timestamp, 3);
    expect(block.hash.startsWith('000')).toBe(true);
    expect(verifyChain([...chain, block], 2).valid).toBe(true);
    expect(createGenesisBlock(record(0), record(0).timestamp, 0).nonce).toBe(0);
  });

  it('refuses a difficulty that is not a whole number from 0 to 64', () => {
    for (const difficulty of [-1, 2.5, 65, Number.NaN]) {
      expect(() => mineBlock(chain[0], record(1), 'now', difficulty)).toThrow(
        expect.objectContaining({ name: 'ValidationError' }),
      );
    }
  });

  it('refuses to mine after a block whose id is not an index', () => {
    const previous = { ...chain[2], id: 'two' };
    expect(() => mineBlock(previous, record(3), 'now')).toThrow(expect.objectContaining({ name: 'ValidationError' }));
  });
});

describe('verifyChain', () => {
  it('finds a freshly mined chain valid', () => {
    expect(verifyChain(chain)).toEqual({ valid: true, height: 6 });
    expect(verifyChain(chain.slice(0, 1))).toEqual({ valid: true, height: 1 });
  });

  it('still finds the chain valid after a round trip through JSON with record keys reordered', () => {
    const reordered = copy(chain).map((block) => ({
      ...block,
      data: Object.fromEntries(Object.entries(block.data).reverse()) as ChainRecord,
    }));
    expect(verifyChain(JSON.parse(JSON.stringify(reordered)) as Block[]).valid).toBe(true);
  });

  it('names the block whose record was changed', () => {
    const blocks = copy(chain);
    blocks[3].data.title = 'Record 3 (edited)';
    expect(verifyChain(blocks)).toEqual({
      valid: false,
      height: 6,
      firstInvalid: { index: 3, reason: 'record data was changed (data hash mismatch)' },
    });
  });

  it('says the header no longer matches when the record and its data hash were both changed', () => {
    const blocks = copy(chain);
    blocks[2].data.description = 'rewritten';
    blocks[2].dataHash = recordDataHash(blocks[2].data);
    expect(verifyChain(blocks).firstInvalid).toEqual({ index: 2, reason: 'hash does not match the block header' });
  });

  it('names the block whose nonce was changed', () => {
    const blocks = copy(chain);
    blocks[4].nonce += 1;
    expect(verifyChain(blocks).firstInvalid).toEqual({ index: 4, reason: 'hash does not match the block header' });
  });

  it('names the block whose timestamp was changed', () => {
    const blocks = copy(chain);
    blocks[1].timestamp = '2030-01-01T00:00:00.000Z';
    expect(verifyChain(blocks).firstInvalid).toEqual({ index: 1, reason: 'hash does not match the block header' });
  });

  it('names the block whose previousHash link is broken', () => {
    const blocks = copy(chain);
    blocks[3].previousHash = blocks[1].hash;
    expect(verifyChain(blocks).firstInvalid).toEqual({ index: 3, reason: 'previousHash does not match block 2' });
  });

  it('names the block after a re-mined tampered block: its link breaks', () => {
    const blocks = copy(chain);
    const tampered = record(2, { title: 'Forged' });
    blocks[2] = mineBlock(blocks[1], tampered, blocks[2].timestamp);
    expect(verifyChain(blocks).firstInvalid).toEqual({ index: 3, reason: 'previousHash does not match block 2' });
  });

  it('names a block whose hash matches its header but does not meet the difficulty', () => {
    const blocks = copy(chain);
    const block = blocks[5];
    let nonce = block.nonce + 1;
    let hash = blockHash(5, block.previousHash, block.timestamp, block.dataHash, nonce);
    while (meetsDifficulty(hash, 1)) hash = blockHash(5, block.previousHash, block.timestamp, block.dataHash, ++nonce);
    blocks[5] = { ...block, nonce, hash };
    expect(verifyChain(blocks).firstInvalid).toEqual({ index: 5, reason: 'hash does not meet difficulty 2' });
  });

  it('names the first block below a higher difficulty than the chain was mined at', () => {
    const first = chain.findIndex((block) => !block.hash.startsWith('000'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(verifyChain(chain, 3).firstInvalid).toEqual({ index: first, reason: 'hash does not meet difficulty 3' });
  });

  it('names a block whose id is not its index', () => {
    const blocks = copy(chain);
    blocks[1].id = '7';
    expect(verifyChain(blocks).firstInvalid).toEqual({ index: 1, reason: 'id "7" does not match index 1' });
  });

  it('names the gap when a block is removed', () => {
    const blocks = copy(chain);
    blocks.splice(2, 1);
    expect(verifyChain(blocks)).toEqual({
      valid: false,
      height: 5,
      firstInvalid: { index: 2, reason: 'id "3" does not match index 2' },
    });
  });

  it('rejects a genesis block that does not link to 64 zeros', () => {
    const blocks = copy(chain);
    blocks[0].previousHash = '1'.repeat(64);
    expect(verifyChain(blocks).firstInvalid).toEqual({
      index: 0,
      reason: 'previousHash of the genesis block is not 64 zeros',
    });
  });

  it('reports the first of several bad blocks', () => {
    const blocks = copy(chain);
    blocks[4].data.title = 'later edit';
    blocks[2].nonce = 99999;
    expect(verifyChain(blocks).firstInvalid?.index).toBe(2);
  });

  it('reports a block with no record data as malformed instead of throwing', () => {
    const blocks = copy(chain);
    (blocks[2] as unknown as { data: null }).data = null;
    expect(verifyChain(blocks).firstInvalid).toEqual({ index: 2, reason: 'block is malformed (no record data)' });
  });

  it('finds an empty chain invalid: there is no genesis block', () => {
    expect(verifyChain([])).toEqual({
      valid: false,
      height: 0,
      firstInvalid: { index: 0, reason: 'the chain has no genesis block' },
    });
  });
});

describe('verifyChainFrom', () => {
  it('checks only the blocks from the given index, trusting the verified prefix', () => {
    const blocks = copy(chain);
    blocks[1].data.title = 'edited before the last verification';
    expect(verifyChainFrom(blocks, 2)).toEqual({ valid: true, height: 6 });
    expect(verifyChainFrom(blocks, 1).firstInvalid?.index).toBe(1);
  });

  it('checks the link of the first new block to the verified prefix', () => {
    const blocks = copy(chain);
    const stray = mineBlock(chain[3], record(6), record(6).timestamp);
    blocks.push({ ...stray, id: '6' });
    expect(verifyChainFrom(blocks, 6).firstInvalid).toEqual({ index: 6, reason: 'previousHash does not match block 5' });
  });

  it('finds a newly appended block valid', () => {
    const next = mineBlock(chain[5], record(6), record(6).timestamp);
    expect(verifyChainFrom([...chain, next], 6)).toEqual({ valid: true, height: 7 });
  });

  it('has nothing to check from the height on', () => {
    expect(verifyChainFrom(chain, chain.length)).toEqual({ valid: true, height: 6 });
  });

  it('refuses a negative start', () => {
    expect(() => verifyChainFrom(chain, -1)).toThrow(expect.objectContaining({ name: 'ValidationError' }));
  });
});
