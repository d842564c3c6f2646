// Starts the built app once for the e2e project: builds dist/ when missing or older than the sources,
// serves it with `vite preview` on 127.0.0.1 and a free port, and provides the URL to the tests.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { buildApp, serveBuild } from './support/build';
import { ensureChromium } from './support/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    chromiumPath: string; // the browser found or installed by ensureChromium
  }
}

const root = resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'workers', 'index.html', 'vite.config.ts', 'serve-build.ts', 'package.json', 'public'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

async function ensureBuilt(): Promise<void> {
  const built = join(root, 'dist', 'index.html');
  const sourcesTime = Math.max(...SOURCES.map((name) => newestMtime(join(root, name))));
  if (existsSync(built) && statSync(built).mtimeMs >= sourcesTime) return;
  console.log(existsSync(built) ? '[e2e] dist/ is older than the sources: building' : '[e2e] dist/ is missing: building');
  await buildApp();
}

let server: PreviewServer | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // before the build: a machine that cannot get a browser learns it at once, with the command to run
  const chromiumPath = ensureChromium((line) => console.log(`[e2e] ${line}`));
  console.log(`[e2e] browser: ${chromiumPath}`);
  await ensureBuilt();
  // serve a private copy: a `vite build` run meanwhile in the same tree empties dist/ under the server
  const served = mkdtempSync(join(tmpdir(), 'medledger-e2e-'));
  cpSync(join(root, 'dist'), served, { recursive: true });
  const app = await serveBuild(served);
  server = app.server;
  project.provide('baseUrl', app.url);
  project.provide('chromiumPath', chromiumPath);
  return async () => {
    await server?.close();
    rmSync(served, { recursive: true, force: true });
  };
}
