// What the server verified, in files of its own (never in a document a client can change): the blocks in batches,
// the enrolled users' keys, the checked key wraps and file entries. A restart rebuilds the ledger from here only.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FileEntry, SyncedKeys } from '../workers/core/sync-protocol';
import type { Block } from '../workers/core/types';
import { readJsonFile, writeWhole } from './whole-file';

const BATCH = /^blocks-(\d{8})\.json$/;
const MAX_BATCH_FILES = 64; // more batch files than this are written again as one
const REMEDY =
  'Move the storage folder aside and start the server with an empty one: the devices seed it again from their ledgers.';

export interface StoredWrap {
  json: string; // one KeyWrap as its device sent it
  from: string; // the device that sent it: only that device can take it out again
}

export interface VerifiedStore {
  keys(): SyncedKeys | null;
  blocks(): unknown[]; // as stored: verified again on load
  wraps(): Record<string, StoredWrap>;
  files(): Record<string, FileEntry>;
  saveKeys(keys: SyncedKeys): void;
  addBlocks(blocks: readonly Block[]): void; // throws when the disk refuses: the caller does not hold them then
  saveWraps(wraps: Record<string, StoredWrap>): void;
  saveFiles(files: Record<string, FileEntry>): void;
}

export function openVerifiedStore(dir: string): VerifiedStore {
  mkdirSync(dir, { recursive: true });
  const path = (name: string) => join(dir, name);
  const read = <T>(name: string, fallback: T): T => (existsSync(path(name)) ? (readJsonFile(path(name), REMEDY) as T) : fallback);
  const batchNames = () =>
    readdirSync(dir)
      .filter((name) => BATCH.test(name))
      .sort();
  let next = Number(BATCH.exec(batchNames().at(-1) ?? '')?.[1] ?? 0) + 1;
  const batchName = (n: number) => `blocks-${String(n).padStart(8, '0')}.json`;

  function compact(): void {
    const names = batchNames();
    if (names.length <= MAX_BATCH_FILES) return;
    const all = names.flatMap((name) => read<unknown[]>(name, []));
    writeWhole(path(batchName(next++)), JSON.stringify(all));
    for (const name of names) rmSync(path(name), { force: true }); // the new file already holds every block
  }

  return {
    keys: () => read<SyncedKeys | null>('keys.json', null),
    blocks: () => batchNames().flatMap((name) => read<unknown[]>(name, [])),
    wraps: () => read<Record<string, StoredWrap>>('wraps.json', {}),
    files: () => read<Record<string, FileEntry>>('files.json', {}),
    saveKeys: (keys) => writeWhole(path('keys.json'), JSON.stringify(keys)),
    addBlocks(blocks) {
      if (blocks.length === 0) return;
      writeWhole(path(batchName(next++)), JSON.stringify(blocks));
      compact();
    },
    saveWraps: (wraps) => writeWhole(path('wraps.json'), JSON.stringify(wraps)),
    saveFiles: (files) => writeWhole(path('files.json'), JSON.stringify(files)),
  };
}
