// The built app goes out Brotli-compressed to a browser that takes Brotli (serve-build.ts: the build writes a .br copy
// of each text file, vite preview sends it), byte for byte the built file once decoded; gzip to any other.
import { readFileSync, readdirSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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
  test("sends the worker's script as Brotli to a browser that takes it, and the same bytes gzipped to one that does not", async ({
    baseUrl,
  }) => {
    const brotli = await fetchRaw(`${baseUrl}/${workerScript}`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toBe('text/javascript');
    expect(brotli.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(brotliDecompressSync(brotli.body).equals(built(workerScript))).toBe(true);

    const gzip = await fetchRaw(`${baseUrl}/${workerScript}`, { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(built(workerScript))).toBe(true);
    expect(brotli.body.length).toBeLessThan(gzip.body.length);
  });

  test("answers a screen's address with the app's page, and a repeated request with 304 Not Modified", async ({ baseUrl }) => {
    const page = await fetchRaw(`${baseUrl}/patient/dashboard`, { 'Accept-Encoding': 'br', Accept: 'text/html' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toBe('text/html;charset=utf-8');
    expect(brotliDecompressSync(page.body).equals(built('index.html'))).toBe(true);

    const etag = String(page.headers.etag);
    const again = await fetchRaw(`${baseUrl}/patient/dashboard`, {
      'Accept-Encoding': 'br',
      Accept: 'text/html',
      'If-None-Match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});
