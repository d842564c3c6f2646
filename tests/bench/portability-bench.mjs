// `npm run bench -- --portability`: the built app in Chromium exports (FHIR, with and without files), backs up,
// cancels a backup and restores a ledger of BENCH_PORTABILITY_RECORDS records holding BENCH_PORTABILITY_MB of
// files (1,000 and 200 by default), seeded into the app's IndexedDB by a bench-only worker through the real
// ledger service. Each step: wall time from the click to the download (or the screen's answer), the browser's
// peak memory (proportional set size of all its processes, sampled every 100 ms) and the page's longest main-thread
// task, by thread CPU time from a Chromium trace and by wall time (PerformanceObserver 'longtask', which reports
// only tasks of 50 ms or more and counts the time other programs held the CPU: this machine is shared).
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_ARGS, benchChromium, previewApp, traceMainThread } from './browser-bench.mjs';

const root = resolve(import.meta.dirname, '../..');
const appDir = join(root, 'tests/bench/results/portability-app'); // git-ignored, never part of dist/
const seedDir = join(root, 'tests/bench/results/portability-seed');
const PASSWORD = 'bench backup password';
const STEP_TIMEOUT_MS = 900_000;

function option(name, fallback) {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
}

function installLongTaskRecorder() {
  const long = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) long.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  window.__portabilityBench = {
    mark: () => long.splice(0),
    longest: () => ({ longestTaskMs: Math.max(0, ...long), longTasks: long.length }),
  };
}

// Memory (MB) of the browser process and every process below it, as proportional set size: a page shared by
// several processes counts once in all, not once per process as resident memory would.
function treePssMb(rootPid) {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const children = new Map();
  for (const [pid, ppid] of rows) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let totalKb = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop();
    try {
      totalKb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended between ps and the read
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return totalKb / 1024;
}

// The page's own selectors, not role queries: those walk the accessibility tree of 1,000 records in the page's
// main thread, and their long tasks would be counted as the app's.
function action(page, label) {
  return page.locator('.portability-actions button', { hasText: label });
}

async function measured(page, pid, label, run) {
  await page.evaluate(() => window.__portabilityBench.mark());
  const cdp = await page.context().newCDPSession(page);
  const baselineMb = treePssMb(pid);
  let peakMb = baselineMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, treePssMb(pid))), 100);
  const began = performance.now();
  let detail;
  let elapsedMs = 0;
  let traced;
  try {
    traced = await traceMainThread(cdp, new URL(page.url()).origin, async () => {
      detail = await run();
      elapsedMs = performance.now() - began;
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
    });
  } finally {
    clearInterval(sampler);
    await cdp.detach();
  }
  const tasks = await page.evaluate(() => window.__portabilityBench.longest());
  const row = { step: label, elapsedMs, baselineMb, peakMb, ...tasks, longestTaskCpuMs: traced.longestTaskCpuMs, ...detail };
  console.log(
    `[bench] ${label}: ${(elapsedMs / 1000).toFixed(1)} s, peak ${peakMb.toFixed(0)} MB (from ${baselineMb.toFixed(0)} MB), ` +
      `longest main-thread task ${traced.longestTaskCpuMs.toFixed(0)} ms of CPU, ${tasks.longTasks > 0 ? `${tasks.longestTaskMs.toFixed(0)} ms` : 'under 50 ms'} of wall time`,
  );
  return row;
}

// Timed until the browser starts the download; the file is copied out of the browser after the clock stops.
async function downloadOf(page, start) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: STEP_TIMEOUT_MS }), start()]);
  return { download };
}

async function saved(row) {
  const { download, ...rest } = row;
  const path = join(tmpdir(), `medledger-bench-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  return { ...rest, path, fileName: download.suggestedFilename(), fileMb: statSync(path).size / (1024 * 1024) };
}

async function seed(context, baseUrl, records, bytesPerRecord) {
  await context.route(`${baseUrl}/__seed/**`, (route) => {
    const name = new URL(route.request().url()).pathname.replace('/__seed/', '');
    if (name === 'index.html') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>seed</title>' });
    return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(seedDir, name)) });
  });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/__seed/index.html`);
  const result = await page.evaluate(
    (command) =>
      new Promise((done, fail) => {
        const worker = new Worker('/__seed/portability-seed-worker.js', { type: 'module' });
        worker.onmessage = (event) => (event.data.error ? fail(new Error(event.data.error)) : done(event.data.result));
        worker.onerror = (event) => fail(new Error(`seed worker failed: ${event.message}`));
        worker.postMessage(command);
      }),
    { records, bytesPerRecord },
  );
  await page.close();
  return result;
}

async function openRecords(context, baseUrl) {
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.addInitScript(installLongTaskRecorder);
  await page.goto(`${baseUrl}/`);
  await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/patient/dashboard');
  await page.goto(`${baseUrl}/patient/records`);
  await page.getByRole('button', { name: 'Export (FHIR)' }).waitFor();
  return page;
}

export async function runPortabilityBench() {
  const executablePath = benchChromium();
  const records = option('BENCH_PORTABILITY_RECORDS', 1000);
  const megabytes = option('BENCH_PORTABILITY_MB', 200);
  const bytesPerRecord = Math.floor((megabytes * 1024 * 1024) / records);
  process.env.NODE_ENV = 'production';
  console.log('[bench] building the app and the seed worker…');
  await build({ root, mode: 'production', logLevel: 'warn', build: { outDir: appDir, emptyOutDir: true } });
  await build({
    root,
    mode: 'production',
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: seedDir,
      emptyOutDir: true,
      target: 'es2022',
      lib: {
        entry: join(root, 'tests/bench/portability-seed-worker.ts'),
        formats: ['es'],
        fileName: () => 'portability-seed-worker.js',
      },
    },
  });
  const { server, baseUrl } = await previewApp(appDir);
  // a browser server, so the bench knows the browser's process and can add up the memory of its process tree
  const browserServer = await chromium.launchServer({ executablePath, headless: true, args: CHROMIUM_ARGS });
  const pid = browserServer.process().pid;
  const browser = await chromium.connect(browserServer.wsEndpoint());
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    console.log(`[bench] seeding ${records} records, ${megabytes} MB of files…`);
    const seeded = await seed(context, baseUrl, records, bytesPerRecord);
    console.log(`[bench] seeded in ${(seeded.seedMs / 1000).toFixed(1)} s`);
    const page = await openRecords(context, baseUrl);
    const rows = [];
    rows.push(
      await saved(
        await measured(page, pid, 'Export (FHIR) with files', () =>
          downloadOf(page, () => action(page, 'Export (FHIR)').click()),
        ),
      ),
    );
    await page.locator('#export-without-files').check();
    rows.push(
      await saved(
        await measured(page, pid, 'Export (FHIR) without files', () =>
          downloadOf(page, () => action(page, 'Export (FHIR)').click()),
        ),
      ),
    );
    const backupRow = await saved(
      await measured(page, pid, 'Download backup', () =>
        downloadOf(page, async () => {
          await action(page, 'Download backup').click();
          await page.locator('#backup-password').fill(PASSWORD);
          await page.locator('#backup-password-repeat').fill(PASSWORD);
          await page.locator('.modal-footer button', { hasText: 'Download backup' }).click();
        }),
      ),
    );
    rows.push(backupRow);
    rows.push(
      await measured(page, pid, 'Cancel a backup (from Cancel to the notice)', async () => {
        await action(page, 'Download backup').click();
        await page.locator('#backup-password').fill(PASSWORD);
        await page.locator('#backup-password-repeat').fill(PASSWORD);
        await page.locator('.modal-footer button', { hasText: 'Download backup' }).click();
        const notice = page.locator('.alert', { hasText: /^(The backup was cancelled\.|Saved )/ });
        // the first progress (PBKDF2 is done, files are being written); a small ledger may be written before it shows
        await Promise.race([page.locator('.transfer-progress', { hasText: /of \d+ files/ }).waitFor(), notice.waitFor()]);
        const cancelledAt = performance.now();
        await page
          .locator('.transfer-progress button', { hasText: 'Cancel' })
          .click({ timeout: 5_000 })
          .catch(() => undefined);
        await notice.waitFor();
        if (!(await notice.innerText()).startsWith('The backup was cancelled.')) return { cancelToNoticeMs: null }; // written before the click landed: nothing left to cancel
        return { cancelToNoticeMs: performance.now() - cancelledAt };
      }),
    );
    await page.close();
    await context.close();

    const fresh = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
    const other = await openRecords(fresh, baseUrl);
    // the file is handed to the page before the clock starts: from a connected browser it crosses a socket first
    await action(other, 'Restore backup').click();
    await other.locator('#restore-file').setInputFiles(backupRow.path);
    await other.locator('#restore-password').fill(PASSWORD);
    rows.push(
      await measured(other, pid, 'Restore backup: check (password, chain, every CID)', async () => {
        await other.locator('.modal-footer button', { hasText: 'Check backup' }).click();
        await other.locator('.modal-footer button', { hasText: 'Replace and restore' }).waitFor();
      }),
    );
    rows.push(
      await measured(other, pid, 'Restore backup: replace', async () => {
        await other.locator('.modal-footer button', { hasText: 'Replace and restore' }).click();
        await other.locator('.alert', { hasText: 'The backup was restored' }).waitFor();
      }),
    );
    await fresh.close();
    return {
      when: new Date().toISOString(),
      cpus: cpus().length,
      loadAverage: loadavg(),
      records,
      megabytes,
      seedMs: seeded.seedMs,
      rows: rows.map(({ path: _path, ...row }) => row),
    };
  } finally {
    await browser.close();
    await browserServer.close();
    await server.close();
  }
}

export function formatPortabilityTable(run) {
  const lines = [
    `Portability: ${run.records} records, ${run.megabytes} MB of files (${run.cpus} CPUs, load ${run.loadAverage.map((v) => v.toFixed(2)).join(' ')})`,
    '',
    '| step | time | file | browser memory, peak (before) | longest main-thread task: CPU | and wall time |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of run.rows) {
    const file =
      row.fileMb !== undefined
        ? `${row.fileMb.toFixed(1)} MB`
        : row.cancelToNoticeMs !== undefined
          ? row.cancelToNoticeMs === null
            ? 'written before the cancel'
            : `cancel took ${row.cancelToNoticeMs.toFixed(0)} ms`
          : '';
    const task = row.longTasks > 0 ? `${row.longestTaskMs.toFixed(0)} ms (${row.longTasks} over 50 ms)` : 'under 50 ms';
    lines.push(
      `| ${row.step} | ${(row.elapsedMs / 1000).toFixed(1)} s | ${file} | ${row.peakMb.toFixed(0)} MB (${row.baselineMb.toFixed(0)} MB) | ${row.longestTaskCpuMs.toFixed(0)} ms | ${task} |`,
    );
  }
  return lines.join('\n');
}
