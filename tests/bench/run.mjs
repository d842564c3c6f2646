// `npm run bench`: prints the benchmark tables and writes them as JSON under tests/bench/results/.
// Two parts: the ledger core in Node (core-bench.ts) and the built app in Chromium (browser-bench.mjs).
// `npm run bench -- --core` runs the Node part only, `-- --browser` the browser part only, `-- --sandbox` only
// the browser part's live sandbox chain (its figures replace the sandbox figures of the last browser run),
// `-- --lighthouse` only Lighthouse on the login page and the dashboards (lighthouse-bench.mjs), `-- --screens`
// only the first and second visits of every screen (screens-bench.mjs), `-- --trace [--role doctor] [--runs 5]` only a
// trace of a returning user's dashboard load at 4x CPU, task by task (dashboard-trace.mjs),
// `-- --act` only the time until a person can act on a slow phone, issue 39's emulation (act-bench.mjs),
// `-- --portability` only the export, backup and restore of a big ledger (portability-bench.mjs), `-- --sealing`
// only what opening sealed records costs a read after each new block (sealing-bench.ts, in Node),
// `-- --signatures` only the signed-blocks part (signature-bench.mjs), `-- --sync` only two devices through
// the real sync server (sync-bench.mjs), and `-- --smoke` the Node benches, the live sandbox and the sync bench at
// tiny sizes (CI).
// The TypeScript benches are loaded through Vite's module runner with js-sha256 aliased to its browser
// source: under Node the package resolves to a node:crypto wrapper, which is not what the browser runs.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createServer, createServerModuleRunner, runnerImport } from 'vite';
import { formatActTable, runActBench } from './act-bench.mjs';
import { formatBrowserTable, formatSandboxTable, runBrowserBench, runSandboxBench } from './browser-bench.mjs';
import { formatLighthouseTable, runLighthouseBench } from './lighthouse-bench.mjs';
import { formatScreensTable, runScreensBench } from './screens-bench.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
const only = process.argv.includes('--core')
  ? 'core'
  : process.argv.includes('--browser')
    ? 'browser'
    : process.argv.includes('--lighthouse')
      ? 'lighthouse'
      : process.argv.includes('--screens')
        ? 'screens'
        : process.argv.includes('--act')
          ? 'act'
          : 'both';
await mkdir(resultsDir, { recursive: true });
const benchJson = new URL('./results/bench.json', import.meta.url);

// The browser parts use the browser the tests use (tests/e2e/support/chromium.ts): found, or installed.
const { module: chromium } = await runnerImport('/tests/e2e/support/chromium.ts', { root, logLevel: 'error' });
if (only !== 'core') process.env.CHROMIUM_PATH = chromium.ensureChromium((line) => console.log(`[bench] ${line}`));

// The core bench with js-sha256 aliased to its browser source (see above).
async function loadCoreBench() {
  const { module } = await runnerImport('/tests/bench/core-bench.ts', {
    root,
    logLevel: 'error',
    resolve: {
      alias: [
        {
          find: /^js-sha256$/,
          replacement: fileURLToPath(new URL('../../node_modules/js-sha256/src/index.mjs', import.meta.url)),
        },
      ],
    },
  });
  return module;
}

function assertBrowserHashPath(report) {
  if (report.sha256Path !== 'pure-js')
    throw new Error('js-sha256 resolved to its node:crypto wrapper: the bench would not measure the browser path');
}

// The sealing bench through a runner kept open: the service imports modules on first use (the IPFS importer),
// which runnerImport's closed runner cannot.
async function loadSealingBench() {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    optimizeDeps: { noDiscovery: true, entries: [] }, // Node modules only: nothing of the app to scan
  });
  return createServerModuleRunner(server.environments.ssr, { hmr: false }).import('/tests/bench/sealing-bench.ts');
}

// `--smoke`: every Node bench, the browser part's live sandbox and the sync bench at sizes that take seconds, writing no results: `npm test` runs
// it after the build, so a bench that crashes fails CI. The figures mean nothing at these sizes.
if (process.argv.includes('--smoke')) {
  const step = async (name, run) => {
    const started = performance.now();
    await run();
    console.log(`[smoke] ${name}: ran to its end in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  await step('core', async () => {
    const core = await loadCoreBench();
    assertBrowserHashPath(await core.runCoreBench(() => {}, core.CORE_SMOKE));
  });
  await step('sealing', async () => {
    const sealing = await loadSealingBench();
    await sealing.runSealingBench([20], () => {});
  });
  // the browser part's live sandbox over the build `npm test` just made: the one browser bench that takes seconds
  await step('sandbox', async () => {
    await runSandboxBench({ skipAppBuild: true });
  });
  await step('sync', async () => {
    process.env.SYNC_UPLOADS ||= '2';
    process.env.SYNC_CATCH_UP ||= '20';
    process.env.SYNC_JUNK ||= '200';
    process.env.SYNC_BIG_FILE_MB ||= '1';
    const { runSyncBench } = await import('./sync-bench.mjs');
    await runSyncBench();
  });
  process.exit(0);
}

if (process.argv.includes('--trace')) {
  const { formatDashboardTrace, runDashboardTrace } = await import('./dashboard-trace.mjs');
  const option = (name, fallback) => {
    const index = process.argv.indexOf(name);
    return index > 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
  };
  console.log("Trace of a returning user's dashboard load at 4x CPU (the built app in Chromium)...");
  const run = await runDashboardTrace({
    executablePath: process.env.CHROMIUM_PATH,
    chromiumArgs: chromium.CHROMIUM_ARGS,
    role: option('--role', 'patient'),
    runs: Number(option('--runs', '3')),
  });
  console.log('\n' + formatDashboardTrace(run) + '\n');
  await writeFile(new URL('./results/dashboard-trace.json', import.meta.url), JSON.stringify(run) + '\n');
  console.log('Written: tests/bench/results/dashboard-trace.json');
  process.exit(0);
}

if (process.argv.includes('--portability')) {
  const { formatPortabilityTable, runPortabilityBench } = await import('./portability-bench.mjs');
  console.log('Portability benchmark: export, backup and restore of a big ledger (the built app in Chromium)...');
  const run = await runPortabilityBench();
  console.log('\n' + formatPortabilityTable(run) + '\n');
  await writeFile(new URL('./results/portability.json', import.meta.url), JSON.stringify(run, null, 2) + '\n');
  console.log('Written: tests/bench/results/portability.json');
  process.exit(0);
}

if (process.argv.includes('--sync')) {
  const { formatSyncTable, runSyncBench } = await import('./sync-bench.mjs');
  console.log('Sync benchmark: two devices through the real sync server (the built app in Chromium)...');
  const run = await runSyncBench();
  console.log('\n' + formatSyncTable(run) + '\n');
  await writeFile(new URL('./results/sync.json', import.meta.url), JSON.stringify(run, null, 2) + '\n');
  console.log('Written: tests/bench/results/sync.json');
  process.exit(0);
}

if (process.argv.includes('--signatures')) {
  const { formatSignatureTable, runSignatureBench } = await import('./signature-bench.mjs');
  console.log('Signed blocks benchmark (the built app in Chromium)...');
  const run = await runSignatureBench();
  console.log('\n' + formatSignatureTable(run) + '\n');
  const previous = await readFile(benchJson, 'utf8').then(JSON.parse, () => ({}));
  await writeFile(benchJson, JSON.stringify({ ...previous, signatures: run }, null, 2) + '\n');
  console.log('Written: tests/bench/results/bench.json');
  process.exit(0);
}

if (process.argv.includes('--sandbox')) {
  console.log('Live sandbox chain benchmark (the built app in Chromium)...');
  const run = await runSandboxBench();
  console.log('\n' + formatSandboxTable(run.sandbox) + '\n');
  const previous = await readFile(benchJson, 'utf8').then(JSON.parse, () => ({}));
  const browser = {
    ...(previous.browser ?? {}),
    sandbox: run.sandbox,
    sandboxRun: { when: run.when, cpus: run.cpus, loadAverage: run.loadAverage },
  };
  await writeFile(benchJson, JSON.stringify({ ...previous, browser }, null, 2) + '\n');
  console.log('Written: tests/bench/results/bench.json');
  process.exit(0);
}

if (process.argv.includes('--sealing')) {
  const sealing = await loadSealingBench();
  const sizes = (process.env.BENCH_SEALED_RECORDS || '1000,10000').split(',').map(Number);
  console.log('Opening sealed records: a patient ledger of sealed uploads through the real service (Node)...');
  const run = await sealing.runSealingBench(sizes, (line) => console.log(line));
  console.log('\n' + sealing.formatSealingTable(run) + '\n');
  await writeFile(new URL('./results/sealing.json', import.meta.url), JSON.stringify(run, null, 2) + '\n');
  console.log('Written: tests/bench/results/sealing.json');
  process.exit(0);
}

let report = null;
if (only === 'both' || only === 'core') {
  const core = await loadCoreBench();

  console.log('Ledger core benchmark (Node, pure-JS SHA-256 as in the browser)...');
  report = await core.runCoreBench((line) => console.log(line));
  assertBrowserHashPath(report);
  console.log('\n' + core.formatCoreTable(report) + '\n');
  await writeFile(new URL('./results/core.json', import.meta.url), JSON.stringify(report, null, 2) + '\n');
  console.log('Written: tests/bench/results/core.json');
}

let browser = null;
if (only === 'both' || only === 'browser') {
  console.log('\nBrowser benchmark (the built app in Chromium)...');
  browser = await runBrowserBench();
  const coreNodeRate = report?.rows.find((row) => row.name === 'node:crypto whole header per attempt')?.value;
  console.log('\n' + formatBrowserTable(browser, coreNodeRate) + '\n');
}

let lighthouse = null;
if (only === 'both' || only === 'lighthouse') {
  console.log('\nLighthouse on the built app (login page, patient dashboard)...');
  lighthouse = await runLighthouseBench({ executablePath: process.env.CHROMIUM_PATH, chromiumArgs: chromium.CHROMIUM_ARGS });
  console.log('\n' + formatLighthouseTable(lighthouse) + '\n');
}

let screens = null;
if (only === 'both' || only === 'screens') {
  console.log('\nFirst visits of every screen (the built app in Chromium)...');
  screens = await runScreensBench({ executablePath: process.env.CHROMIUM_PATH });
  console.log('\n' + formatScreensTable(screens) + '\n');
}

let act = null;
if (only === 'both' || only === 'act') {
  console.log('\nTime until a person can act, slow 4G and 4x CPU emulation (the built app in Chromium)...');
  act = await runActBench({ executablePath: process.env.CHROMIUM_PATH, chromiumArgs: chromium.CHROMIUM_ARGS });
  console.log('\n' + formatActTable(act) + '\n');
  await writeFile(new URL('./results/act.json', import.meta.url), JSON.stringify(act, null, 2) + '\n');
  console.log('Written: tests/bench/results/act.json');
}

// A run of one part keeps the other parts' figures from the last run (each says when it ran).
const previous = only === 'both' ? {} : await readFile(benchJson, 'utf8').then(JSON.parse, () => ({}));
await writeFile(
  benchJson,
  JSON.stringify(
    {
      core: report ?? previous.core ?? null,
      browser: browser ?? previous.browser ?? null,
      lighthouse: lighthouse ?? previous.lighthouse ?? null,
      screens: screens ?? previous.screens ?? null,
      act: act ?? previous.act ?? null,
    },
    null,
    2,
  ) + '\n',
);
console.log('Written: tests/bench/results/bench.json');
