// The built sync server as a real child process: a temporary storage folder, a free port, its log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { JoinAnswer, JoinRequest, LedgerInfo } from '../../../workers/core/sync-protocol';

export const root = resolve(import.meta.dirname, '../../..');
// MEDLEDGER_SYNC_SERVER runs another bundle (an older build, to see a test fail on it)
export const BUILT_SERVER = process.env.MEDLEDGER_SYNC_SERVER ?? join(root, 'dist-server', 'sync-server.mjs');

export interface ServerProcess {
  port: number;
  dir: string;
  lines: string[]; // stdout, one log line each
  info(): Promise<LedgerInfo>;
  join(request: JoinRequest): Promise<JoinAnswer>;
  exited: Promise<number | null>; // the exit code, once the process ended
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function newStorageDir(): string {
  return mkdtempSync(join(tmpdir(), 'medledger-sync-test-'));
}

// port 0: the server picks a free one and logs it; a restart passes the port it had, so devices reconnect.
export function startServer(dir: string, port = 0, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [BUILT_SERVER], {
    cwd: root,
    env: { ...process.env, SYNC_DIR: dir, SYNC_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // a test process that ends without its afterAll (a crash, a timeout) leaves no server behind
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const lines: string[] = [];
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((resolveStart, failStart) => {
    // after its output is read: the error carries what the server said
    child.once('close', (code) =>
      failStart(new Error(`the sync server exited with code ${code} before listening: ${[...lines, partial].join('\n')}`)),
    );
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const complete = text.split('\n');
      partial = complete.pop() ?? '';
      for (const line of complete) {
        lines.push(line);
        const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
        if (!listening) continue;
        const base = `http://127.0.0.1:${listening[1]}`;
        resolveStart({
          port: Number(listening[1]),
          dir,
          lines,
          exited,
          info: async () => (await fetch(`${base}/api/ledger`)).json() as Promise<LedgerInfo>,
          join: async (request) =>
            (await fetch(`${base}/api/join`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(request),
            }).then((response) => response.json())) as JoinAnswer,
          kill: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
      }
    });
  });
}
