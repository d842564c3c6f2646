// The server's own small state beside Automerge's storage: which ledger document it publishes, which device holds
// which document and belongs to which user, which devices were removed, and the sessions of proven devices (kept by hash only).
import { existsSync } from 'node:fs';
import type { AutomergeUrl } from '@automerge/automerge-repo';
import { readJsonFile, writeWhole } from './whole-file';

export interface KnownDevice {
  userId: string; // the user who first proved this device id: it stays theirs
  name: string;
  url?: AutomergeUrl; // its DeviceDoc, once registered
  joinedAt: string; // ISO 8601
  bytes: number; // bytes of changes the server took from it
}

export interface ServerState {
  version: 2;
  ledgerUrl: AutomergeUrl | null;
  devices: Record<string, KnownDevice>; // by device id
  sessions: Record<string, string>; // SHA-256 of a session token (hex) -> device id
  removed: Record<string, RemovedDevice>; // device ids a device of their user removed: a join under one is refused
  removedBytes: Record<string, number>; // by user id: what their removed devices sent, still counted against the user
}

export interface RemovedDevice {
  userId: string;
  name: string;
  at: string; // ISO 8601
  by: string; // the device id that removed it
}

const REMEDY =
  'Delete it and start the server again: the verified blocks, keys and wraps stay in the folder, and every device proves itself again.';

export function emptyState(): ServerState {
  return { version: 2, ledgerUrl: null, devices: {}, sessions: {}, removed: {}, removedBytes: {} };
}

export function readState(file: string, log: (line: string) => void): ServerState {
  if (!existsSync(file)) return emptyState();
  const state = readJsonFile(file, REMEDY) as Partial<ServerState> | null;
  if (state?.version !== 2) {
    // a protocol-1 folder trusted its ledger document, which any client could change: nothing of it is carried over
    log(`${file} was written by an older server: its devices join again and the first one seeds the ledger`);
    return emptyState();
  }
  return {
    version: 2,
    ledgerUrl: state.ledgerUrl ?? null,
    devices: state.devices ?? {},
    sessions: state.sessions ?? {},
    removed: state.removed ?? {}, // absent in a folder written before devices could be removed
    removedBytes: state.removedBytes ?? {},
  };
}

export function writeState(file: string, state: ServerState): void {
  writeWhole(file, `${JSON.stringify(state, null, 2)}\n`);
}
