// Automerge-repo's file storage behind a guard: a failed save (a full disk, a removed folder) is logged and counted,
// never an unhandled rejection that stops the server; and the folder's bytes are tracked against SYNC_MAX_BYTES.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { StorageAdapterInterface, StorageKey } from '@automerge/automerge-repo';
import { NodeFSStorageAdapter } from '@automerge/automerge-repo-storage-nodefs';

const RECOUNT_MS = 30_000; // the folder's size is measured again this often (removals and compaction shrink it)
const FAILING_MS = 30_000; // after a failed save, new data is refused for this long

export function folderBytes(dir: string): number {
  let total = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

export interface GuardedStorage extends StorageAdapterInterface {
  full(incoming?: number): string | null; // why `incoming` more bytes are refused now (the folder's cap, failing saves), or null
}

export function guardedStorage(
  dir: string, // the whole storage folder, counted against maxBytes
  automergeDir: string,
  maxBytes: number,
  log: (line: string) => void,
): GuardedStorage {
  const inner = new NodeFSStorageAdapter(automergeDir);
  let used = folderBytes(dir);
  let countedAt = Date.now();
  let failedAt = -Infinity;
  let failure = '';

  const problem = (error: unknown) => (error instanceof Error ? error.message : String(error));
  function failed(what: string, key: StorageKey, error: unknown): void {
    failedAt = Date.now();
    failure = problem(error);
    log(`storage error: could not ${what} ${key.join('/')}: ${failure}`);
  }

  return {
    async load(key) {
      try {
        return await inner.load(key);
      } catch (error) {
        failed('read', key, error);
        return undefined;
      }
    },
    async save(key, data) {
      try {
        await inner.save(key, data);
        used += data.byteLength;
      } catch (error) {
        failed('save', key, error);
      }
    },
    async remove(key) {
      try {
        await inner.remove(key);
      } catch (error) {
        failed('remove', key, error);
      }
    },
    async loadRange(prefix) {
      try {
        return await inner.loadRange(prefix);
      } catch (error) {
        failed('read', prefix, error);
        return [];
      }
    },
    async removeRange(prefix) {
      try {
        await inner.removeRange(prefix);
      } catch (error) {
        failed('remove', prefix, error);
      }
    },
    full(incoming = 0) {
      if (Date.now() - countedAt > RECOUNT_MS) {
        used = folderBytes(dir);
        countedAt = Date.now();
      }
      if (Date.now() - failedAt < FAILING_MS)
        return `the server's storage failed to save (${failure}): it refuses new data for now`;
      if (used + incoming > maxBytes)
        return `the server's storage folder is at its cap of ${maxBytes} bytes: it refuses new data and keeps serving what it holds`;
      return null;
    },
  };
}
