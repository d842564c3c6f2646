// The Content-Security-Policy reaches the page and the workers as an HTTP header (npm start and these tests
// serve through `vite preview`), the same policy as index.html's meta tag plus frame-ancestors 'none'.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from './support/fixtures';
import { login } from './support/session';

const metaPolicy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(readFileSync('index.html', 'utf8'))?.[1];

describe('the served app', () => {
  test('sends the policy as a header on the page and on the ledger worker script, with frame-ancestors none', async ({
    page,
  }) => {
    expect(metaPolicy).toBeTruthy();
    const expected = `${metaPolicy}; frame-ancestors 'none'`;
    const document = await page.request.get('/');
    expect(document.headers()['content-security-policy']).toBe(expected);
    await login(page, 'patient');
    const workerUrl = page
      .workers()
      .find((worker) => /ledger\.worker/.test(worker.url()))
      ?.url();
    if (!workerUrl) throw new Error('the app did not start its ledger worker');
    const script = await page.request.get(workerUrl);
    expect(script.headers()['content-security-policy']).toBe(expected);
  });
});
