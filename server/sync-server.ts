// The sync server: one HTTP server carries the Automerge-repo WebSocket and the JSON API. Only proven devices open the
// socket (peer-gate.ts); what the server verified lives in its own files (verified-store.ts).
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Repo, type PeerId } from '@automerge/automerge-repo';
import { WebSocketServer } from 'ws';
import { MAX_SYNC_MESSAGE_BYTES } from '../workers/core/sync-protocol';
import { loadCareNetworkKey } from './care-network-key';
import { guardedStorage } from './guarded-storage';
import { createApiHandler } from './http-api';
import { createLedgerKeeper, type LedgerKeeper } from './ledger-keeper';
import { LIMITS } from './limits';
import { createPeerGate } from './peer-gate';
import { readState, writeState } from './state-file';
import { originRefusal } from './sync-origins';
import { openVerifiedStore } from './verified-store';

export interface SyncServerOptions {
  host: string;
  port: number; // 0: any free port
  dir: string; // storage folder
  log: (line: string) => void;
  origins?: readonly string[]; // page origins beyond this machine's that may use it (SYNC_ORIGINS, sync-origins.ts)
}

export interface RunningSyncServer {
  port: number;
  close(): Promise<void>;
}

export async function startSyncServer({ host, port, dir, log, origins = [] }: SyncServerOptions): Promise<RunningSyncServer> {
  mkdirSync(dir, { recursive: true });
  // read first: a damaged file is named before anything listens
  const careKey = await loadCareNetworkKey(join(dir, 'care-network-key.json'));
  const stateFile = join(dir, 'server-state.json');
  const state = readState(stateFile, log);
  const store = openVerifiedStore(join(dir, 'verified'));
  const storage = guardedStorage(dir, join(dir, 'automerge'), LIMITS.folderBytes, log);

  const http = createServer();
  http.keepAliveTimeout = 65_000; // longer than a client keeps an idle connection: a reused one is never closed under it
  let keeper: LedgerKeeper | undefined = undefined; // the gate asks it once it exists
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_SYNC_MESSAGE_BYTES });
  const gate = createPeerGate(sockets, {
    sessions: state.sessions,
    saved: () => writeState(stateFile, state),
    access: (deviceId, documentId) => keeper?.access(deviceId, documentId) ?? 'none',
    refuseData: (deviceId, bytes) => (keeper ? keeper.refuseData(deviceId, bytes) : 'the server is starting'),
    tookData: (deviceId, bytes) => keeper?.tookData(deviceId, bytes),
    log,
  });
  // browsers send an Origin: only pages served from this machine or SYNC_ORIGINS may open the socket, with a proven session
  http.on('upgrade', (request, socket, head) => {
    // a client that resets its connection is its own affair: an upgrade's socket has no error listener of its own
    socket.on('error', () => socket.destroy());
    const origin = request.headers.origin;
    const refusal = origin === undefined ? null : originRefusal(origin, origins);
    if (refusal) log(refusal);
    if (refusal || !gate.verifyUpgrade(request)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client, request));
  });
  const repo = new Repo({
    network: [gate.adapter()],
    storage,
    peerId: `medledger-sync-server` as PeerId,
    shareConfig: {
      announce: async () => false, // the server sends a document only to a peer that asks for it and may open it
      access: async (peerId, documentId) => {
        const deviceId = gate.deviceOfPeer(peerId);
        return deviceId !== undefined && documentId !== undefined && keeper?.access(deviceId, documentId) !== 'none';
      },
    },
  });
  repo.networkSubsystem.on('peer', ({ peerId }) => log(`peer connected ${peerId} (device ${gate.deviceOfPeer(peerId) ?? '?'})`));
  repo.networkSubsystem.on('peer-disconnected', ({ peerId }) => log(`peer disconnected ${peerId}`));
  keeper = await createLedgerKeeper({ repo, state, stateFile, store, gate, careKey, storageFull: storage.full, log });
  http.on('request', createApiHandler(keeper, gate, origins, log));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, resolve);
  });
  const address = http.address() as AddressInfo;
  return {
    port: address.port,
    async close() {
      sockets.clients.forEach((socket) => socket.terminate());
      // flush() throws on a handle that never became ready (a document no peer had): save the others
      const ready = Object.values(repo.handles).filter((handle) => handle.isReady());
      await repo.flush(ready.map((handle) => handle.documentId));
      await repo.shutdown();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
