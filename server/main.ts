// `npm run sync-server`: the sync server on SYNC_HOST (127.0.0.1), port SYNC_PORT, stored in SYNC_DIR, for this
// machine's pages and SYNC_ORIGINS' (server/sync-origins.ts).
import { resolve } from 'node:path';
import { DEFAULT_SYNC_PORT } from '../workers/core/sync-protocol';
import { startSyncServer } from './sync-server';
import { DEFAULT_SYNC_HOST, pageOriginsOf } from './sync-origins';

const log = (line: string) => console.log(`[sync] ${line}`);
const port = process.env.SYNC_PORT ? Number(process.env.SYNC_PORT) : DEFAULT_SYNC_PORT;
if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`SYNC_PORT "${process.env.SYNC_PORT}" is not a port`);
const dir = resolve(process.env.SYNC_DIR ?? '.medledger-sync');
const host = process.env.SYNC_HOST || DEFAULT_SYNC_HOST;

// a storage error anywhere is logged: the server keeps serving what it holds
process.on('unhandledRejection', (error) => log(`error: ${error instanceof Error ? error.message : String(error)}`));

let server: Awaited<ReturnType<typeof startSyncServer>>;
let origins: string[] = [];
try {
  origins = pageOriginsOf(process.env.SYNC_ORIGINS);
  server = await startSyncServer({ host, port, dir, log, origins });
} catch (error) {
  log(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
log(`listening on http://${host}:${server.port}, storing in ${dir}`);
log(`pages allowed: this machine's${origins.map((origin) => `, ${origin}`).join('')}`);

let closing = false;
async function stop(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  log(`${signal}: saving and stopping`);
  try {
    await server.close();
  } catch (error) {
    log(`could not save everything: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
  process.exit();
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
