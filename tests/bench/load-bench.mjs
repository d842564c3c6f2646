// `npm run bench:load`: 1,000 uploads through the built app's worker, then the dashboards, the records list
// and the explorer (tests/e2e/support/load.ts, the same scenario as the 100-upload browser test). Prints a
// table and writes tests/bench/results/load.json. LOAD_UPLOADS and LOAD_CONCURRENCY change the size.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, runnerImport } from 'vite';
import { previewApp } from './browser-bench.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = fileURLToPath(new URL('./results/load-build', import.meta.url)); // the bench's own build: dist/ is left alone
const uploads = Number(process.env.LOAD_UPLOADS || 1000);
const concurrency = Number(process.env.LOAD_CONCURRENCY || 50);
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

console.log('Building the app for the load benchmark...');
await build({ root, mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
const { server, baseUrl } = await previewApp(outDir);

const { module: load } = await runnerImport('/tests/e2e/support/load.ts', { root, logLevel: 'error' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  headless: true,
  args: CHROMIUM_ARGS,
});
let report;
try {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  console.log(`Uploading ${uploads} records, ${concurrency} at a time (each waits the simulated 1 s)...`);
  const started = Date.now();
  report = await load.runLoadScenario(page, browser, { uploads, concurrency, formUploads: 3 });
  report.totalMs = Date.now() - started;
  report.pageErrors = errors;
  report.machine = { cpus: cpus().length, load1: loadavg()[0] };
  await context.close();
} finally {
  await browser.close();
  await server.close();
}

const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`;
const counts = report.shownRecords;
const ok = (good) => (good ? 'ok' : 'FAIL');
const rows = [
  ['Uploads through the worker', `${report.uploads} (${report.concurrency} in flight) + 3 through the form`, ''],
  ['Bulk upload time', ms(report.bulkMs), `${report.uploadsPerSecond.toFixed(1)} uploads/s`],
  ['One upload, p50 / p95', `${ms(report.uploadMsP50)} / ${ms(report.uploadMsP95)}`, 'includes the simulated 1 s'],
  ['Dashboard catches up after the last', ms(report.catchUpMs), ''],
  ['Records screen, first page listed and all counted', ms(report.recordsScreenMs), ''],
  ['Explorer, chain verified and shown', ms(report.explorerMs), ''],
  ['Doctor dashboard after sign-in', ms(report.doctorDashboardMs), ''],
  [
    'Stored blocks / documents',
    `${report.storedBlocks} / ${report.storedDocuments}`,
    ok(report.storedBlocks === report.expectedRecords && report.storedDocuments === report.expectedRecords - 1),
  ],
  [
    'Shown: dashboard / records / doctor today / explorer',
    `${counts.dashboard} / ${counts.recordsScreen} / ${counts.doctorToday} / ${counts.explorerBlocks}`,
    ok(Object.values(counts).every((count) => count === report.expectedRecords)),
  ],
  [
    'Chain (dashboard / explorer)',
    `${report.chainShown.dashboard} / ${report.chainShown.explorer.split('.')[0]}`,
    ok(report.chainShown.dashboard === 'Valid'),
  ],
  ['Orphan documents or bytes', String(report.orphans.length), ok(report.orphans.length === 0)],
  ['Main-thread long tasks (> 50 ms)', String(report.longTasks), ''],
  [
    'Longest main-thread task (wall / CPU)',
    `${ms(report.longestTaskMs)} / ${ms(report.longestTaskCpuMs)}`,
    ok(report.longestTaskCpuMs <= 100 && report.longestTaskMs <= 300),
  ],
  ...Object.keys(report.longestTaskMsByPhase).map((phase) => [
    `  during ${phase}`,
    `${ms(report.longestTaskMsByPhase[phase])} / ${ms(report.longestTaskCpuMsByPhase[phase])}`,
    '',
  ]),
  ['Longest gap between frames', ms(report.maxFrameGapMs), ''],
  [
    'JS heap: page / ledger worker',
    `${report.mainHeapMb.toFixed(1)} MB / ${report.workerHeapMb === null ? 'n/a' : `${report.workerHeapMb.toFixed(1)} MB`}`,
    '',
  ],
  ['Whole scenario', ms(report.totalMs), `${report.machine.cpus} CPUs, load ${report.machine.load1.toFixed(1)}`],
  ['Page errors', String(report.pageErrors.length), ok(report.pageErrors.length === 0)],
];
const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column].length)));
console.log(`\nLoad benchmark: ${uploads} uploads\n`);
for (const row of rows)
  console.log(
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
await writeFile(new URL('./results/load.json', import.meta.url), JSON.stringify(report, null, 2) + '\n');
console.log('\nWritten: tests/bench/results/load.json');
