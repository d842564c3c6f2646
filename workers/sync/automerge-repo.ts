// Automerge-repo over WebSocket, without storage: IndexedDB stays the device's truth, and the sync server keeps
// every document. Imported only on Connect, so the wasm (about 1.1 MiB gzip) never weighs on the first load.
import { Repo, initializeWasm, type DocHandle } from '@automerge/automerge-repo/slim';
import { WebSocketClientAdapter } from '@automerge/automerge-repo-network-websocket';
import wasmUrl from '@automerge/automerge/automerge.wasm?url';
import type { DocHandleLike, RepoLike } from './sync-ports';

const RETRY_MS = 5_000; // the WebSocket tries again this often while the server is away
const FIND_TIMEOUT_MS = 30_000; // a document the server does not answer for within this is reported missing
const OPEN_TIMEOUT_MS = 10_000; // the WebSocket must open within this, or Connect waits and tries again

let wasm: Promise<void> | null = null;

function wrap<T>(handle: DocHandle<T>): DocHandleLike<T> {
  return {
    url: handle.url,
    doc: () => handle.doc() as T | undefined,
    change: (fn) => handle.change((doc) => fn(doc as T)),
    on: (_event, listener) => void handle.on('change', listener),
    off: (_event, listener) => void handle.off('change', listener),
  };
}

export async function openRepo(serverUrl: string): Promise<RepoLike> {
  wasm ??= initializeWasm(wasmUrl).catch((error: unknown) => {
    wasm = null; // the next Connect tries again
    throw error;
  });
  await wasm;
  const adapter = new WebSocketClientAdapter(serverUrl, RETRY_MS);
  const repo = new Repo({ network: [adapter] });
  // joined only once the server is a peer: it then finds this device's new documents at once
  const opened = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The WebSocket to ${serverUrl} did not open.`)), OPEN_TIMEOUT_MS);
    repo.networkSubsystem.once('peer', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  try {
    await opened;
  } catch (error) {
    await repo.shutdown().catch(() => undefined);
    throw error;
  }
  return {
    create: <T>(initial: T) => wrap(repo.create<T>(initial)),
    find: async <T>(url: string) => wrap(await repo.find<T>(url as never, { signal: AbortSignal.timeout(FIND_TIMEOUT_MS) })),
    onConnection(listener) {
      repo.networkSubsystem.on('peer', () => listener(true));
      repo.networkSubsystem.on('peer-disconnected', () => listener(false));
    },
    shutdown: () => repo.shutdown(),
  };
}
