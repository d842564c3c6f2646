// The server's own small state beside Automerge's storage: which ledger document it keeps and which device
// documents it watches, so a restart finds them again.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AutomergeUrl } from '@automerge/automerge-repo';

export interface ServerState {
  version: 1;
  ledgerUrl: AutomergeUrl | null;
  devices: Record<string, AutomergeUrl>; // device id -> its DeviceDoc
}

export function readState(file: string): ServerState {
  if (!existsSync(file)) return { version: 1, ledgerUrl: null, devices: {} };
  const state = JSON.parse(readFileSync(file, 'utf8')) as ServerState;
  if (state.version !== 1) throw new Error(`${file} has state version ${String(state.version)}, this server reads version 1`);
  return state;
}

// Written to a side file then renamed: a crash mid-write leaves the old state, never half a file.
export function writeState(file: string, state: ServerState): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
