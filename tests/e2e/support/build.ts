import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { preview, type PreviewServer } from 'vite';

const root = resolve(import.meta.dirname, '../../..');

// `vite build` in a child process, the bundle only: typechecking is its own step (npm run typecheck).
// NODE_ENV=production: vitest sets it to test, which would bundle React's development build.
export function buildApp(extraArgs: readonly string[] = []): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('npx', ['vite', 'build', '--logLevel', 'warn', ...extraArgs], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`[e2e] \`vite build ${extraArgs.join(' ')}\` failed with exit code ${code}`)),
    );
  });
}

export interface ServedBuild {
  server: PreviewServer;
  port: number;
  url: string;
}

// Serves a built app with `vite preview` and the app's config (its CSP header) on 127.0.0.1; port 0 picks a free one.
export async function serveBuild(outDir: string, port = 0): Promise<ServedBuild> {
  const server = await preview({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('[e2e] vite preview did not report a TCP port');
  return { server, port: address.port, url: `http://127.0.0.1:${address.port}` };
}
