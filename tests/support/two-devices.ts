// Two devices of one ledger in one test: the second holds exactly what the first one stores, as a device that joined
// and took the ledger (tests of merges, key wraps and sync).
import type { LedgerDeps } from '../../workers/ledger/deps';
import { createLedgerBackend } from '../../workers/service';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { createClock } from './ledger-fixtures';
import { testDeps } from './test-ledger';

export async function copyOf(storage: LedgerStorage): Promise<LedgerStorage> {
  const stored = await storage.load();
  const copy = createMemoryStorage();
  const contents = await Promise.all(
    stored.contentIds.map(async (id) => ({ id, bytes: (await storage.readContent(id)) as ArrayBuffer })),
  );
  await copy.commit({ blocks: stored.blocks, documents: stored.documents, contents, meta: stored.meta });
  return copy;
}

export async function twoDevices() {
  const clock = createClock();
  const deps = (storage: LedgerStorage): Partial<LedgerDeps> => ({ storage, now: clock.now });
  const storageA = createMemoryStorage();
  const a = createLedgerBackend(testDeps(deps(storageA)));
  await a.store.ready();
  const storageB = await copyOf(storageA);
  const b = createLedgerBackend(testDeps(deps(storageB)));
  await b.store.ready();
  return { a, b, storageA, storageB, clock };
}

export type Device = Awaited<ReturnType<typeof twoDevices>>['a'];
