// Starts the built app once for the e2e project: builds dist/ when missing or older than the sources,
// serves it with `vite preview` on 127.0.0.1 and a free port, and provides the URL to the tests.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { ensureChromium } from './support/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    chromiumPath: string; // the browser found or installed by ensureChromium
  }
}

const root = resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'workers', 'index.html', 'vite.config.ts', 'package.json', 'public'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

function ensureBuilt(): void {
  const built = join(root, 'dist', 'index.html');
  const sourcesTime = Math.max(...SOURCES.map((name) => newestMtime(join(root, name))));
  if (existsSync(built) && statSync(built).mtimeMs >= sourcesTime) return;
  console.log(existsSync(built) ? '[e2e] dist/ is older than the sources: building' : '[e2e] dist/ is missing: building');
  // the bundle only: typechecking is its own step (npm run typecheck, and npm run build before npm test's e2e)
  // NODE_ENV=production: vitest sets it to test, which would bundle React's development build
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('[e2e] `vite build` failed: the browser tests need the built app in dist/');
}

let server: PreviewServer | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // before the build: a machine that cannot get a browser learns it at once, with the command to run
  const chromiumPath = ensureChromium((line) => console.log(`[e2e] ${line}`));
  console.log(`[e2e] browser: ${chromiumPath}`);
  ensureBuilt();
  // serve a private copy: a `vite build` run meanwhile in the same tree empties dist/ under the server
  const served = mkdtempSync(join(tmpdir(), 'medledger-e2e-'));
  cpSync(join(root, 'dist'), served, { recursive: true });
  server = await preview({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: served },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('[e2e] vite preview did not report a TCP port');
  project.provide('baseUrl', `http://127.0.0.1:${address.port}`);
  project.provide('chromiumPath', chromiumPath);
  return async () => {
    await server?.close();
    rmSync(served, { recursive: true, force: true });
  };
}
