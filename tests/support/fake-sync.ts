// A sync server in memory for the sync module's tests: one document repo shared by the device and the "server",
// and the HTTP endpoints of server/ (GET /api/ledger and /api/adopt, POST /api/challenge, /api/join, /api/device,
// /api/release and /api/remove-device). No WebSocket, no Automerge; it checks no signature (server tests do).
import { vi } from 'vitest';
import type { ReleaseRequest } from '../../workers/core/key-wraps';
import {
  SYNC_PROTOCOL_VERSION,
  encodeBlock,
  type DeviceDoc,
  type JoinRequest,
  type LedgerDoc,
  type ReleaseAnswer,
  type SyncedKeys,
} from '../../workers/core/sync-protocol';
import type { Block } from '../../workers/core/types';
import type { RemoteMerge } from '../../workers/sync/sync-ports';
import type { DocHandleLike, HttpAnswer, RepoLike, SyncStore, SyncTransport } from '../../workers/sync/sync-ports';

export function fakeRepo() {
  const docs = new Map<string, unknown>();
  const listeners = new Map<string, Set<() => void>>();
  const connection = new Set<(online: boolean) => void>();
  let next = 0;

  function handle<T>(url: string): DocHandleLike<T> {
    return {
      url,
      doc: () => docs.get(url) as T | undefined,
      change(fn) {
        fn(docs.get(url) as T);
        for (const listener of listeners.get(url) ?? []) queueMicrotask(listener); // a change arrives after the call, as over the network
      },
      on: (_event, listener) => void listeners.get(url)?.add(listener),
      off: (_event, listener) => void listeners.get(url)?.delete(listener),
    };
  }

  const repo: RepoLike & { shutdown: ReturnType<typeof vi.fn> } = {
    create<T>(initial: T) {
      const url = `automerge:doc${++next}`;
      docs.set(url, structuredClone(initial));
      listeners.set(url, new Set());
      return handle<T>(url);
    },
    async find<T>(url: string) {
      if (!docs.has(url)) throw new Error(`Document ${url} is unavailable`);
      return handle<T>(url);
    },
    onConnection: (listener) => void connection.add(listener),
    shutdown: vi.fn(async () => undefined),
  };
  return {
    repo,
    docs,
    doc: <T>(url: string) => docs.get(url) as T,
    handle,
    setOnline: (online: boolean) => connection.forEach((listener) => listener(online)),
  };
}

const json = (body: unknown, status = 200): HttpAnswer => ({ ok: status < 400, status, json: async () => body });

// What the fake answers for the server's clock, unless a test says otherwise.
export const FAKE_SERVER_TIME = '2026-11-26T10:42:00.000Z';

// A proof as a device signs it, for a test's `prove`: the fake server only reads who it names.
export const fakeProve = async (challenge: string, genesis: string, deviceId: string) => ({
  challenge,
  genesis,
  deviceId,
  userId: 'patient-1',
  signature: 'signed',
});

// The server's side: its ledger document, and what a join records.
// With `relay`, the server takes every block a device document gains (all but those whose hash starts 'bad'), its file
// entries and its key wraps; `release` answers POST /api/release (else: no grant); the first `unfetched` POST
// /api/device are answered as when the server could not fetch the device document yet.
export function fakeServer(
  options: {
    genesis?: Block;
    blocks?: Block[];
    keys?: SyncedKeys;
    relay?: boolean;
    careNetworkKey?: string;
    serverTime?: string;
    release?: (request: ReleaseRequest) => Promise<ReleaseAnswer>;
    unfetched?: number;
  } = {},
) {
  const repos = fakeRepo();
  const joins: JoinRequest[] = [];
  const sessions = new Map<string, JoinRequest>(); // session -> the join that opened it
  const authorizations: string[] = []; // the Authorization header of every call that sent one
  const registered: string[] = []; // the device documents named with POST /api/device, in order
  const releases: ReleaseRequest[] = [];
  const removed = new Set<string>(); // device ids removed: a join under one is refused
  let ledgerUrl: string | null = null;
  const blocks = options.blocks ?? (options.genesis ? [options.genesis] : []);
  if (blocks.length > 0) {
    const handle = repos.repo.create<LedgerDoc>({
      kind: 'medledger-ledger',
      version: SYNC_PROTOCOL_VERSION,
      genesis: blocks[0].hash,
      blocks: Object.fromEntries(blocks.map((block) => [block.hash, encodeBlock(block)])),
      files: {},
      keys: new TextEncoder().encode(JSON.stringify(options.keys ?? {})),
      devices: {},
      refused: {},
    });
    ledgerUrl = handle.url;
  }

  const ledger = () => (ledgerUrl ? repos.handle<LedgerDoc>(ledgerUrl) : null);
  let genesisBlock: Block | undefined = blocks[0]; // what GET /api/adopt answers
  let ledgerKeys = options.keys;
  const fetch = vi.fn(async (url: string, init?: { body: string; headers?: Record<string, string> }): Promise<HttpAnswer> => {
    const path = new URL(url).pathname;
    const authorization = init?.headers?.authorization;
    if (authorization) authorizations.push(authorization);
    const joined = sessions.get(authorization?.replace('Bearer ', '') ?? '');
    if (path === '/api/ledger') {
      const doc = ledger()?.doc();
      return json({
        protocol: SYNC_PROTOCOL_VERSION,
        genesis: doc?.genesis ?? null,
        height: Object.keys(doc?.blocks ?? {}).length,
        serverTime: options.serverTime ?? FAKE_SERVER_TIME,
      });
    }
    if (path === '/api/adopt') {
      return genesisBlock ? json({ genesis: genesisBlock, keys: ledgerKeys }) : json({ error: 'no ledger' }, 404);
    }
    if (path === '/api/challenge') return json({ challenge: `challenge-${joins.length + 1}` });
    if ((path === '/api/release' || path === '/api/device' || path === '/api/remove-device') && !joined)
      return json({ ok: false, reason: 'this device has not proved who it is: join again' }, 401);
    if (path === '/api/release' && init) {
      const request = JSON.parse(init.body) as ReleaseRequest;
      releases.push(request);
      return json(options.release ? await options.release(request) : { ok: false, reason: `no grant ${request.grantId}` });
    }
    if (path === '/api/remove-device' && init && joined) {
      const { deviceId } = JSON.parse(init.body) as { deviceId: string };
      const summaries = ledger()?.doc()?.devices ?? {};
      const target = summaries[deviceId];
      if (!target) return json({ ok: false, reason: `this server knows no device ${deviceId}` });
      if (target.userId !== joined.proof.userId) return json({ ok: false, reason: `device ${deviceId} belongs to another user` });
      removed.add(deviceId);
      for (const [session, join] of sessions) if (join.proof.deviceId === deviceId) sessions.delete(session);
      ledger()?.change((d) => void delete d.devices[deviceId]);
      return json({ ok: true });
    }
    if (path === '/api/join' && init) {
      const request = JSON.parse(init.body) as JoinRequest;
      joins.push(request);
      if (removed.has(request.proof.deviceId))
        return json({ ok: false, reason: 'this device was removed from the sync server', removed: true });
      if (!ledgerUrl) {
        // the first device seeds: the server takes its genesis and keys (it verifies them; this fake trusts them)
        const genesis = request.seed?.genesis as Block | undefined;
        if (!genesis || !request.seed?.keys) return json({ ok: false, reason: 'the seeding device sent no genesis block' });
        genesisBlock = genesis;
        ledgerKeys = request.seed.keys;
        ledgerUrl = repos.repo.create<LedgerDoc>({
          kind: 'medledger-ledger',
          version: SYNC_PROTOCOL_VERSION,
          genesis: genesis.hash,
          blocks: { [genesis.hash]: encodeBlock(genesis) },
          files: {},
          keys: new TextEncoder().encode(JSON.stringify(request.seed.keys)),
          devices: {},
          refused: {},
        }).url;
      }
      const session = `session-${joins.length}`;
      sessions.set(session, request);
      const { genesis } = request.proof;
      const careNetworkKey = options.careNetworkKey ?? '';
      return json({ ok: true, session, ledgerUrl, genesis, careNetworkKey, serverTime: options.serverTime ?? FAKE_SERVER_TIME });
    }
    if (path === '/api/device' && init && joined) {
      const { deviceUrl } = JSON.parse(init.body) as { deviceUrl: string };
      registered.push(deviceUrl);
      if (registered.length <= (options.unfetched ?? 0))
        return json({ ok: false, reason: 'the server could not fetch the device document yet', retry: true });
      const deviceId = joined.proof.deviceId;
      let seen = '';
      const record = () => {
        const now = repos.doc<DeviceDoc>(deviceUrl);
        const state = JSON.stringify([
          now.tip,
          now.height,
          Object.keys(now.blocks),
          Object.keys(now.files),
          Object.keys(now.wraps ?? {}),
        ]);
        if (state === seen) return; // nothing new: a change would only echo
        seen = state;
        ledger()?.change((d) => {
          const userId = joined.proof.userId;
          d.devices[deviceId] = { userId, name: joined.name, tip: now.tip, height: now.height, seenAt: now.seenAt };
          if (!options.relay) return;
          for (const [hash, bytes] of Object.entries(now.blocks)) {
            if (hash.startsWith('bad')) d.refused[hash] = { reason: 'forged', deviceId, at: now.seenAt };
            else d.blocks[hash] = bytes;
          }
          for (const [id, file] of Object.entries(now.files)) d.files[id] ??= { ...file };
          for (const [id, wrap] of Object.entries(now.wraps ?? {})) (d.wraps ??= {})[id] ??= wrap;
        });
      };
      record();
      if (options.relay) repos.handle<DeviceDoc>(deviceUrl).on('change', record);
      return json({ ok: true });
    }
    return json({ error: 'not found' }, 404);
  });
  const openRepo = vi.fn(async () => repos.repo);
  const transport: SyncTransport = { fetch, openRepo };
  return {
    transport,
    fetch,
    openRepo,
    repos,
    joins,
    releases,
    authorizations,
    registered,
    ledger: () => ledger()?.doc(),
    ledgerHandle: ledger,
  };
}

// A block as the sync module handles it: only its hash and place matter here; the real store verifies the rest.
export function fakeBlock(hash: string, id = 0): Block {
  return {
    id: String(id),
    hash,
    previousHash: '0'.repeat(64),
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
    dataHash: '',
    data: { id: `r${id}` } as Block['data'],
    nonce: 0,
    author: 'ledger',
    signature: '',
  };
}

// The device's store: blocks in memory; mergeRemote keeps what it is given, except blocks whose hash starts 'bad'.
export function fakeStore(
  blocks: Block[],
  options: { untouched?: boolean; files?: Record<string, { cid: string; bytes: Uint8Array }> } = {},
) {
  const held = [...blocks];
  const contents = new Map(Object.entries(options.files ?? {}).map(([id, file]) => [id, file]));
  const named = new Map(Object.entries(options.files ?? {}).map(([id, file]) => [id, file.cid]));
  const keys: SyncedKeys = { algorithm: 'Ed25519', users: { 'patient-1': { publicKey: 'p1' } }, ledger: { publicKey: 'L' } };
  const store = {
    held,
    named,
    contents,
    blocks: () => held,
    untouched: () => options.untouched ?? false,
    syncedKeys: () => keys,
    liveFiles: () => [...named].map(([id, cid]) => ({ id, cid })),
    readContent: async (id) => {
      const bytes = contents.get(id)?.bytes;
      return bytes ? (bytes.slice().buffer as ArrayBuffer) : undefined;
    },
    mergeRemote: vi.fn(async (incoming: unknown[]): Promise<RemoteMerge> => {
      const outcome: RemoteMerge = { added: 0, refused: [], waiting: [] };
      for (const block of incoming as Block[]) {
        if (block.hash.startsWith('bad'))
          outcome.refused.push({ hash: block.hash, reason: 'hash does not match the block header' });
        else {
          held.push(block);
          outcome.added++;
        }
      }
      return outcome;
    }),
    addRemoteContent: vi.fn(async (documentId: string, bytes: Uint8Array) => {
      contents.set(documentId, { cid: named.get(documentId) ?? '', bytes });
      return true;
    }),
    fileProgress: vi.fn((_documentId: string, _received: number, _total: number) => undefined),
    adopt: vi.fn(async (_genesis: string, incoming: unknown[]) => {
      held.splice(0, held.length, ...(incoming as Block[]));
    }),
  } satisfies SyncStore & { held: Block[]; named: Map<string, string>; contents: typeof contents };
  return store;
}
