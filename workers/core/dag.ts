// The ledger as a hash DAG (docs/decisions/one-ledger-across-devices.md): each block names the heads its author
// saw, and every device puts the same blocks in the same order.
import type { Block } from './types';

// The blocks a block follows: its heads, or the one block before it on a straight chain (none for a genesis).
export function parentsOf(block: Pick<Block, 'heads' | 'previousHash' | 'id'>): readonly string[] {
  if (block.heads !== undefined) return block.heads;
  return block.id === '0' ? [] : [block.previousHash];
}

// The heads of `blocks` (in order): the blocks no other block names, sorted.
export function tipsOf(blocks: readonly Block[]): string[] {
  const named = new Set<string>();
  for (const block of blocks) for (const parent of parentsOf(block)) named.add(parent);
  return blocks
    .filter((block) => !named.has(block.hash))
    .map((block) => block.hash)
    .sort();
}

// Which of two ready blocks goes first: a block of the straight start (no heads) always does, so blocks hashed
// with their index keep it; then the earlier timestamp, then the smaller hash. Ready blocks never go back in time.
function before(a: Block, b: Block): boolean {
  const aStraight = a.heads === undefined;
  if (aStraight !== (b.heads === undefined)) return aStraight;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
  return a.hash < b.hash;
}

// A binary heap of ready blocks, by `before`.
class ReadyHeap {
  private items: Block[] = [];
  get size(): number {
    return this.items.length;
  }
  push(block: Block): void {
    const items = this.items;
    items.push(block);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }
  pop(): Block {
    const items = this.items;
    const top = items[0];
    const last = items.pop() as Block;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < items.length && before(items[left], items[least])) least = left;
        if (right < items.length && before(items[right], items[least])) least = right;
        if (least === i) break;
        [items[i], items[least]] = [items[least], items[i]];
        i = least;
      }
    }
    return top;
  }
}

export interface Ordered {
  blocks: Block[]; // in the ledger's order, each numbered by its place (a copy where the number changed)
  unplaced: Block[]; // blocks naming a head that is not among `blocks`: they wait for it
}

// The one order of a set of blocks: topological, the earliest ready block first (Kahn's algorithm). Duplicates
// (same hash) count once. The genesis is the one block with no parents; any other parentless block stays unplaced.
export function orderBlocks(input: readonly Block[]): Ordered {
  const byHash = new Map<string, Block>();
  for (const block of input) if (!byHash.has(block.hash)) byHash.set(block.hash, block);
  const waiting = new Map<string, number>(); // hash -> parents not yet placed
  const children = new Map<string, Block[]>();
  const ready = new ReadyHeap();
  let genesis: Block | undefined;
  for (const block of byHash.values()) {
    const parents = parentsOf(block);
    if (parents.length === 0) {
      if (!genesis || before(block, genesis)) genesis = block;
      continue;
    }
    waiting.set(block.hash, parents.length);
    for (const parent of parents) {
      const list = children.get(parent);
      if (list) list.push(block);
      else children.set(parent, [block]);
    }
  }
  if (genesis) ready.push(genesis);
  const blocks: Block[] = [];
  while (ready.size > 0) {
    const block = ready.pop();
    const id = String(blocks.length);
    blocks.push(block.id === id ? block : { ...block, id });
    for (const child of children.get(block.hash) ?? []) {
      const left = (waiting.get(child.hash) as number) - 1;
      waiting.set(child.hash, left);
      if (left === 0) ready.push(child);
    }
  }
  const placed = new Set(blocks.map((block) => block.hash));
  const unplaced = [...byHash.values()].filter((block) => !placed.has(block.hash));
  return { blocks, unplaced };
}

// The first place where two orders differ (the shorter length when one extends the other).
export function firstDifference(a: readonly Block[], b: readonly Block[]): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) if (a[i].hash !== b[i].hash) return i;
  return shorter;
}
