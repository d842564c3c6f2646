// A raw Automerge-repo client, as a hostile program on the same machine would run one: no proof, any session it
// likes. Its refused sockets are not errors of the test (the stock adapter throws on a 401 in Node).
import { Repo, type AutomergeUrl } from '@automerge/automerge-repo';
import { WebSocketClientAdapter } from '@automerge/automerge-repo-network-websocket';

export class RefusedQuietly extends WebSocketClientAdapter {
  override onError = () => undefined;

  // closing a socket still connecting makes it report an error after its listeners are gone: one that says nothing
  override disconnect() {
    this.socket?.addEventListener('error', () => undefined);
    super.disconnect();
  }
}

export interface RawClient {
  repo: Repo;
  // the document at `url` when the server sends it within `ms`, else null
  open(url: string, ms?: number): Promise<ReturnType<Repo['create']> | null>;
  close(): Promise<void>;
}

export function rawClient(port: number, session = ''): RawClient {
  const query = session ? `?session=${encodeURIComponent(session)}` : '';
  const repo = new Repo({ network: [new RefusedQuietly(`ws://127.0.0.1:${port}/${query}`, 100)] });
  return {
    repo,
    open: (url, ms = 1_000) =>
      repo.find(url as AutomergeUrl, { signal: AbortSignal.timeout(ms) }).catch(() => null) as ReturnType<RawClient['open']>,
    close: () => repo.shutdown().catch(() => undefined),
  };
}
