// Builds dist-server/sync-server.mjs once for the server tests when it is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_SERVER, root } from './support/server-process';

const SOURCES = ['server', 'workers/core', 'vite.server.config.ts'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

export default function setup(): void {
  const sourcesTime = Math.max(...SOURCES.map((name) => newestMtime(join(root, name))));
  if (existsSync(BUILT_SERVER) && statSync(BUILT_SERVER).mtimeMs >= sourcesTime) return;
  console.log('[server] building dist-server/sync-server.mjs');
  const build = spawnSync('npx', ['vite', 'build', '--config', 'vite.server.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error(`[server] the sync server build failed with exit code ${build.status}`);
}
