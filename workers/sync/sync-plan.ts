// What a device decides when it connects and on every change: pure, so the decisions are tested without a server
// (docs/decisions/one-ledger-across-devices.md).
import {
  SYNC_PROTOCOL_VERSION,
  decodeBlock,
  encodeBlock,
  type DeviceDoc,
  type EncodedBlocks,
  type FileEntry,
  type LedgerDoc,
  type LedgerInfo,
} from '../core/sync-protocol';
import { parentsOf } from '../core/dag';
import { namesRefused } from '../core/merge';
import type { Block } from '../core/types';

export type JoinPlan =
  | { action: 'join' } // the server holds this ledger
  | { action: 'seed' } // the server holds no ledger yet: this device's becomes it
  | { action: 'adopt' } // this device holds only the untouched demo ledger: it takes the server's
  | { action: 'refuse'; reason: string };

export interface LocalLedger {
  genesis: string;
  untouched: boolean; // the demo ledger as a reset left it: one block, no file, nobody's records
}

const short = (hash: string) => hash.slice(0, 8);

export function joinPlan(local: LocalLedger, server: LedgerInfo): JoinPlan {
  if (server.protocol !== SYNC_PROTOCOL_VERSION) {
    return {
      action: 'refuse',
      reason: `The server speaks sync protocol ${String(server.protocol)} and this MedLedger speaks ${SYNC_PROTOCOL_VERSION}: update the one that is older.`,
    };
  }
  if (!server.genesis) return { action: 'seed' };
  if (server.genesis === local.genesis) return { action: 'join' };
  if (local.untouched) return { action: 'adopt' };
  return {
    action: 'refuse',
    reason: `This device holds other records (ledger ${short(local.genesis)}) than the server (ledger ${short(server.genesis)}). Nothing was changed. To connect without losing anything, back up this whole browser (Medical Records) and keep the file, then reset the demo data.`,
  };
}

// This device's blocks that neither its device document nor the server's ledger carries yet, in the device's order:
// what arrived from the ledger is not sent back.
export function blocksToPush(
  local: readonly Block[],
  sent: Readonly<EncodedBlocks>,
  ledger: Readonly<EncodedBlocks> = {},
): Block[] {
  return local.filter((block) => !Object.hasOwn(sent, block.hash) && !Object.hasOwn(ledger, block.hash));
}

// The ledger's blocks this device does not hold, as values the store verifies; undecodable bytes are left out
// (they can never verify), and so are blocks this device already refused.
export function blocksToTake(
  ledger: Pick<LedgerDoc, 'blocks'>,
  held: ReadonlySet<string>,
  refusedHere: ReadonlySet<string>,
): unknown[] {
  const incoming: unknown[] = [];
  for (const [hash, bytes] of Object.entries(ledger.blocks)) {
    if (held.has(hash) || refusedHere.has(hash)) continue;
    const block = decodeBlock(bytes);
    if (block !== undefined) incoming.push(block);
  }
  return incoming;
}

export const TAKE_SLICE = 10_000; // blocks verified and stored at a time while a device catches up

// The blocks to take in slices, oldest first (a ledger's timestamps never go back): each slice mostly follows blocks
// held or in the slices before it, so the device holds more after each, and the card counts down.
export function takeSlices(incoming: readonly unknown[], size: number = TAKE_SLICE): unknown[][] {
  const time = (value: unknown) => {
    const timestamp = (value as { timestamp?: unknown } | null)?.timestamp;
    return typeof timestamp === 'string' ? timestamp : '';
  };
  const ordered = incoming
    .map((value) => ({ value, at: time(value) }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .map(({ value }) => value);
  const slices: unknown[][] = [];
  for (let from = 0; from < ordered.length; from += size) slices.push(ordered.slice(from, from + size));
  return slices;
}

// Blocks still waiting after every slice that name a refused block, or one of these, with why: they can never be
// placed (a merge of all of them at once refuses them the same way, merge.ts).
export function namingRefused(waiting: readonly unknown[], refused: ReadonlyMap<string, string>): [string, string][] {
  const named = new Map<string, string>();
  for (let found = true; found;) {
    found = false;
    for (const value of waiting) {
      const block = value as Block | null;
      if (typeof block?.hash !== 'string' || named.has(block.hash)) continue;
      const parent = parentsOf(block).find((hash) => refused.has(hash) || named.has(hash));
      if (parent === undefined) continue;
      named.set(block.hash, namesRefused(parent));
      found = true;
    }
  }
  return [...named];
}

// Files of the ledger whose bytes this device lacks, by document id.
export function filesToTake(files: Readonly<Record<string, FileEntry>>, held: ReadonlySet<string>): [string, FileEntry][] {
  return Object.entries(files).filter(([documentId]) => !held.has(documentId));
}

// Blocks still to travel, either way: this device's the server has not verified yet, and the server's this device lacks.
export function pendingBlocks(
  local: readonly Block[],
  ledger: Pick<LedgerDoc, 'blocks' | 'refused'> | undefined,
  refusedHere: ReadonlySet<string>,
): number {
  if (!ledger) return local.length;
  const held = new Set(local.map((block) => block.hash));
  let pending = local.filter(
    (block) => !Object.hasOwn(ledger.blocks, block.hash) && !Object.hasOwn(ledger.refused, block.hash),
  ).length;
  for (const hash of Object.keys(ledger.blocks)) if (!held.has(hash) && !refusedHere.has(hash)) pending++;
  return pending;
}

// Files this connection sent that the server has not taken (nor refused) yet: until it has, they live only here.
export function pendingFiles(
  sent: ReadonlySet<string>,
  ledger: Pick<LedgerDoc, 'files' | 'refused'> | undefined,
  deviceId: string,
): number {
  let pending = 0;
  for (const id of sent) if (!Object.hasOwn(ledger?.files ?? {}, id) && ledger?.refused[id]?.deviceId !== deviceId) pending++;
  return pending;
}

export interface DeviceRow {
  id: string;
  name: string;
  tip: string;
  height: number;
  seenAt: string;
  thisDevice: boolean;
  mine: boolean;
}

// The devices the server knows, this one first, then this user's (the server names each device's user), then by name
// and the newest seen first, so devices of one name keep their places.
export function deviceRows(ledger: Pick<LedgerDoc, 'devices'> | undefined, deviceId: string): DeviceRow[] {
  const devices = ledger?.devices ?? {};
  const own = Object.hasOwn(devices, deviceId) ? devices[deviceId].userId : undefined;
  const rows = Object.entries(devices).map(([id, device]) => ({
    id,
    name: String(device.name),
    tip: String(device.tip),
    height: Number(device.height),
    seenAt: String(device.seenAt),
    thisDevice: id === deviceId,
    mine: typeof own === 'string' && device.userId === own,
  }));
  return rows.sort(
    (a, b) =>
      Number(b.thisDevice) - Number(a.thisDevice) ||
      Number(b.mine) - Number(a.mine) ||
      a.name.localeCompare(b.name) ||
      b.seenAt.localeCompare(a.seenAt) ||
      a.id.localeCompare(b.id),
  );
}

// A new device document: only the genesis block, which the server checks at the join (and seeds a new ledger from).
export function newDeviceDoc(deviceId: string, name: string, genesis: Block, at: string): DeviceDoc {
  return {
    kind: 'medledger-device',
    version: SYNC_PROTOCOL_VERSION,
    deviceId,
    name,
    genesis: genesis.hash,
    blocks: { [genesis.hash]: encodeBlock(genesis) },
    files: {},
    tip: genesis.hash,
    height: 1,
    seenAt: at,
    refused: {},
  };
}
