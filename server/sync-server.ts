// The sync server: one HTTP server carries the Automerge-repo WebSocket and the JSON API; documents are stored on disk.
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Repo, type PeerId } from '@automerge/automerge-repo';
import { NodeWSServerAdapter } from '@automerge/automerge-repo-network-websocket';
import { NodeFSStorageAdapter } from '@automerge/automerge-repo-storage-nodefs';
import { WebSocketServer } from 'ws';
import { MAX_SYNC_MESSAGE_BYTES } from '../workers/core/sync-protocol';
import { loadCareNetworkKey } from './care-network-key';
import { createApiHandler, isLoopbackOrigin } from './http-api';
import { createLedgerKeeper } from './ledger-keeper';

export interface SyncServerOptions {
  host: string;
  port: number; // 0: any free port
  dir: string; // storage folder
  log: (line: string) => void;
}

export interface RunningSyncServer {
  port: number;
  close(): Promise<void>;
}

export async function startSyncServer({ host, port, dir, log }: SyncServerOptions): Promise<RunningSyncServer> {
  mkdirSync(dir, { recursive: true });
  const http = createServer();
  // browsers send an Origin: only pages served from this machine may open the socket (Node clients send none)
  const sockets = new WebSocketServer({
    server: http,
    maxPayload: MAX_SYNC_MESSAGE_BYTES,
    verifyClient: ({ origin }: { origin?: string }) => !origin || isLoopbackOrigin(origin),
  });
  const repo = new Repo({
    // the adapter names ws's server through isomorphic-ws's typings: the same class, typed by another path
    network: [new NodeWSServerAdapter(sockets as unknown as ConstructorParameters<typeof NodeWSServerAdapter>[0])],
    storage: new NodeFSStorageAdapter(join(dir, 'automerge')),
    peerId: `medledger-sync-server` as PeerId,
    sharePolicy: async () => false, // a server sends a document only to the peers that ask for it by URL
  });
  repo.networkSubsystem.on('peer', ({ peerId }) => log(`peer connected ${peerId}`));
  repo.networkSubsystem.on('peer-disconnected', ({ peerId }) => log(`peer disconnected ${peerId}`));
  const careKey = await loadCareNetworkKey(join(dir, 'care-network-key.json'));
  const keeper = await createLedgerKeeper(repo, join(dir, 'ledger.json'), log, careKey);
  http.on('request', createApiHandler(keeper, log));
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
