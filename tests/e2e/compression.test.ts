// The built app goes out gzip-compressed (vite preview's compression), byte for byte the built file once decoded, with
// the Content-Security-Policy header on the worker's own script (serve-build.ts).
import { readFileSync, readdirSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from './support/fixtures';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

function fetchRaw(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

const built = (path: string) => readFileSync(join('dist', path));
const workerScript = `assets/${readdirSync('dist/assets').find((name) => /^ledger\.worker-.*\.js$/.test(name))}`;

describe('the served build', () => {
  test("sends the worker's script gzipped with the policy header, the same bytes as built", async ({ baseUrl }) => {
    const gzip = await fetchRaw(`${baseUrl}/${workerScript}`, {
      'Accept-Encoding': 'gzip, deflate, br',
      'Sec-Fetch-Dest': 'worker',
    });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(gunzipSync(gzip.body).equals(built(workerScript))).toBe(true);
    expect(gzip.body.length).toBeLessThan(built(workerScript).length / 2);
  });

  test("answers a screen's address with the app's page", async ({ baseUrl }) => {
    const page = await fetchRaw(`${baseUrl}/patient/dashboard`, { 'Accept-Encoding': 'gzip', Accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.body).equals(built('index.html'))).toBe(true);
  });
});
