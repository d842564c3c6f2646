// The sync client's transport in Node (workers/sync/sync-ports.ts): global fetch and Automerge-repo over WebSocket, as
// workers/sync/automerge-repo.ts gives the worker, without the browser's wasm loading.
import { Repo, type AutomergeUrl, type DocHandle } from '@automerge/automerge-repo';
import { WebSocketClientAdapter } from '@automerge/automerge-repo-network-websocket';
import type { DocHandleLike, RepoLike, SyncTransport } from '../../../workers/sync/sync-ports';

const RETRY_MS = 100; // how soon the client tries the server again after it went away
const FIND_TIMEOUT_MS = 10_000;

function handleLike<T>(handle: DocHandle<T>): DocHandleLike<T> {
  return {
    url: handle.url,
    doc: () => handle.doc() as T | undefined,
    change: (fn) => handle.change((doc) => fn(doc as T)),
    on: (_event, listener) => void handle.on('change', listener),
    off: (_event, listener) => void handle.off('change', listener),
  };
}

async function openRepo(serverUrl: string): Promise<RepoLike> {
  const repo = new Repo({ network: [new WebSocketClientAdapter(serverUrl, RETRY_MS)] });
  await new Promise<void>((done) => repo.networkSubsystem.once('peer', () => done()));
  return {
    create: <T>(initial: T) => handleLike(repo.create<T>(initial)),
    find: async <T>(url: string) =>
      handleLike(await repo.find<T>(url as AutomergeUrl, { signal: AbortSignal.timeout(FIND_TIMEOUT_MS) })),
    onConnection(listener) {
      repo.networkSubsystem.on('peer', () => listener(true));
      repo.networkSubsystem.on('peer-disconnected', () => listener(false));
    },
    shutdown: () => repo.shutdown(),
  };
}

export const nodeSyncTransport: SyncTransport = {
  fetch: (url, init) => fetch(url, init),
  openRepo,
};
