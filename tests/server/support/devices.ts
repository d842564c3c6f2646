// Devices as the server sees them: an Automerge-repo client that proves its user's enrolled key (POST /api/challenge,
// POST /api/join), then opens the WebSocket with its session and writes a DeviceDoc made from a real signed ledger
// (the ledger service on memory storage, signed in with the demo password).
import { Repo, type AutomergeUrl, type DocHandle } from '@automerge/automerge-repo';
import { WebSocketClientAdapter } from '@automerge/automerge-repo-network-websocket';
import { DEMO_PASSWORD } from '../../../workers/core/constants';
import { unlockUserKeys, type StoredKeys, type WrappedUserKey } from '../../../workers/core/signatures';
import { signProof } from '../../../workers/core/sync-proof';
import {
  SYNC_PROTOCOL_VERSION,
  encodeBlock,
  type DeviceAnswer,
  type DeviceDoc,
  type JoinAnswer,
  type LedgerDoc,
  type SyncedKeys,
} from '../../../workers/core/sync-protocol';
import type { Block } from '../../../workers/core/types';
import { KEYS_KEY } from '../../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../../workers/storage/memory-storage';
import { SARAH, fileInput, signInAs, uploadOf } from '../../support/ledger-fixtures';
import { createTestLedgerService } from '../../support/test-ledger';
import { signedBenchChain, unlockBenchKeys } from '../../bench/signed-chain';
import { RefusedQuietly } from './raw-client';

const RETRY_MS = 100; // how soon a device tries the server again after it went away

// A user as a device proves them: their id and their unlocked signing key.
export interface Identity {
  userId: string;
  signingKey: CryptoKey;
}

export async function identityOf(users: Record<string, unknown>, userId: string = SARAH.id): Promise<Identity> {
  const unlocked = await unlockUserKeys(users[userId] as WrappedUserKey, DEMO_PASSWORD);
  if (!unlocked) throw new Error(`no key of ${userId} opens with the demo password`);
  return { userId, signingKey: unlocked.signingKey };
}

// A signed-in patient's ledger with `uploads` uploads of one small file each.
export async function signedLedger(uploads = 1) {
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage });
  await signInAs(service, SARAH);
  for (let i = 0; i < uploads; i++) await service.upload(uploadOf(`Blood panel ${i + 1}`, [fileInput(`panel-${i + 1}.pdf`)]));
  const blocks = async (): Promise<Block[]> => (await storage.load()).blocks;
  const stored = (await storage.readMeta(KEYS_KEY)) as StoredKeys;
  const keys: SyncedKeys = { algorithm: 'Ed25519', users: stored.users, ledger: { publicKey: stored.ledger.publicKey } };
  const sarah = await identityOf(stored.users);
  return { storage, service, blocks, keys, sarah };
}

// A ledger of `height` blocks made directly (tests/bench/signed-chain.ts: bench records, mined and signed by their
// authors with real keys under the demo password), for servers seeded with more blocks than the service writes in time.
export async function benchLedger(height: number) {
  const made = await unlockBenchKeys();
  const chain = await signedBenchChain(height, made);
  const blocks = async (): Promise<Block[]> => chain;
  const { users, ledger } = made.stored;
  const keys: SyncedKeys = { algorithm: 'Ed25519', users, ledger: { publicKey: ledger.publicKey } };
  const sarah: Identity = { userId: SARAH.id, signingKey: made.signing.get(SARAH.id)! };
  return { blocks, keys, sarah };
}

export function encodeBlocks(blocks: readonly Block[]): Record<string, Uint8Array> {
  return Object.fromEntries(blocks.map((block) => [block.hash, encodeBlock(block)]));
}

// Appends `blocks` (the next ones of its chain) to a device document, inside a change.
export function addBlocks(doc: DeviceDoc, blocks: readonly Block[]): void {
  Object.assign(doc.blocks, encodeBlocks(blocks));
  doc.tip = blocks[blocks.length - 1].hash;
  doc.height += blocks.length;
}

// `count` well-formed blocks that name a head that never arrives: they can only wait, as a hostile device's would.
export function writeBlocksThatWait(handle: DocHandle<DeviceDoc>, count: number): void {
  const missing = 'f'.repeat(64);
  const at = new Date().toISOString();
  handle.change((doc) => {
    for (let i = 0; i < count; i++) {
      const hash = i.toString(16).padStart(64, '0');
      const block = { id: String(i + 5), hash, previousHash: missing, heads: [missing], timestamp: at, data: {}, nonce: 0 };
      doc.blocks[hash] = new TextEncoder().encode(JSON.stringify(block));
    }
  });
}

export interface TestDevice {
  deviceId: string;
  repo: Repo;
  handle: DocHandle<DeviceDoc>; // written before and after the join; the server reads it once the device proved itself
  // proves the device (and seeds with `keys` when given) and registers its document: the join's answer, or the refusal
  join(): Promise<JoinAnswer | DeviceAnswer>;
  session(): string; // after a join
  ledger(url?: string): Promise<DocHandle<LedgerDoc>>; // the ledger document of the join when no url is given
  refusals(): Promise<Record<string, string>>; // what the server refused of this device, by key, from the ledger document
  close(): Promise<void>;
}

export interface DeviceOptions {
  as: Identity;
  keys?: SyncedKeys; // sent to seed an empty server
  deviceId?: string;
  quiet?: boolean; // its socket may be refused (a removed device): a 401 is no error of the test
}

// A device of the server at `port`, holding `blocks` in its device document; it connects when it joins.
export async function connectDevice(
  port: number,
  name: string,
  blocks: readonly Block[],
  options: DeviceOptions,
): Promise<TestDevice> {
  const repo = new Repo({ network: [] });
  const deviceId = options.deviceId ?? `device-${name}-${crypto.randomUUID()}`;
  const tip = blocks[blocks.length - 1];
  const handle = repo.create<DeviceDoc>({
    kind: 'medledger-device',
    version: SYNC_PROTOCOL_VERSION,
    deviceId,
    name,
    genesis: blocks[0].hash,
    blocks: encodeBlocks(blocks),
    files: {},
    tip: tip.hash,
    height: blocks.length,
    seenAt: new Date().toISOString(),
  });
  const base = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown, session?: string) =>
    (
      await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(session ? { Authorization: `Bearer ${session}` } : {}) },
        body: JSON.stringify(body),
      })
    ).json() as Promise<unknown>;
  let session = '';
  let ledgerUrl = '';
  let closed: Promise<void> | undefined;
  const device: TestDevice = {
    deviceId,
    repo,
    handle,
    async join() {
      const { challenge } = (await post('/api/challenge', {})) as { challenge: string };
      const proof = await signProof(challenge, blocks[0].hash, deviceId, options.as.userId, options.as.signingKey);
      const seed = options.keys ? { genesis: blocks[0], keys: options.keys } : undefined;
      const answer = (await post('/api/join', {
        protocol: SYNC_PROTOCOL_VERSION,
        name,
        proof,
        ...(seed ? { seed } : {}),
      })) as JoinAnswer;
      if (!answer.ok) return answer;
      if (!session) {
        const connected = new Promise<void>((done) => repo.networkSubsystem.once('peer', () => done()));
        repo.networkSubsystem.addNetworkAdapter(
          new (options.quiet ? RefusedQuietly : WebSocketClientAdapter)(
            `ws://127.0.0.1:${port}/?session=${answer.session}`,
            RETRY_MS,
          ),
        );
        await connected;
      }
      session = answer.session;
      ledgerUrl = answer.ledgerUrl;
      for (;;) {
        const registered = (await post('/api/device', { deviceUrl: handle.url }, session)) as DeviceAnswer;
        if (registered.ok) return answer;
        if (!registered.retry) return registered;
      }
    },
    session: () => session,
    ledger: (url = ledgerUrl) => repo.find<LedgerDoc>(url as AutomergeUrl),
    async refusals() {
      if (!ledgerUrl) return {};
      const refused = (await device.ledger()).doc().refused;
      return Object.fromEntries(
        Object.entries(refused)
          .filter(([, refusal]) => refusal.deviceId === deviceId)
          .map(([key, refusal]) => [key, refusal.reason]),
      );
    },
    close: () => (closed ??= repo.shutdown()), // once: a second shutdown fails on the closed socket
  };
  return device;
}
