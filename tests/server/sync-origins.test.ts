// SYNC_ORIGINS: a page from an origin the setting names is answered like this machine's; one outside it is refused
// with the reason, and the server logs it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { newStorageDir, startServer, type ServerProcess } from './support/server-process';

const PHONE_PAGE = 'https://192.168.1.20:8443'; // the app as a reverse proxy serves it to the network (README)
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer(newStorageDir(), 0, { SYNC_ORIGINS: `${PHONE_PAGE}, https://medledger.example` });
});

afterAll(async () => {
  await server?.kill();
});

it('answers a page from an origin in SYNC_ORIGINS and refuses one outside it with the reason, logged', async () => {
  const base = `http://127.0.0.1:${server.port}`;
  // logged after the listening line the start waits for: it may come through the child's stdout a moment later
  await expect
    .poll(() => server.lines)
    .toContain(`[sync] pages allowed: this machine's, ${PHONE_PAGE}, https://medledger.example`);

  const named = await fetch(`${base}/api/ledger`, { headers: { Origin: PHONE_PAGE } });
  expect(named.status).toBe(200);
  expect(named.headers.get('access-control-allow-origin')).toBe(PHONE_PAGE);
  const local = await fetch(`${base}/api/ledger`, { headers: { Origin: 'http://localhost:4173' } });
  expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:4173');

  const outside = await fetch(`${base}/api/ledger`, { headers: { Origin: 'https://192.168.1.20:9999' } });
  expect(outside.status).toBe(403);
  const reason = "refused a page from https://192.168.1.20:9999: only this machine's pages and SYNC_ORIGINS may use this server";
  expect(await outside.json()).toEqual({ error: reason });
  await expect.poll(() => server.lines).toContain(`[sync] ${reason}`);

  const socket = new WebSocket(`ws://127.0.0.1:${server.port}`, { origin: 'https://attacker.example' });
  const status = await new Promise<number>((done) =>
    socket.once('unexpected-response', (_request, response) => done(response.statusCode ?? 0)),
  );
  expect(status).toBe(401);
  await expect.poll(() => server.lines.some((line) => line.includes('refused a page from https://attacker.example'))).toBe(true);
});

it('does not start with a SYNC_ORIGINS entry that is not an origin, and says why', async () => {
  await expect(startServer(newStorageDir(), 0, { SYNC_ORIGINS: 'https://192.168.1.20:8443/app' })).rejects.toThrow(
    /SYNC_ORIGINS: "https:\/\/192.168.1.20:8443\/app" is not an origin/,
  );
});
