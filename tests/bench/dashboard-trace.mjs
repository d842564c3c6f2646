// `npm run bench -- --trace [--role doctor] [--runs 5]`: what a returning user's dashboard load does on the main
// thread, traced in Chromium at 4x CPU (real throttling, not Lighthouse's simulation): every task over 20 ms with
// what it spent its time on, the blocking time after the first paint (Lighthouse's TBT, counted on this trace) and
// the page's requests before the first screen with data (`medledger:first-screen`, src/start/mount-app.tsx).
// Lighthouse names a long task's script at best; this says whether it is style, layout, a chunk's evaluation or React.
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { previewApp } from './browser-bench.mjs';

const root = resolve(import.meta.dirname, '../..');
const outDir = join(root, 'tests/bench/results/trace-build'); // git-ignored, like Lighthouse's build
const FIRST_SCREEN_MARK = 'medledger:first-screen';
const CPU_SLOWDOWN = 4;
const SHOWN_TASK_MS = 20;
// the trace events whose time a task's line adds up (the rest are their parents or too small to name)
const NAMED = new Set([
  'MajorGC',
  'MinorGC',
  'v8.compile',
  'v8.compileModule',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
]);
const NAMED_BY_SCRIPT = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'FireIdleCallback',
]);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const file = (url) => String(url ?? '').replace(/.*\//, '');

async function signIn(page, baseUrl, role) {
  await page.goto(baseUrl);
  if (role === 'doctor') {
    const radio = page.getByRole('radio', { name: 'Doctor' });
    await page.locator(`label[for="${await radio.getAttribute('id')}"]`).click(); // a visually hidden btn-check
  }
  await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`**/${role}/dashboard`, { timeout: 120_000 });
}

// Polled over CDP, not with page.waitForFunction: Playwright's injected script would be a task of the trace.
async function waitForMark(cdp) {
  const expression = `performance.getEntriesByName('${FIRST_SCREEN_MARK}').length`;
  for (let waited = 0; waited < 60_000; waited += 100) {
    const { result } = await cdp.send('Runtime.evaluate', { expression });
    if (result.value > 0) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('the dashboard never showed its first screen');
}

// One stored-session load of the dashboard, cold (no HTTP cache, no service worker), traced.
async function traceOnce(browser, baseUrl, role) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signIn(page, baseUrl, role);
    await page.evaluate(async () => {
      for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
      for (const name of await caches.keys()) await caches.delete(name);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,loading',
      transferMode: 'ReportEvents',
    });
    await page.goto(`${baseUrl}/${role}/dashboard`);
    await waitForMark(cdp);
    await new Promise((done) => setTimeout(done, 4000)); // what follows the first screen counts too, as in TBT
    const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
    await cdp.send('Tracing.end');
    await complete;
    const timing = await page.evaluate((name) => {
      const mark = performance.getEntriesByName(name)[0].startTime;
      return {
        mark,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
        requests: performance
          .getEntriesByType('resource')
          .filter((entry) => entry.startTime <= mark)
          .map((entry) => [entry.name, entry.transferSize]),
      };
    }, FIRST_SCREEN_MARK);
    const traced = mainThreadTasks(events);
    return { ...timing, tasks: traced.tasks, fcp: traced.fcp ?? timing.fcp, mark: traced.mark ?? timing.mark };
  } finally {
    await context.close();
  }
}

// The page's main thread: its top-level tasks from the dashboard's navigation on, times in ms from it.
function mainThreadTasks(events) {
  const parsing = events.find((event) => event.name === 'ParseHTML');
  const onMain = events.filter((event) => event.pid === parsing.pid && event.tid === parsing.tid && event.ph === 'X');
  // the first paint and the mark, on the trace's clock: the tasks' times are measured from the same origin
  const fcp = events.find((event) => event.name === 'firstContentfulPaint' && event.pid === parsing.pid);
  const frame = fcp?.args?.frame;
  const navigation = events.find(
    (event) => event.name === 'navigationStart' && event.pid === parsing.pid && (!frame || event.args?.frame === frame),
  );
  const start = navigation?.ts ?? parsing.ts;
  const mark = events.find((event) => event.name === FIRST_SCREEN_MARK && event.pid === parsing.pid);
  const at = (event) => (event ? (event.ts - start) / 1000 : undefined);
  return { fcp: at(fcp), mark: at(mark), tasks: tasksFrom(onMain, start) };
}

function tasksFrom(onMain, start) {
  return onMain
    .filter((event) => event.name === 'RunTask' && event.ts >= start)
    .map((task) => {
      const spent = {};
      for (const event of onMain) {
        if (event === task || event.ts < task.ts || event.ts + event.dur > task.ts + task.dur) continue;
        const key = NAMED.has(event.name)
          ? event.name
          : NAMED_BY_SCRIPT.has(event.name)
            ? `${event.name} ${file(event.args?.data?.url ?? event.args?.data?.type)}`.trim()
            : null;
        if (key) spent[key] = (spent[key] ?? 0) + event.dur / 1000;
      }
      return { at: (task.ts - start) / 1000, ms: task.dur / 1000, spent };
    });
}

export async function runDashboardTrace({ executablePath, chromiumArgs, role = 'patient', runs = 3 }) {
  process.env.NODE_ENV = 'production';
  console.log('[bench] building the app for the trace (vite build)…');
  await build({ root, mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const { server, baseUrl } = await previewApp(outDir);
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  try {
    const results = [];
    for (let run = 1; run <= runs; run += 1) {
      console.log(`[bench] trace: ${role} dashboard (stored session), run ${run} of ${runs}`);
      results.push(await traceOnce(browser, baseUrl, role));
    }
    return { role, runs: results, cpus: cpus().length, loadAverage: loadavg() };
  } finally {
    await browser.close();
    await server.close();
  }
}

// Blocking time as Lighthouse counts it (each task's time over 50 ms, from the first paint on), on this trace.
const blockingAfter = (run) =>
  run.tasks.filter((task) => task.at + task.ms > run.fcp).reduce((sum, task) => sum + Math.max(0, task.ms - 50), 0);

export function formatDashboardTrace({ role, runs, cpus: cores, loadAverage }) {
  const typical = runs.find((run) => blockingAfter(run) === median(runs.map(blockingAfter))) ?? runs[0];
  const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;
  const lines = [
    `${role} dashboard, stored session, cold cache, ${CPU_SLOWDOWN}x CPU, ${runs.length} runs, ${cores} CPUs, ` +
      `load ${loadAverage.map((value) => value.toFixed(2)).join(', ')} at the end`,
    '',
    '| run | first paint | first screen with data | blocking time after the first paint | longest task | page requests before data |',
    '|---:|---:|---:|---:|---:|---:|',
    ...runs.map((run, index) => {
      const bytes = run.requests.reduce((sum, [, size]) => sum + size, 0);
      const longest = Math.max(...run.tasks.map((task) => task.ms));
      return `| ${index + 1} | ${Math.round(run.fcp)} ms | ${Math.round(run.mark)} ms | ${Math.round(blockingAfter(run))} ms | ${Math.round(longest)} ms | ${run.requests.length}, ${kib(bytes)} |`;
    }),
    '',
    `Tasks over ${SHOWN_TASK_MS} ms in the median run (ms from the navigation; F = first paint, D = first screen with data):`,
    '',
  ];
  for (const task of typical.tasks.filter((task) => task.ms >= SHOWN_TASK_MS)) {
    const when = task.at < typical.fcp ? ' ' : task.at < typical.mark ? 'F' : 'D';
    const spent = Object.entries(task.spent)
      .filter(([, ms]) => ms >= 1)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
      .join(', ');
    lines.push(`${when} ${task.at.toFixed(0).padStart(5)} ms  ${task.ms.toFixed(0).padStart(4)} ms  ${spent}`);
  }
  lines.push('', 'Requests before data (median run; the worker script and its chunks are listed too):');
  lines.push(typical.requests.map(([url, size]) => `${file(url)} ${kib(size)}`).join(', '));
  return lines.join('\n');
}
