// How `vite preview` serves the build (npm start, the browser tests, the benches): the Content-Security-Policy header
// where it takes effect. A plugin of vite.config.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
