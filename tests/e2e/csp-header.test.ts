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

  test("sends it with what the browser loads as a page or a worker, not with the page's scripts and stylesheet", async ({
    page,
  }) => {
    const policies = new Map<string, string | undefined>();
    page.on('response', (response) =>
      policies.set(new URL(response.url()).pathname, response.headers()['content-security-policy']),
    );
    await login(page, 'patient');
    const sent = (pattern: RegExp) => [...policies].filter(([path]) => pattern.test(path));
    await expect.poll(() => sent(/ledger\.worker-.*\.js$/).length).toBeGreaterThan(0);
    expect(sent(/^\/$/).map(([, policy]) => policy)).toEqual([expect.stringContaining("frame-ancestors 'none'")]);
    for (const [, policy] of sent(/ledger\.worker-.*\.js$/)) expect(policy).toContain("frame-ancestors 'none'");
    expect(sent(/\.css$/).length).toBeGreaterThan(0);
    for (const [path, policy] of [...sent(/\.css$/), ...sent(/\/assets\/(react|router|shared)-.*\.js$/)]) {
      expect({ path, policy }).toEqual({ path, policy: undefined });
    }
  });
});
