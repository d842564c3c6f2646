// The browser's storage for this site (the ledger's IndexedDB is most of it): how much, and whether the
// browser may evict it when space runs low (docs/decisions/offline-app.md).
export interface StorageStatus {
  usage: number; // bytes
  quota: number; // bytes this site may use in all
  persisted: boolean; // true: the browser keeps it until the user deletes it
}

function storageManager(): StorageManager | undefined {
  return typeof navigator !== 'undefined' && navigator.storage && typeof navigator.storage.estimate === 'function'
    ? navigator.storage
    : undefined;
}

// null where the browser has no Storage API (an insecure origin, an old browser).
export async function readStorageStatus(): Promise<StorageStatus | null> {
  const storage = storageManager();
  if (!storage) return null;
  const [estimate, persisted] = await Promise.all([storage.estimate(), storage.persisted()]);
  return { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted };
}

// Asks the browser to keep the site's storage; true when it is kept. Chromium decides without asking the
// user (an installed app is kept), Firefox asks once and remembers the answer.
export async function keepStorage(): Promise<boolean> {
  const storage = storageManager();
  if (!storage || typeof storage.persist !== 'function') return false;
  return (await storage.persisted()) || storage.persist();
}
