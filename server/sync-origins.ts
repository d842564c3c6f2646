// Where the sync server listens and which pages may use it, from the environment of `npm start` (or `npm run
// sync-server`): the server, the preview server's allowed hosts and the app's CSP connect-src all read these.
//   SYNC_HOST     the address the sync server listens on (default 127.0.0.1, this machine only)
//   SYNC_ORIGINS  the origins of pages served from elsewhere that may use it, comma-separated (for example the HTTPS
//                 address a reverse proxy serves the app at: https://192.168.1.20:8443); loopback pages always may

export const DEFAULT_SYNC_HOST = '127.0.0.1';

// The app runs on this machine (npm start, npm run dev): any port of a loopback host.
export function isLoopbackOrigin(origin: string): boolean {
  return /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/.test(origin);
}

// The origins SYNC_ORIGINS names; a value that is not an http(s) origin stops the start with its reason.
export function pageOriginsOf(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // named below
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin) {
      throw new Error(`SYNC_ORIGINS: "${origin}" is not an origin such as https://192.168.1.20:8443 (no path, no slash)`);
    }
  }
  return origins;
}

// Why a page from `origin` may not use the server (told to it and logged), or null when it may: this machine's pages
// and the origins SYNC_ORIGINS names.
export function originRefusal(origin: string, allowed: readonly string[]): string | null {
  if (isLoopbackOrigin(origin) || allowed.includes(origin)) return null;
  return `refused a page from ${origin}: only this machine's pages and SYNC_ORIGINS may use this server`;
}

// What the app's connect-src adds for the settings: the sync server on the hosts the pages come from (ws:// beside
// http://, wss:// beside https://, any port: a proxy may serve the server on a port of its own) and on SYNC_HOST.
export function syncConnectSources(env: { SYNC_HOST?: string; SYNC_ORIGINS?: string }): string[] {
  const sources = new Set<string>();
  for (const origin of pageOriginsOf(env.SYNC_ORIGINS)) {
    const { protocol, hostname } = new URL(origin);
    const host = hostname.includes(':') ? `[${hostname}]` : hostname;
    const socket = protocol === 'https:' ? 'wss:' : 'ws:';
    sources.add(`${socket}//${host}:*`).add(`${protocol}//${host}:*`);
  }
  const listen = env.SYNC_HOST;
  if (listen && !isLoopbackOrigin(`http://${listen}`)) {
    sources.add(`ws://${listen}:*`).add(`http://${listen}:*`);
  }
  return [...sources];
}

// The Content-Security-Policy with the sync sources of `env` added to its connect-src.
export function withSyncConnectSources(policy: string, env: { SYNC_HOST?: string; SYNC_ORIGINS?: string }): string {
  const extra = syncConnectSources(env);
  if (extra.length === 0) return policy;
  if (!/connect-src [^;]*/.test(policy)) throw new Error('the Content-Security-Policy has no connect-src to add to');
  return policy.replace(/connect-src [^;]*/, (sources) => `${sources} ${extra.join(' ')}`);
}

// The host names SYNC_ORIGINS' pages come through, for the preview server's allowed hosts.
export function pageHostsOf(value: string | undefined): string[] {
  return pageOriginsOf(value).map((origin) => new URL(origin).hostname);
}
