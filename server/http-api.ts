// The server's small JSON API, answering pages served from this machine or from SYNC_ORIGINS only. Open to anyone: GET /api/ledger (which ledger),
// GET /api/adopt (what a fresh device signs in with), POST /api/challenge and POST /api/join (the proof). Everything
// else (POST /api/device, /api/release, /api/remove-device) needs the session a proof opened, as `Authorization: Bearer <session>`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LedgerKeeper } from './ledger-keeper';
import type { PeerGate } from './peer-gate';
import { originRefusal } from './sync-origins';
import { deviceUrlOf, joinRequestOf, releaseRequestOf, removeRequestOf } from './wire-checks';

const MAX_BODY_BYTES = 64 * 1024; // a join request is a few hundred bytes

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

// Reads a JSON body, checks it with `check` and answers with `answer`'s result; a bad request gets a 4xx and why, logged.
async function answerPost<T>(
  request: IncomingMessage,
  response: ServerResponse,
  check: (value: unknown) => T | string,
  answer: (checked: T) => Promise<unknown>,
  refused: (reason: string) => void,
): Promise<void> {
  const bad = (status: number, reason: string) => {
    refused(reason);
    send(response, status, { ok: false, reason });
  };
  const body = await readBody(request);
  if (body === null) return bad(413, `the request is larger than ${MAX_BODY_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return bad(400, 'the request is not JSON');
  }
  const checked = check(value);
  if (typeof checked === 'string') return bad(400, checked);
  send(response, 200, await answer(checked));
}

function bearer(request: IncomingMessage): string {
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
}

export function createApiHandler(keeper: LedgerKeeper, gate: PeerGate, origins: readonly string[], log: (line: string) => void) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      // a page of another site must not join this machine's server to its ledger
      const refusal = originRefusal(origin, origins);
      if (refusal) {
        log(refusal);
        return send(response, 403, { error: refusal });
      }
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Vary', 'Origin');
    }
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Content-Type, Authorization',
      });
      return void response.end();
    }
    if (request.method === 'GET' && path === '/api/ledger') return send(response, 200, keeper.info());
    if (request.method === 'GET' && path === '/api/adopt') {
      const answer = keeper.adopt();
      return answer ? send(response, 200, answer) : send(response, 404, { error: 'this server holds no ledger yet' });
    }
    if (request.method !== 'POST') return send(response, 404, { error: 'not found' });
    if (path === '/api/challenge') return send(response, 200, { challenge: gate.challenge() });
    const refused = (what: string) => (reason: string) => log(`${what} request refused: ${reason}`);
    const failed = (what: string) => (error: unknown) => {
      log(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) send(response, 500, { ok: false, reason: `the server failed to answer the ${what}` });
    };
    if (path === '/api/join') {
      answerPost(request, response, joinRequestOf, (join) => keeper.join(join), refused('join')).catch(failed('join'));
      return;
    }
    const deviceId = gate.deviceOfSession(bearer(request));
    if (path !== '/api/device' && path !== '/api/release' && path !== '/api/remove-device')
      return send(response, 404, { error: 'not found' });
    if (!deviceId) {
      log(`${path} refused: no session of a proven device`);
      return send(response, 401, { ok: false, reason: 'this device has not proved who it is: join again' });
    }
    if (path === '/api/device') {
      const checkUrl = (value: unknown) => {
        const url = deviceUrlOf(value);
        return url ? { url } : 'deviceUrl is not an Automerge URL';
      };
      answerPost(request, response, checkUrl, ({ url }) => keeper.registerDevice(deviceId, url), refused('device')).catch(
        failed('device'),
      );
      return;
    }
    if (path === '/api/remove-device') {
      answerPost(
        request,
        response,
        removeRequestOf,
        ({ deviceId: removed }) => keeper.removeDevice(deviceId, removed),
        refused('remove-device'),
      ).catch(failed('remove-device'));
      return;
    }
    answerPost(
      request,
      response,
      releaseRequestOf,
      (release) => ('epochId' in release ? keeper.releaseSummary(release, deviceId) : keeper.release(release, deviceId)),
      refused('release'),
    ).catch(failed('release'));
  };
}
