// Which of a device's waiting blocks the sync server merges (server/ledger-keeper.ts, placeable): those whose every
// named block is held or placeable among them, however long the chain they make.
import { describe, expect, it } from 'vitest';
import { placeable } from '../../server/ledger-keeper';

const GENESIS = 'g'.repeat(64);
const hashOf = (n: number) => n.toString(16).padStart(64, '0');
const blockNaming = (n: number, heads: string[]) => ({ id: String(n + 1), hash: hashOf(n), heads });

// `length` blocks, each naming the one before, the first naming the held genesis; in the order a document lists them.
function chainOf(length: number): Map<string, Record<string, unknown>> {
  const pool = new Map<string, Record<string, unknown>>();
  for (let n = length - 1; n >= 0; n--) pool.set(hashOf(n), blockNaming(n, [n === 0 ? GENESIS : hashOf(n - 1)]));
  return pool;
}

const held = (hash: string) => hash === GENESIS;

describe('the blocks of a device the server can place', () => {
  it('places a chain of 100,000 blocks listed newest first, each naming the one before', () => {
    const pool = chainOf(100_000);
    expect(placeable(pool, held)).toHaveLength(100_000);
  });

  it('places none of a long chain whose first block names a block nobody holds', () => {
    const pool = chainOf(50_000);
    pool.set(hashOf(0), blockNaming(0, ['f'.repeat(64)]));
    expect(placeable(pool, held)).toEqual([]);
  });

  it('places the blocks before a gap and none after it, nor a cycle, and a join only with both of its heads', () => {
    const pool = chainOf(10);
    pool.delete(hashOf(5)); // 6..9 wait for it
    pool.set('a'.repeat(64), { id: 'x', hash: 'a'.repeat(64), heads: ['b'.repeat(64)] });
    pool.set('b'.repeat(64), { id: 'y', hash: 'b'.repeat(64), heads: ['a'.repeat(64)] });
    pool.set('c'.repeat(64), { id: 'z', hash: 'c'.repeat(64), heads: [hashOf(4), hashOf(3)] });
    pool.set('d'.repeat(64), { id: 'w', hash: 'd'.repeat(64), heads: [hashOf(4), hashOf(7)] });
    const hashes = placeable(pool, held).map((value) => value.hash);
    expect(hashes.sort()).toEqual([hashOf(0), hashOf(1), hashOf(2), hashOf(3), hashOf(4), 'c'.repeat(64)].sort());
  });
});
