// A new device taking a long ledger (workers/sync/): the blocks go to the store in slices, oldest first, so the card
// counts down as they are stored; and a device document the server could not fetch at once is named again at once.
import { afterEach, describe, expect, it } from 'vitest';
import type { Block } from '../../workers/core/types';
import { startSync } from '../../workers/sync/sync-client';
import { TAKE_SLICE, namingRefused, takeSlices } from '../../workers/sync/sync-plan';
import type { RemoteMerge, SyncClient } from '../../workers/sync/sync-ports';
import { fakeBlock, fakeProve, fakeServer, fakeStore } from '../support/fake-sync';

const hashOf = (n: number) => n.toString(16).padStart(64, '0');

// A straight chain of `height` blocks, each naming the one before, a minute apart.
function chain(height: number): Block[] {
  return Array.from({ length: height }, (_, i) => ({
    ...fakeBlock(hashOf(i + 1), i),
    previousHash: i === 0 ? '0'.repeat(64) : hashOf(i),
  }));
}

const clients: SyncClient[] = [];
afterEach(async () => {
  while (clients.length > 0) await clients.pop()?.close();
});

async function connect(server: ReturnType<typeof fakeServer>, store: ReturnType<typeof fakeStore>, changed = () => {}) {
  const client = await startSync({
    serverUrl: 'ws://127.0.0.1:3030',
    deviceName: 'New tablet',
    deviceId: 'device-2',
    store,
    prove: fakeProve,
    transport: server.transport,
    now: () => Date.UTC(2026, 10, 26, 10, 42),
    changed,
  });
  clients.push(client);
  return client;
}

describe('taking a long ledger in slices', () => {
  it('orders the blocks to take by time and cuts them in slices', () => {
    const blocks = chain(5);
    const shuffled = [blocks[3], blocks[0], blocks[4], blocks[2], blocks[1]];
    expect(takeSlices(shuffled, 2)).toEqual([[blocks[0], blocks[1]], [blocks[2], blocks[3]], [blocks[4]]]);
    expect(takeSlices([])).toEqual([]);
  });

  it('names the blocks left waiting that follow a refused block, through the blocks between', () => {
    const [a, b, c] = chain(3);
    const other = { ...fakeBlock(hashOf(99), 5), previousHash: hashOf(98) }; // waits for a block not refused
    const named = namingRefused([c, other, b], new Map([[a.hash, 'forged']]));
    expect(named).toEqual([
      [b.hash, `it names block ${a.hash.slice(0, 8)}, which was refused`],
      [c.hash, `it names block ${b.hash.slice(0, 8)}, which was refused`],
    ]);
  });

  it('stores the oldest blocks first, a slice at a time, and says so after each', async () => {
    const blocks = chain(2 * TAKE_SLICE + 2);
    const server = fakeServer({ blocks });
    const store = fakeStore([blocks[0]]);
    const heldWhenChanged: number[] = [];
    await connect(server, store, () => heldWhenChanged.push(store.held.length));
    await expect.poll(() => store.held.length).toBe(blocks.length);
    const sizes = store.mergeRemote.mock.calls.map(([incoming]) => incoming.length);
    expect(sizes).toEqual([TAKE_SLICE, TAKE_SLICE, 1]);
    expect(store.mergeRemote.mock.calls[0][0]).toEqual(blocks.slice(1, TAKE_SLICE + 1));
    expect(heldWhenChanged).toEqual(expect.arrayContaining([TAKE_SLICE + 1, 2 * TAKE_SLICE + 1, 2 * TAKE_SLICE + 2]));
  });

  it('offers a block that waited in one slice again with the next, and leaves none behind a refused block pending', async () => {
    const blocks = chain(TAKE_SLICE + 3);
    // a block dated later than its place sorts into the second slice: the blocks after it in the first slice wait for it
    const late = { ...blocks[TAKE_SLICE - 1], timestamp: '2030-01-01T00:00:00.000Z' };
    const forged = { ...fakeBlock(`bad${'0'.repeat(61)}`, TAKE_SLICE + 3), previousHash: blocks[TAKE_SLICE + 2].hash };
    const follower = { ...fakeBlock(hashOf(TAKE_SLICE + 10), TAKE_SLICE + 4), previousHash: forged.hash };
    const ledger = blocks.map((block) => (block.hash === late.hash ? late : block));
    const server = fakeServer({ blocks: [...ledger, forged, follower] });
    const store = fakeStore([blocks[0]]);
    // as the ledger store merges: a block whose parent is not held waits, a forged one is refused
    store.mergeRemote.mockImplementation(async (incoming: unknown[]): Promise<RemoteMerge> => {
      const outcome: RemoteMerge = { added: 0, refused: [], waiting: [] };
      let pending = [...(incoming as Block[])];
      for (let placed = true; placed;) {
        placed = false;
        for (const block of pending) {
          if (!store.held.some((held) => held.hash === block.previousHash)) continue;
          if (block.hash.startsWith('bad')) outcome.refused.push({ hash: block.hash, reason: 'forged' });
          else store.held.push(block);
          pending = pending.filter((other) => other !== block);
          placed = true;
        }
      }
      outcome.waiting = pending;
      return outcome;
    });
    const client = await connect(server, store);
    await expect.poll(() => client.status().state).toBe('in-step');
    expect(store.held).toHaveLength(TAKE_SLICE + 3);
    expect(store.mergeRemote.mock.calls[1][0]).toContainEqual(blocks[TAKE_SLICE]); // it waited in the first slice
    expect(client.status().pendingBlocks).toBe(0); // the follower of the forged block is refused, not awaited
  });
});

describe('naming the device document', () => {
  it('names it again at once when the server could not fetch it yet', async () => {
    const [genesis] = chain(1);
    const server = fakeServer({ genesis, unfetched: 2 });
    await connect(server, fakeStore([genesis]));
    expect(server.registered).toHaveLength(3);
  });

  it('gives up after three answers that it could not, as when the server does not answer (tried again later)', async () => {
    const [genesis] = chain(1);
    const server = fakeServer({ genesis, unfetched: 3 });
    await expect(connect(server, fakeStore([genesis]))).rejects.toThrow('the server could not fetch the device document yet');
    expect(server.registered).toHaveLength(3);
  });
});
