// The load scenario of issue 5, shared by the browser test (tests/e2e/load.test.ts, 100 uploads) and the
// benchmark (tests/bench/load-bench.mjs, 1,000 uploads). A few uploads go through the real form; the bulk
// goes through a second copy of the built app's own worker script, started from the page with
// `new Worker(url)` and spoken to in comlink's wire format: the page exposes nothing new and nothing is
// added to dist/. The app's worker hears of every upload on its BroadcastChannel, as from another tab.
import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD, RECORDS_PAGE_SIZE } from '../../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../../workers/core/directory';
import { detail, section, stat, text } from './read';
import { orphans, readStoredLedger } from './stored-ledger';

export interface LoadOptions {
  uploads: number; // through the worker script
  concurrency: number; // uploads in flight at once (each waits the simulated 1 s first)
  formUploads: number; // through the upload form first
}

export interface LoadReport {
  uploads: number;
  concurrency: number;
  bulkMs: number; // first bulk upload sent to the last one stored
  uploadsPerSecond: number;
  uploadMsP50: number; // one upload, request to answer, simulated 1 s delay included
  uploadMsP95: number;
  catchUpMs: number; // last upload stored to the dashboard showing it
  recordsScreenMs: number; // menu click to the first page listed and every record counted
  explorerMs: number; // menu click to the chain verified and shown
  doctorDashboardMs: number; // sign-in click to the doctor dashboard's figures
  longTasks: number; // main-thread tasks over 50 ms, from the first bulk upload to the end
  longestTaskMs: number;
  longestTaskMsByPhase: Record<Phase, number>;
  longestTaskCpuMs: number; // the same tasks by the main thread's own CPU time (trace), free of other processes' load
  longestTaskCpuMsByPhase: Record<Phase, number>;
  maxFrameGapMs: number;
  storedBlocks: number;
  storedDocuments: number;
  expectedRecords: number; // the patient's records: genesis + form uploads + bulk uploads
  shownRecords: { dashboard: number; recordsScreen: number; doctorToday: number; explorerBlocks: number };
  recordsPages: { pages: number; rows: number }; // Medical Records' pages turned, and the records they listed in all
  chainShown: { dashboard: string; explorer: string };
  orphans: string[];
  mainHeapMb: number; // used JS heap of the page (performance.memory)
  workerHeapMb: number | null; // used JS heap of the app's ledger worker (DevTools protocol)
}

// Long tasks (PerformanceObserver 'longtask') and the longest gap between animation frames, from start().
async function installRecorder(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = { on: false, long: [] as { start: number; duration: number }[], maxGap: 0, last: performance.now() };
    const tick = (now: number) => {
      if (state.on) state.maxGap = Math.max(state.maxGap, now - state.last);
      state.last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const observer = new PerformanceObserver((list) => {
      if (state.on) for (const entry of list.getEntries()) state.long.push({ start: entry.startTime, duration: entry.duration });
    });
    observer.observe({ type: 'longtask' });
    (window as unknown as { loadRecorder: unknown }).loadRecorder = {
      start() {
        state.on = true;
        state.last = performance.now();
      },
      async stop() {
        await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
        for (const entry of observer.takeRecords()) state.long.push({ start: entry.startTime, duration: entry.duration });
        state.on = false;
        return { long: state.long, maxGap: state.maxGap };
      },
    };
  });
}

type LongTask = { start: number; duration: number };
type Recorder = { start(): void; stop(): Promise<{ long: LongTask[]; maxGap: number }> };

const PHASES = ['bulk uploads', 'records screen', 'explorer', 'doctor dashboard'] as const;
type Phase = (typeof PHASES)[number];

async function signIn(page: Page, role: 'patient' | 'doctor'): Promise<number> {
  const radio = page.getByRole('radio', { name: role === 'patient' ? 'Patient' : 'Doctor' });
  await page.locator(`label[for="${await radio.getAttribute('id')}"]`).click();
  await page.getByLabel('Email').fill(DEMO_ACCOUNTS[role]);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  const clicked = Date.now();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`**/${role}/dashboard`);
  return clicked;
}

async function menu(page: Page, name: string): Promise<number> {
  const clicked = Date.now();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true }).click();
  return clicked;
}

// Uploads `count` one-file records through a fresh instance of the app's worker script; resolves when all are stored.
async function bulkUpload(page: Page, workerUrl: string, count: number, concurrency: number) {
  return page.evaluate(
    async ({ workerUrl, email, password, count, concurrency }) => {
      const worker = new Worker(workerUrl, { type: 'module' });
      const waiting = new Map<string, (data: { type: string; name?: string; value: unknown }) => void>();
      worker.addEventListener('message', (event) => {
        const resolve = waiting.get(event.data?.id);
        waiting.delete(event.data?.id);
        resolve?.(event.data);
      });
      let ids = 0;
      // comlink 4 on the wire: APPLY of the exported `ledger` object's method, arguments as RAW values
      const call = (method: string, args: unknown[], transfer: Transferable[] = []) =>
        new Promise<unknown>((resolve, reject) => {
          const id = `load-${ids++}`;
          waiting.set(id, (data) => {
            if (data.type === 'HANDLER' && data.name === 'throw') {
              const thrown = (data.value as { value: { name: string; message: string } }).value;
              reject(new Error(`${thrown.name}: ${thrown.message}`));
            } else resolve(data.value);
          });
          worker.postMessage(
            { id, type: 'APPLY', path: ['ledger', method], argumentList: args.map((value) => ({ type: 'RAW', value })) },
            transfer,
          );
        });
      await call('signIn', [email, password, 'patient']);
      const times: number[] = [];
      let next = 0;
      const started = performance.now();
      const lane = async () => {
        while (next < count) {
          const n = next++;
          const bytes = crypto.getRandomValues(new Uint8Array(256 + (n % 16) * 64));
          const request = {
            title: `Load record ${n + 1}`,
            description: `Bulk upload ${n + 1} of ${count}`,
            type: n % 2 === 0 ? 'prescription' : 'test_report',
            files: [{ name: `load-${n + 1}.pdf`, type: 'application/pdf', bytes: bytes.buffer }],
          };
          const sent = performance.now();
          await call('upload', [request], [bytes.buffer]);
          times.push(performance.now() - sent);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, lane));
      const ms = performance.now() - started;
      worker.terminate();
      times.sort((a, b) => a - b);
      return { ms, p50: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)] };
    },
    { workerUrl, email: DEMO_ACCOUNTS.patient, password: DEMO_PASSWORD, count, concurrency },
  );
}

// Used JS heap of the app's ledger worker, through a browser-level DevTools session attached to it.
async function workerHeapMb(browser: Browser): Promise<number | null> {
  try {
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = (await session.send('Target.getTargets')) as {
      targetInfos: { targetId: string; type: string; url: string }[];
    };
    const target = targetInfos.find((info) => info.type === 'worker' && /ledger\.worker/.test(info.url));
    if (!target) return null;
    const { sessionId } = (await session.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as {
      sessionId: string;
    };
    const answer = new Promise<number>((resolve) => {
      session.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
        const message = JSON.parse(event.message) as { id: number; result?: { usedSize: number } };
        if (message.id === 1 && message.result) resolve(message.result.usedSize);
      });
    });
    await session.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' }),
    });
    const used = await Promise.race([
      answer,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error('no answer')), 5000)),
    ]);
    await session.detach();
    return used / 2 ** 20;
  } catch {
    return null; // not every Chromium lets a second client attach to a worker: the report says so
  }
}

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number; // µs
  dur?: number;
  tdur?: number; // thread (CPU) time, µs
  args?: { name?: string };
}

// Every task the page's main thread ran while tracing, with its wall time and its own CPU time.
function mainThreadTasks(events: TraceEvent[]): { ts: number; wallMs: number; cpuMs: number }[] {
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return events
    .filter((e) => e.ph === 'X' && /RunTask/.test(e.name) && main.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ ts: e.ts, wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? e.dur ?? 0) / 1000 }));
}

export async function runLoadScenario(page: Page, browser: Browser, options: LoadOptions): Promise<LoadReport> {
  const { uploads, concurrency, formUploads } = options;
  await page.goto('/');
  await signIn(page, 'patient');
  const workerUrl = page
    .workers()
    .find((worker) => /ledger\.worker/.test(worker.url()))
    ?.url();
  if (!workerUrl) throw new Error('the app did not start its ledger worker');

  for (let i = 1; i <= formUploads; i++) {
    await menu(page, 'Upload Documents');
    await page
      .getByLabel('Add files')
      .setInputFiles({ name: `form-${i}.pdf`, mimeType: 'application/pdf', buffer: Buffer.alloc(2048, i) });
    await page.getByLabel('Title').fill(`Form upload ${i}`);
    await page.getByRole('button', { name: 'Upload Documents' }).click();
    await page.getByRole('status').filter({ hasText: 'Upload successful' }).waitFor();
  }
  await menu(page, 'Dashboard');
  const expectedRecords = 1 + formUploads + uploads;
  await installRecorder(page);
  const recorder = () => page.evaluate(() => (window as unknown as { loadRecorder: Recorder }).loadRecorder.start());
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  await recorder();
  // marks on the page's clock for the long-task observer, and as user-timing marks on the trace's clock
  const now = (phase: Phase) => page.evaluate((name) => performance.mark(`load:${name}`).startTime, phase);
  const phaseStarts: number[] = [await now('bulk uploads')];

  // the dashboard stays open and follows every change the app's worker hears of
  const bulk = await bulkUpload(page, workerUrl, uploads, concurrency);
  const stored = Date.now();
  await stat(page, 'Total Records')
    .filter({ hasText: new RegExp(`^${expectedRecords}$`) })
    .waitFor({ timeout: 120_000 });
  const catchUpMs = Date.now() - stored;
  const status = section(page, 'Blockchain Status');
  // the chain status loads apart from the records: read it once it counts every block (one per record)
  await detail(status, 'Total Blocks')
    .filter({ hasText: new RegExp(`^${expectedRecords}$`) })
    .waitFor({ timeout: 60_000 });
  const dashboard = {
    records: Number(await text(stat(page, 'Total Records'))),
    chain: await text(detail(status, 'Chain Status')),
  };

  phaseStarts.push(await now('records screen'));
  let clicked = await menu(page, 'Medical Records');
  await page
    .locator('.records-count')
    .filter({ hasText: `${expectedRecords} records` })
    .waitFor({ timeout: 60_000 });
  // the first page, on the page in full, not only counted
  const firstPage = Math.min(expectedRecords, RECORDS_PAGE_SIZE);
  await page.waitForFunction((count) => document.querySelectorAll('.record-detail').length === count, firstPage, {
    timeout: 60_000,
  });
  const recordsScreenMs = Date.now() - clicked;
  // then every page in turn by Next, until the screen says it is the last: each record listed, once
  const pages = page.getByRole('navigation', { name: 'Records pages' });
  const listed = new Set<string>();
  let recordsRows = 0;
  let recordsPages = 0;
  for (;;) {
    recordsPages++;
    if (recordsPages > 1) {
      await pages.getByRole('button', { name: 'Next', exact: true }).click();
      await pages.locator(`[aria-current="page"][aria-label="Page ${recordsPages}"]`).waitFor({ timeout: 60_000 });
    }
    const ids = await page.locator('li.record-detail').evaluateAll((items) => items.map((item) => item.id));
    recordsRows += ids.length;
    for (const id of ids) listed.add(id);
    const atEnd =
      (await pages.count()) === 0 ||
      (await pages.getByRole('button', { name: 'Next', exact: true }).getAttribute('aria-disabled')) === 'true';
    if (atEnd) break;
  }
  const recordsScreen = listed.size;

  phaseStarts.push(await now('explorer'));
  clicked = await menu(page, 'Blockchain Explorer');
  const chain = page.locator('#explorer-tabs-tabpane-chain');
  await chain.locator('[data-chain-valid]').waitFor({ timeout: 60_000 });
  await chain.locator('tr[data-block-index]').first().waitFor();
  const explorerMs = Date.now() - clicked;
  const explorer = await text(chain.locator('[data-chain-valid]'));
  const explorerBlocks = Number(/All ([\d,]+) blocks? verified/.exec(explorer)?.[1]?.replace(/,/g, '') ?? NaN);
  // scroll the virtualized table to the genesis block, as a reader of the whole chain would
  await chain.locator('.explorer-viewport').evaluate((viewport) => viewport.scrollTo(0, viewport.scrollHeight));
  await chain.locator('tr[data-block-index="0"]').waitFor();

  phaseStarts.push(await now('doctor dashboard'));
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  clicked = await signIn(page, 'doctor');
  await stat(page, 'Records Today').waitFor();
  await section(page, 'Recent Patient Activity').getByRole('listitem').first().waitFor();
  const doctorDashboardMs = Date.now() - clicked;
  const doctorToday = Number(await text(stat(page, 'Records Today')));

  const { long, maxGap } = await page.evaluate(() => (window as unknown as { loadRecorder: Recorder }).loadRecorder.stop());
  const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const marks = PHASES.map((phase) => events.find((e) => e.name === `load:${phase}`)?.ts ?? Infinity);
  const tasks = mainThreadTasks(events);
  const inPhase = (ts: number, i: number) => ts >= marks[i] && (i + 1 >= marks.length || ts < marks[i + 1]);
  const ledger = await readStoredLedger(page);
  const mainHeapMb = await page.evaluate(
    () => ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 2 ** 20,
  );
  return {
    uploads,
    concurrency,
    bulkMs: bulk.ms,
    uploadsPerSecond: (uploads / bulk.ms) * 1000,
    uploadMsP50: bulk.p50,
    uploadMsP95: bulk.p95,
    catchUpMs,
    recordsScreenMs,
    explorerMs,
    doctorDashboardMs,
    longTasks: long.length,
    longestTaskMs: Math.max(0, ...long.map((task) => task.duration)),
    longestTaskMsByPhase: Object.fromEntries(
      PHASES.map((phase, i) => [
        phase,
        Math.max(
          0,
          ...long
            .filter((task) => task.start >= phaseStarts[i] && (i + 1 >= phaseStarts.length || task.start < phaseStarts[i + 1]))
            .map((task) => task.duration),
        ),
      ]),
    ) as Record<Phase, number>,
    maxFrameGapMs: maxGap,
    longestTaskCpuMs: Math.max(0, ...tasks.filter((task) => task.ts >= marks[0]).map((task) => task.cpuMs)),
    longestTaskCpuMsByPhase: Object.fromEntries(
      PHASES.map((phase, i) => [phase, Math.max(0, ...tasks.filter((task) => inPhase(task.ts, i)).map((task) => task.cpuMs))]),
    ) as Record<Phase, number>,
    storedBlocks: ledger.blocks.length,
    storedDocuments: ledger.documents.length,
    expectedRecords,
    shownRecords: { dashboard: dashboard.records, recordsScreen, doctorToday, explorerBlocks },
    recordsPages: { pages: recordsPages, rows: recordsRows },
    chainShown: { dashboard: dashboard.chain, explorer },
    orphans: orphans(ledger),
    mainHeapMb,
    workerHeapMb: await workerHeapMb(browser),
  };
}
