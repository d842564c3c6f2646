import { describe, expect, it } from 'vitest';
import { inArrivalOrder, onFirstUse } from '../../workers/ledger/on-first-use';

// A part that loads when the test says so.
function partLoadedOnRelease() {
  let release!: () => void;
  const loaded = new Promise<void>((resolve) => (release = resolve));
  let loads = 0;
  const part = onFirstUse(async () => {
    loads += 1;
    await loaded;
    return { name: 'sandbox' };
  });
  return { part, release, loads: () => loads };
}

describe('a part of the service built on first use', () => {
  it('is loaded once however many calls wait for it, then answers without waiting', async () => {
    const { part, release, loads } = partLoadedOnRelease();
    expect(part.built()).toBeUndefined();
    const first = part.get();
    const second = part.get();
    expect(part.loading()).not.toBeNull();
    release();
    expect(await first).toBe(await second);
    expect(loads()).toBe(1);
    expect(part.built()).toEqual({ name: 'sandbox' });
    expect(part.loading()).toBeNull();
  });

  it('is loaded again by the next call after a failed load', async () => {
    let attempts = 0;
    const part = onFirstUse(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('offline');
      return 'built';
    });
    await expect(part.get()).rejects.toThrow('offline');
    expect(part.loading()).toBeNull();
    expect(await part.get()).toBe('built');
  });

  it('keeps calls in the order they were made while it loads: a later call does not overtake the lazy one', async () => {
    const { part, release } = partLoadedOnRelease();
    const ran: string[] = [];
    const service = inArrivalOrder(
      {
        reset: async () => ran.push(`reset on ${(await part.get()).name}`),
        read: () => ran.push('read'),
      },
      part.loading,
    );
    const reset = service.reset();
    const read = service.read();
    expect(ran).toEqual([]); // the read waits behind the load the reset started
    release();
    await Promise.all([reset, read]);
    expect(ran).toEqual(['reset on sandbox', 'read']);
    service.read(); // loaded: calls run at once again
    expect(ran).toEqual(['reset on sandbox', 'read', 'read']);
  });
});
