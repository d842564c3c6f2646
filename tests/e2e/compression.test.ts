// The built app goes out as the build's Brotli copy to a browser that takes Brotli, gzip-compressed (vite preview's
// compression) to one that does not, byte for byte the built file once decoded either way, with the
// Content-Security-Policy header on the worker's own script (serve-build.ts).
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
  test("sends the worker's script as Brotli to a browser that takes it, gzipped to one that does not, with the policy header", async ({
    baseUrl,
  }) => {
    const brotli = await fetchRaw(`${baseUrl}/${workerScript}`, {
      'Accept-Encoding': 'gzip, deflate, br',
      'Sec-Fetch-Dest': 'worker',
    });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toBe('text/javascript');
    expect(brotli.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(brotliDecompressSync(brotli.body).equals(built(workerScript))).toBe(true);

    const gzip = await fetchRaw(`${baseUrl}/${workerScript}`, { 'Accept-Encoding': 'gzip', 'Sec-Fetch-Dest': 'worker' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(gunzipSync(gzip.body).equals(built(workerScript))).toBe(true);
    expect(brotli.body.length).toBeLessThan(gzip.body.length);
  });

  test("answers a screen's address with the app's page, and a repeated request with 304 Not Modified", async ({ baseUrl }) => {
    const page = await fetchRaw(`${baseUrl}/patient/dashboard`, { 'Accept-Encoding': 'br', Accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toBe('text/html;charset=utf-8');
    expect(brotliDecompressSync(page.body).equals(built('index.html'))).toBe(true);

    const again = await fetchRaw(`${baseUrl}/patient/dashboard`, {
      'Accept-Encoding': 'br',
      Accept: 'text/html',
      'If-None-Match': String(page.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const gzip = await fetchRaw(`${baseUrl}/patient/dashboard`, { 'Accept-Encoding': 'gzip', Accept: 'text/html' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(built('index.html'))).toBe(true);
  });
});
