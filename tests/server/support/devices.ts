// Devices as the server sees them: an Automerge-repo client over WebSocket, writing a DeviceDoc made from a real
// signed ledger (the ledger service on memory storage, signed in with the demo password).
import { Repo, type AutomergeUrl, type DocHandle } from '@automerge/automerge-repo';
import { WebSocketClientAdapter } from '@automerge/automerge-repo-network-websocket';
import type { StoredKeys } from '../../../workers/core/signatures';
import {
  SYNC_PROTOCOL_VERSION,
  encodeBlock,
  type DeviceDoc,
  type JoinRequest,
  type LedgerDoc,
  type SyncedKeys,
} from '../../../workers/core/sync-protocol';
import type { Block } from '../../../workers/core/types';
import { KEYS_KEY } from '../../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../../workers/storage/memory-storage';
import { SARAH, fileInput, signInAs, uploadOf } from '../../support/ledger-fixtures';
import { createTestLedgerService } from '../../support/test-ledger';

const RETRY_MS = 100; // how soon a device tries the server again after it went away

// A signed-in patient's ledger with `uploads` uploads of one small file each.
export async function signedLedger(uploads = 1) {
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage });
  await signInAs(service, SARAH);
  for (let i = 0; i < uploads; i++) await service.upload(uploadOf(`Blood panel ${i + 1}`, [fileInput(`panel-${i + 1}.pdf`)]));
  const blocks = async (): Promise<Block[]> => (await storage.load()).blocks;
  const stored = (await storage.readMeta(KEYS_KEY)) as StoredKeys;
  const keys: SyncedKeys = { algorithm: 'Ed25519', users: stored.users, ledger: { publicKey: stored.ledger.publicKey } };
  return { storage, service, blocks, keys };
}

export function encodeBlocks(blocks: readonly Block[]): Record<string, Uint8Array> {
  return Object.fromEntries(blocks.map((block) => [block.hash, encodeBlock(block)]));
}

export interface TestDevice {
  repo: Repo;
  handle: DocHandle<DeviceDoc>;
  joinRequest(): JoinRequest;
  ledger(url: string): Promise<DocHandle<LedgerDoc>>;
  close(): Promise<void>;
}

// A device connected to the server at `port`, holding `blocks` (and, to seed, the keys) in its device document.
export async function connectDevice(
  port: number,
  name: string,
  blocks: readonly Block[],
  keys?: SyncedKeys,
): Promise<TestDevice> {
  const repo = new Repo({ network: [new WebSocketClientAdapter(`ws://127.0.0.1:${port}`, RETRY_MS)] });
  const connected = new Promise<void>((done) => repo.networkSubsystem.once('peer', () => done()));
  const deviceId = `device-${name}-${crypto.randomUUID()}`;
  const tip = blocks[blocks.length - 1];
  const handle = repo.create<DeviceDoc>({
    kind: 'medledger-device',
    version: SYNC_PROTOCOL_VERSION,
    deviceId,
    name,
    genesis: blocks[0].hash,
    blocks: encodeBlocks(blocks),
    files: {},
    ...(keys ? { keys: new TextEncoder().encode(JSON.stringify(keys)) } : {}),
    tip: tip.hash,
    height: blocks.length,
    seenAt: new Date().toISOString(),
    refused: {},
  });
  await connected;
  let closed: Promise<void> | undefined;
  return {
    repo,
    handle,
    joinRequest: () => ({ protocol: SYNC_PROTOCOL_VERSION, deviceId, name, deviceUrl: handle.url, genesis: blocks[0].hash }),
    ledger: (url) => repo.find<LedgerDoc>(url as AutomergeUrl),
    close: () => (closed ??= repo.shutdown()), // once: a second shutdown fails on the closed socket
  };
}
