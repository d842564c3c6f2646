// Signed blocks in the built app (`npm run bench -- --signatures`): the sign-in's key derivation at 1x and 4x
// CPU, and chains of 1,000, 10,000 and 100,000 signed blocks (`BENCH_SIGNATURE_HEIGHTS`): the ledger service's
// first answer and the time until every signature is checked, and the patient dashboard's cold load, loaded
// `BENCH_DASHBOARD_LOADS` times (4) in turns (shown after, answered from the loaded blocks after, every hash and
// signature checked after, the longest main-thread task until then). The first load has nothing kept; the later
// ones are a returning patient's, whose long ledger shows its kept first screen (workers/ledger/first-screen.ts).
import { cpus, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import {
  CHROMIUM_ARGS,
  benchChromium,
  benchWorkerPage,
  buildAll,
  dashboardLoad,
  serviceLoad,
  signIn,
  previewApp,
  traceMainThread,
} from './browser-bench.mjs';

const LONG_TASK_MS = 50;
const ms = (value) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : '–');
const seconds = (value) => `${(value / 1000).toFixed(2)} s`;
const verdict = (ok) => (ok ? 'met' : 'MISSED');

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Sign In clicked to the dashboard's welcome, in a profile whose keys exist, under CPU throttling `rate`
// (Chromium throttles the page's main thread, not the worker that derives the key).
async function loginTimes(browser, baseUrl, rate, runs) {
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  const firstBegan = Date.now();
  await page.goto(`${baseUrl}/`);
  await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: /Welcome back/ }).waitFor({ timeout: 60_000 });
  const firstRunMs = Date.now() - firstBegan; // a new profile: every user's key is made, then Sarah's unlocked
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const each = [];
  for (let run = 0; run < runs; run++) {
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
    let busySeen = false;
    let wall = 0;
    const trace = await traceMainThread(cdp, baseUrl, async () => {
      const began = Date.now();
      await page.getByRole('button', { name: 'Sign In' }).click();
      busySeen = await page
        .getByRole('button', { name: 'Signing in...' })
        .waitFor({ timeout: 2_000 })
        .then(
          () => true,
          () => false,
        );
      await page.getByRole('heading', { name: /Welcome back/ }).waitFor({ timeout: 60_000 });
      wall = Date.now() - began;
    });
    each.push({ wallMs: wall, longestTaskCpuMs: trace.longestTaskCpuMs, busySeen });
  }
  await context.close();
  return {
    rate,
    firstRunMs,
    runs,
    wallMs: median(each.map((run) => run.wallMs)),
    longestTaskCpuMs: Math.max(...each.map((run) => run.longestTaskCpuMs)),
    busySeen: each.every((run) => run.busySeen),
  };
}

// Ed25519 verification throughput of crypto.subtle in 1, 2 and 4 dedicated workers at once, each verifying the
// same `count` signatures: what every signature check of a long chain costs at best on this machine.
async function verifyThroughput(browser, baseUrl, count = 10_000) {
  const page = await browser.newPage();
  // a page of the app's origin without its CSP, so the bench may start workers from a blob
  await page.route(`${baseUrl}/verify-bench`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>verify bench</title>' }),
  );
  await page.goto(`${baseUrl}/verify-bench`);
  const runs = await page.evaluate(async (count) => {
    const pair = await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify']);
    const publicKey = await crypto.subtle.exportKey('raw', pair.publicKey);
    const messages = Array.from({ length: count }, (_, i) => new TextEncoder().encode(`medledger-block|patient-1|${i}`));
    const signatures = await Promise.all(messages.map((message) => crypto.subtle.sign('Ed25519', pair.privateKey, message)));
    const source = `self.onmessage = async ({ data }) => {
      const key = await crypto.subtle.importKey('raw', data.publicKey, 'Ed25519', false, ['verify']);
      let holds = 0;
      for (let i = 0; i < data.messages.length; i += 1000) {
        const slice = data.messages.slice(i, i + 1000);
        const results = await Promise.all(slice.map((m, j) => crypto.subtle.verify('Ed25519', key, data.signatures[i + j], m)));
        holds += results.filter(Boolean).length;
      }
      self.postMessage(holds);
    };`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const runs = [];
    for (const workers of [1, 2, 4]) {
      const started = Array.from({ length: workers }, () => new Worker(url));
      const began = performance.now();
      const holds = await Promise.all(
        started.map(
          (worker) =>
            new Promise((resolve) => {
              worker.onmessage = (event) => resolve(event.data);
              worker.postMessage({ publicKey, messages, signatures });
            }),
        ),
      );
      const ms = performance.now() - began;
      started.forEach((worker) => worker.terminate());
      if (holds.some((held) => held !== count)) throw new Error('a signature of the verify bench did not hold');
      runs.push({ workers, signatures: workers * count, ms, microsEach: (ms * 1000) / (workers * count) });
    }
    return runs;
  }, count);
  await page.close();
  return runs;
}

export async function runSignatureBench({ skipAppBuild = false } = {}) {
  const executablePath = benchChromium();
  await buildAll(skipAppBuild);
  const { server, baseUrl } = await previewApp();
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    console.log('[bench] sign-in (key derivation) at 1x and 4x CPU…');
    const logins = [];
    for (const rate of [1, 4]) logins.push(await loginTimes(browser, baseUrl, rate, 5));
    console.log('[bench] Ed25519 verification throughput in 1, 2 and 4 workers…');
    const throughput = await verifyThroughput(browser, baseUrl);
    // 1,000 beside the long ledgers: a returning patient's dashboard on 100,000 blocks is held to the one on 1,000
    const heights = process.env.BENCH_SIGNATURE_HEIGHTS?.split(',').map(Number) ?? [
      1_000,
      10_000,
      Number(process.env.BENCH_HUGE_BLOCKS ?? 100_000),
    ];
    // every ledger is seeded first, then the dashboards are loaded in turns, so a change of load hits them alike
    const seededChains = [];
    for (const height of heights) {
      console.log(`[bench] ${height.toLocaleString('en-US')} signed blocks: mining, signing, writing…`);
      const context = await browser.newContext({ baseURL: baseUrl });
      const app = await context.newPage();
      await signIn(app, baseUrl); // the app makes the keys; the seed signs with them and keeps this session
      await app.close();
      const seeder = await benchWorkerPage(context, baseUrl);
      const seeded = await seeder.call({ cmd: 'seed', blocks: height });
      const service = await serviceLoad(seeder, height, 1);
      await seeder.page.close();
      seededChains.push({ height, context, seedMs: seeded.totalMs, service, loads: [] });
    }
    // the first load after the seed has nothing kept; the later ones are a returning patient's (first-screen.ts)
    const rounds = Number(process.env.BENCH_DASHBOARD_LOADS ?? 4);
    for (let round = 1; round <= rounds; round++) {
      for (const chain of seededChains) {
        const dashboard = await dashboardLoad(chain.context, baseUrl, chain.height, { allowFailure: true });
        console.log(
          `[bench] round ${round}, ${chain.height.toLocaleString('en-US')} blocks: dashboard after ${seconds(dashboard.wallMs)}${dashboard.kept ? ' (kept first screen)' : ''}, answered from the loaded blocks after ${seconds(dashboard.loadedMs)}, every signature after ${seconds(dashboard.signedMs)}, longest main-thread task ${ms(dashboard.coldLongestTaskCpuMs)} of CPU`,
        );
        chain.loads.push(dashboard);
      }
    }
    const chains = [];
    for (const { context, loads, ...chain } of seededChains) {
      await context.close();
      const returning = loads.length > 1 ? loads.slice(1) : loads;
      const middle = (pick) => median(returning.map(pick));
      const failure = loads.find((load) => load.failure)?.failure;
      const dashboard = {
        ...(failure ? { failure } : {}),
        firstMs: loads[0].wallMs, // nothing kept yet
        firstLoadedMs: loads[0].loadedMs,
        wallMs: middle((load) => load.wallMs),
        loadedMs: middle((load) => load.loadedMs),
        keptShown: returning.filter((load) => load.kept).length,
        signedMs: middle((load) => load.signedMs),
        coldLongestTaskCpuMs: Math.max(...loads.map((load) => load.coldLongestTaskCpuMs)),
        longestTaskMs: Math.max(...loads.map((load) => load.longestTaskMs)),
        loads: returning.length,
      };
      chains.push({ ...chain, dashboard });
    }
    return {
      when: new Date().toISOString(),
      chromium: browser.version(),
      cpus: cpus().length,
      loadAverage: loadavg(),
      logins,
      throughput,
      chains,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

export function formatSignatureTable(results) {
  const lines = [
    `Chromium ${results.chromium}, ${results.cpus} CPUs, load average ${results.loadAverage.map((value) => value.toFixed(2)).join(' ')}`,
    '',
    "| Sign-in (PBKDF2-SHA-256, 600,000 iterations, in the ledger worker) | CPU | Sign In to dashboard (median of 5) | Longest main-thread task (CPU) | 'Signing in...' shown | First run of a new profile (keys for 4 users made) |",
    '|---|---:|---:|---:|---|---:|',
  ];
  for (const login of results.logins) {
    lines.push(
      `| patient demo account | x${login.rate} | ${ms(login.wallMs)} | ${ms(login.longestTaskCpuMs)} | ${login.busySeen ? 'yes' : 'no'} | ${ms(login.firstRunMs)} |`,
    );
  }
  lines.push(
    '',
    '| crypto.subtle Ed25519 verify, workers at once | signatures | wall time | per signature (wall / signatures) | signatures a second |',
    '|---:|---:|---:|---:|---:|',
  );
  for (const run of results.throughput ?? []) {
    lines.push(
      `| ${run.workers} | ${run.signatures.toLocaleString('en-US')} | ${ms(run.ms)} | ${run.microsEach.toFixed(1)} µs | ${Math.round((run.signatures / run.ms) * 1000).toLocaleString('en-US')} |`,
    );
  }
  lines.push(
    '',
    `| Signed blocks | Ledger service: first answer | every signature checked | Dashboard cold load, nothing kept (first load): shown after / answered from the loaded blocks | returning patient, median of ${results.chains[0]?.dashboard.loads ?? 1} in turns: shown after (kept first screen shown) | answered from the loaded blocks after | every hash and signature checked after | longest main-thread task until then (CPU / wall) |`,
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const chain of results.chains) {
    const { service, dashboard } = chain;
    lines.push(
      `| ${chain.height.toLocaleString('en-US')} | ${ms(service.firstCallMs)} | ${ms(service.signaturesMs)} | ` +
        `${ms(dashboard.firstMs)} / ${ms(dashboard.firstLoadedMs)} | ` +
        `${dashboard.failure ? `failure screen: ${dashboard.failure}` : ms(dashboard.wallMs)} (${dashboard.keptShown} of ${dashboard.loads}) | ` +
        `${ms(dashboard.loadedMs)} | ${ms(dashboard.signedMs)} | ${ms(dashboard.coldLongestTaskCpuMs)} / ${ms(dashboard.longestTaskMs)} |`,
    );
  }
  const huge = results.chains.at(-1);
  const small = results.chains[0];
  const behindSmall = huge.dashboard.wallMs - small.dashboard.wallMs;
  lines.push('', '| Goal | Measured | Verdict |', '|---|---|---|');
  lines.push(
    `| ${huge.height.toLocaleString('en-US')} signed blocks: a returning patient's dashboard within 1 s of ${small.height.toLocaleString('en-US')} blocks' | ${ms(behindSmall)} later | ${verdict(!huge.dashboard.failure && behindSmall <= 1000)} |`,
    `| (the same, first load with nothing kept, no goal) | ${ms(huge.dashboard.firstMs - small.dashboard.firstMs)} later | |`,
    `| ${huge.height.toLocaleString('en-US')} signed blocks: dashboard within 1.5 s | ${ms(huge.dashboard.wallMs)} | ${verdict(!huge.dashboard.failure && huge.dashboard.wallMs <= 1500)} |`,
    `| ${huge.height.toLocaleString('en-US')} signed blocks: every signature checked within 3 s | ${ms(huge.dashboard.signedMs)} | ${verdict(huge.dashboard.signedMs <= 3000)} |`,
    `| no main-thread task over 50 ms until every signature is checked (CPU) | ${ms(Math.max(...results.chains.map((chain) => chain.dashboard.coldLongestTaskCpuMs)))} | ${verdict(results.chains.every((chain) => chain.dashboard.coldLongestTaskCpuMs <= LONG_TASK_MS))} |`,
  );
  return lines.join('\n');
}
