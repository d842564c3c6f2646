// How `vite preview` serves the build (npm start, the browser tests, the benches): the Content-Security-Policy header
// where it takes effect, and the build's Brotli copies. Plugins of vite.config.ts.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import type { Plugin } from 'vite';
import { withSyncConnectSources } from './server/sync-origins.ts';

// The policy of index.html's meta tag, also sent as a header by `vite preview` (npm start and the browser tests):
// workers take their policy only from a header, and frame-ancestors works only there.
function contentSecurityPolicy(): string {
  const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(
    readFileSync(join(import.meta.dirname, 'index.html'), 'utf8'),
  );
  if (!meta) throw new Error('index.html has no Content-Security-Policy meta tag');
  return `${withSyncConnectSources(meta[1], process.env)}; frame-ancestors 'none'`;
}

// Where a policy header takes effect: a page, a frame, and a worker's own script (the build names those
// NAME.worker-HASH.js; the service worker is sw.js). A script, stylesheet or module import runs under the policy of the
// page or worker that loads it, whatever header it came with: there its 600 bytes would only add to each of the
// first load's 25 requests. A client that names no destination (Sec-Fetch-Dest) gets it.
const POLICY_PAGES = new Set(['document', 'iframe', 'frame']);
const POLICY_WORKERS = new Set(['worker', 'sharedworker', 'serviceworker']);
const WORKER_SCRIPT = /(\.worker-[\w-]+\.js|^\/sw\.js)$/;
export const contentSecurityPolicyHeader: Plugin = {
  name: 'content-security-policy-header',
  configurePreviewServer(server) {
    const policy = contentSecurityPolicy();
    server.middlewares.use((req, res, next) => {
      const destination = req.headers['sec-fetch-dest'];
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const workerScript = POLICY_WORKERS.has(String(destination)) && WORKER_SCRIPT.test(path);
      if (typeof destination !== 'string' || POLICY_PAGES.has(destination) || workerScript) {
        res.setHeader('Content-Security-Policy', policy);
      }
      next();
    });
  },
};

// Each text file of the build is also written Brotli-compressed (file.br), and `vite preview` sends that copy to a browser
// that takes Brotli, as any static host or CDN does: an eighth fewer bytes than the gzip vite preview makes on the fly,
// which a slow phone's link carries before the dashboard's data (docs/performance.md).
const COMPRESSED_TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html;charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain;charset=utf-8',
};

export const writeBrotliCopies: Plugin = {
  name: 'write-brotli-copies',
  apply: 'build',
  closeBundle: {
    order: 'post', // after vite-plugin-pwa has written the service worker
    sequential: true,
    handler() {
      const dir = this.environment.config.build.outDir;
      for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
        if (!(extname(name) in COMPRESSED_TYPES)) continue;
        const file = join(dir, name);
        const params = { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: statSync(file).size };
        writeFileSync(`${file}.br`, brotliCompressSync(readFileSync(file), { params }));
      }
    },
  },
};

// Ahead of vite's own static files and its gzip; a screen's address (no file extension) gets the app's page, as vite
// preview's fallback sends it. Headers as vite sends them, with an ETag of the copy and 304 for a repeated request.
export const sendBrotliCopies: Plugin = {
  name: 'send-brotli-copies',
  configurePreviewServer(server) {
    const dir = normalize(server.config.build.outDir + sep); // with its separator: no sibling folder matches
    const headers = server.config.preview.headers ?? {};
    server.middlewares.use((req, res, next) => {
      if (req.method !== 'GET' || !/\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''))) return next();
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
      } catch {
        return next(); // a malformed address: vite's own handling answers it
      }
      const page = !extname(pathname) && String(req.headers.accept ?? '').includes('text/html');
      const name = page ? '/index.html' : pathname;
      const type = COMPRESSED_TYPES[extname(name)];
      const file = normalize(join(dir, name));
      if (!type || !file.startsWith(dir) || !existsSync(`${file}.br`)) return next();
      const stats = statSync(`${file}.br`);
      const etag = `W/"br-${stats.size}-${stats.mtime.getTime()}"`;
      const common = { ...headers, ETag: etag, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' };
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, common);
        res.end();
        return;
      }
      res.writeHead(200, { ...common, 'Content-Type': type, 'Content-Encoding': 'br', 'Content-Length': stats.size });
      res.end(readFileSync(`${file}.br`));
    });
  },
};
