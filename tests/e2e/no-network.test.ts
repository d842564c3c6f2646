// No byte leaves the browser: the built app carries a Content-Security-Policy that allows only its own origin,
// the browser enforces it, and a walk through every screen of both roles makes no request to another origin and,
// once the app has loaded, no request at all except the app's own lazy chunks and worker scripts.
//
// Allowed after load, and why:
//   GET <app origin>/assets/<name>.js|.css  lazy routes, their CSS, and the worker scripts (ledger, nonce range),
//                                           all built files of the app fetched on first use
//   blob:<app origin>/<uuid>                a decrypted document preview: bytes already in this browser
// Anything else (another origin, a POST, a fetch or XHR to the app's own server, a beacon, a reload) fails.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from './support/fixtures';
import { section, settled } from './support/read';
import { tamperDemoBlock7 } from './support/explorer';
import { goTo, openMiningLab, pdfFile, pngFile, recordItem, uploadRecord } from './support/records';
import { chooseRole } from './support/session';

const EXPECTED_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"], // the sync engine's WebAssembly, compiled only after Connect
  'worker-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'blob:', 'data:'],
  'frame-src': ['blob:'],
  'connect-src': ["'self'", 'ws://127.0.0.1:*', 'http://127.0.0.1:*', 'ws://localhost:*', 'http://localhost:*'], // a sync server on this machine, only after Connect
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

interface SeenRequest {
  url: string;
  method: string;
  type: string;
  afterLoad: boolean;
}

// Every request of the context (pages and their workers), and each CSP violation the page reports.
function recordTraffic(context: BrowserContext) {
  const requests: SeenRequest[] = [];
  let loaded = false;
  context.on('request', (request) =>
    requests.push({ url: request.url(), method: request.method(), type: request.resourceType(), afterLoad: loaded }),
  );
  return {
    requests,
    markLoaded: () => {
      loaded = true;
    },
  };
}

async function watchCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
}

function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

// Why a request breaks the rule, or null when it is allowed (see the header of this file).
function problemWith(request: SeenRequest, appOrigin: string): string | null {
  const url = new URL(request.url);
  if (url.protocol === 'blob:') return new URL(url.pathname).origin === appOrigin ? null : 'a blob of another origin';
  if (url.protocol === 'data:') return null;
  if (url.origin !== appOrigin) return 'another origin';
  if (!request.afterLoad) return null;
  if (request.method !== 'GET') return `a ${request.method} after load`;
  if (!/^\/assets\/[\w.-]+\.(js|css)$/.test(url.pathname)) return 'not a lazy chunk of the app';
  return null;
}

// Signs in through the form on the current page (no page load: the walk must stay in one document).
async function signIn(page: Page, role: 'patient' | 'doctor'): Promise<void> {
  await chooseRole(page, role);
  await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`**/${role}/dashboard`);
}

async function visitExplorer(page: Page): Promise<void> {
  await goTo(page, 'Blockchain Explorer', 'Blockchain Explorer');
  await page.getByText('Chain valid.').waitFor();
  await tamperDemoBlock7(page);
}

async function visitMiningLab(page: Page): Promise<void> {
  await openMiningLab(page);
  await page.getByLabel('Difficulty (leading zeros)').selectOption('2');
  await page.getByLabel('Blocks', { exact: true }).fill('2');
  for (const parallel of [false, true]) {
    await page.getByLabel(/^Split the nonce search across \d+ workers/).setChecked(parallel);
    await page.getByRole('button', { name: 'Start mining' }).click();
    await page
      .locator(`tr[data-place="${parallel ? 'parallel' : 'worker'}"]`)
      .first()
      .waitFor({ timeout: 60_000 });
  }
}

describe('no network', () => {
  test('the built page carries the Content-Security-Policy, allowing only its own origin and a sync server on this machine', async ({
    page,
  }) => {
    await page.goto('/');
    const content = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    const directives = Object.fromEntries(
      (content ?? '')
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((words) => words[0] !== '')
        .map(([name, ...sources]) => [name, sources]),
    );
    expect(directives).toEqual(EXPECTED_POLICY);
    // the meta must come before any script or stylesheet it governs
    const order = await page.evaluate(() =>
      [...document.head.querySelectorAll('meta[http-equiv], script, link[rel="stylesheet"], link[rel="modulepreload"]')].map(
        (el) => el.tagName,
      ),
    );
    expect(order[0]).toBe('META');
  });

  test('the browser enforces it: other origins, inline script and style, and a blob: worker are refused', async ({
    page,
    recorded,
  }) => {
    await watchCspViolations(recorded.context);
    recorded.allowProblem(/Content Security Policy|ERR_BLOCKED_BY_CSP|Failed to fetch/);
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    const outcome = await page.evaluate(async () => {
      const result: Record<string, string> = {};
      try {
        await fetch('https://example.org/records', { method: 'POST', body: 'secret' });
        result.fetch = 'sent';
      } catch (error) {
        result.fetch = (error as Error).name;
      }
      const image = new Image();
      image.src = 'https://example.org/pixel.png';
      document.body.append(image);
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.head.append(script);
      const style = document.createElement('style');
      style.textContent = 'body { color: red }';
      document.head.append(style);
      // a same-origin blob: worker, so only the policy (worker-src 'self') can refuse it
      result.worker = await new Promise<string>((resolve) => {
        try {
          const worker = new Worker(URL.createObjectURL(new Blob(['postMessage("ran")'], { type: 'text/javascript' })));
          worker.onmessage = () => resolve('ran');
          worker.onerror = () => resolve('refused');
          setTimeout(() => resolve('silent'), 2000);
        } catch (error) {
          resolve((error as Error).name);
        }
      });
      result.inlineRan = String('inlineRan' in window); // an allowed inline script runs as it is appended
      result.styled = getComputedStyle(document.body).color;
      return result;
    });
    expect(outcome.fetch).toBe('TypeError');
    expect(outcome.worker).not.toBe('ran');
    expect(outcome.inlineRan).toBe('false');
    expect(outcome.styled).not.toBe('rgb(255, 0, 0)');
    // the browser reports each refusal as an event of its own, some after the refused load
    await settled(async () => (await cspViolations(page)).map((line) => line.split(' at ')[0])).toEqual(
      expect.arrayContaining([
        'connect-src blocked https://example.org/records',
        'img-src blocked https://example.org/pixel.png',
        'script-src-elem blocked inline',
        'style-src-elem blocked inline',
        'worker-src blocked blob',
      ]),
    );
  });

  test('a walk through every screen of both roles requests nothing from another origin, and after load only lazy chunks', async ({
    page,
    recorded,
    baseUrl,
  }) => {
    const appOrigin = new URL(baseUrl).origin;
    const traffic = recordTraffic(recorded.context);
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await watchCspViolations(recorded.context);

    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.waitForLoadState('networkidle');
    traffic.markLoaded();
    const check = async (screen: string) => {
      expect(await cspViolations(page), `CSP violations on ${screen}`).toEqual([]);
    };
    await check('login');

    // patient: dashboard, upload and its success panel, records with a decrypted preview, profile, explorer, lab
    await signIn(page, 'patient');
    await section(page, 'Blockchain Status').getByText('Valid', { exact: true }).waitFor();
    await check('patient dashboard');
    await uploadRecord(page, 'Chest X-ray', [pngFile('chest-xray.png'), pdfFile('radiology-report.pdf')]);
    await check('upload success');
    await goTo(page, 'Medical Records', 'Medical Records');
    const record = recordItem(section(page, 'Your Records'), 'Chest X-ray');
    await record.getByRole('button', { name: 'Open chest-xray.png' }).click();
    const preview = page.getByRole('dialog', { name: 'chest-xray.png' });
    await preview.getByRole('img', { name: 'chest-xray.png' }).waitFor();
    await check('records with a preview');
    await preview.getByRole('button', { name: 'Close', exact: true }).click();
    await preview.waitFor({ state: 'hidden' });
    await goTo(page, 'My Profile', 'My Profile');
    await check('patient profile');
    await visitExplorer(page);
    await check('patient explorer');
    await visitMiningLab(page);
    await check('patient mining lab');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();

    // doctor: dashboard, profile, my patients, SOS granted and ended, explorer, lab
    await signIn(page, 'doctor');
    await page.getByRole('heading', { name: /^Welcome, /, level: 1 }).waitFor();
    await check('doctor dashboard');
    await goTo(page, 'My Profile', 'My Profile');
    await check('doctor profile');
    await goTo(page, 'My Patients', 'My Patients');
    await page.getByText('Chest X-ray').first().waitFor();
    await check('my patients');
    await goTo(page, 'SOS Emergency', 'SOS Emergency Access');
    await page.getByRole('radio', { name: /Michael Chen/ }).check();
    await page.getByLabel('Reason for emergency access').fill('Unconscious patient admitted to the ER');
    await page.getByRole('button', { name: 'Grant Emergency Access' }).click();
    await page.getByRole('region', { name: 'Emergency Access Active' }).waitFor();
    await check('SOS active');
    await page.getByRole('button', { name: 'End Emergency Session' }).click();
    await page.getByRole('button', { name: 'Grant Emergency Access' }).waitFor();
    await check('SOS ended');
    await visitExplorer(page);
    await check('doctor explorer');
    await visitMiningLab(page);
    await check('doctor mining lab');

    // left alone, the app makes no request at all: no polling, no beacons
    const before = traffic.requests.length;
    await page.waitForTimeout(3000); // the window watched for requests, not a wait for a state
    expect(traffic.requests.slice(before)).toEqual([]);

    const problems = traffic.requests
      .map((request) => ({ request, problem: problemWith(request, appOrigin) }))
      .filter(({ problem }) => problem !== null)
      .map(({ request, problem }) => `${problem}: ${request.method} ${request.type} ${request.url}`);
    expect(problems).toEqual([]);
    expect(sockets).toEqual([]);
    // lazy route chunks and the lab's workers did load after load: the allowance was used, not vacuous
    const lateScripts = traffic.requests
      .filter((request) => request.afterLoad && request.type === 'script')
      .map((r) => new URL(r.url).pathname);
    expect(lateScripts.some((path) => path.includes('upload-page'))).toBe(true);
    expect(lateScripts.some((path) => path.includes('nonce-range.worker'))).toBe(true);
    expect(traffic.requests.some((request) => request.url.startsWith(`blob:${appOrigin}/`))).toBe(true);
  });
});
