// The Lighthouse part of `npm run bench`: Lighthouse's mobile defaults (simulated slow 4G, 4x CPU slowdown)
// on the built app served by `vite preview`, in the system Chromium: the login page from a cold start, and
// the patient's and the doctor's dashboards with a stored session (signed in first through the login form, then
// the HTTP cache cleared and the service worker removed, so the dashboard loads cold as after a browser restart).
// Lighthouse 12: Lighthouse 13 needs Node 22, and this project runs on Node 20.19+.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { freePort, previewApp } from './browser-bench.mjs';

const root = resolve(import.meta.dirname, '../..');
const outDir = join(root, 'tests/bench/results/lighthouse-build'); // git-ignored; dist/ is left to the e2e run
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const LIGHTHOUSE_VERSION = JSON.parse(readFileSync(join(root, 'node_modules/lighthouse/package.json'), 'utf8')).version;

// What Lighthouse still judges: accessibility, best practices, SEO and layout shift. Its LCP of data-free HTML is
// reported, not a goal: the time until a person can act is (npm run bench -- --act).
export const LIGHTHOUSE_GOALS = { accessibility: 100, bestPractices: 100, seo: 100, cls: 0 };

// The app marks its first screen with no spinner left (src/start/mount-app.tsx): a dashboard's first paint with data.
const FIRST_SCREEN_MARK = 'medledger:first-screen';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

// Bytes on the wire. Chromium reports only the headers of a worker's script as transferred: for those, gzipped, as
// vite preview sends it.
function wireBytes(item) {
  if (item.sessionTargetType !== 'worker') return item.transferSize;
  const file = join(outDir, new URL(item.url).pathname);
  return existsSync(file) ? gzipSync(readFileSync(file)).length : item.transferSize;
}

// Everything requested before the first screen with data was shown (the page's and its workers' requests).
function bytesBeforeData(lhr) {
  const mark = (lhr.audits['user-timings'].details?.items ?? []).find((item) => item.name === FIRST_SCREEN_MARK);
  if (!mark) return null;
  const requests = lhr.audits['network-requests'].details?.items ?? [];
  return requests.filter((item) => item.networkRequestTime <= mark.startTime).reduce((sum, item) => sum + wireBytes(item), 0);
}

// The figures of the issue's table from one Lighthouse result.
function figures(lhr) {
  const audit = (id) => lhr.audits[id];
  // All of the page's JavaScript, not one chunk: the app comes in several chunks.
  const unused = audit('unused-javascript').details?.items ?? []; // only scripts with over 20 KiB unused are listed
  const scripts = (audit('network-requests').details?.items ?? []).filter((item) => item.resourceType === 'Script');
  const longTasks = audit('long-tasks').details?.items ?? [];
  return {
    performance: Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    bestPractices: Math.round(lhr.categories['best-practices'].score * 100),
    seo: Math.round(lhr.categories.seo.score * 100),
    lcpMs: audit('largest-contentful-paint').numericValue,
    fcpMs: audit('first-contentful-paint').numericValue,
    tbtMs: audit('total-blocking-time').numericValue,
    cls: audit('cumulative-layout-shift').numericValue,
    bytes: audit('total-byte-weight').numericValue,
    bytesBeforeData: bytesBeforeData(lhr) ?? Number.NaN,
    unusedScriptBytes: unused.reduce((sum, item) => sum + item.wastedBytes, 0),
    scriptBytes: scripts.reduce((sum, item) => sum + item.transferSize, 0),
    longestTaskMs: longTasks.reduce((longest, task) => Math.max(longest, task.duration), 0),
    failed: [...Object.values(lhr.categories)]
      .flatMap((category) => category.auditRefs)
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
      .filter((ref) => lhr.audits[ref.id].scoreDisplayMode === 'binary')
      .map((ref) => ref.id),
  };
}

// Medians of each figure over the runs; the failed binary audits of the run with the median performance.
function summarize(runs) {
  const keys = Object.keys(runs[0]).filter((key) => typeof runs[0][key] === 'number');
  const summary = Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run[key]))]));
  const byScore = [...runs].sort((a, b) => a.performance - b.performance);
  // TBT moves a lot between runs on a shared machine: its lowest and highest are printed beside the median
  const tbt = runs.map((run) => run.tbtMs);
  return {
    ...summary,
    tbtRangeMs: [Math.min(...tbt), Math.max(...tbt)],
    failed: byScore[Math.floor((byScore.length - 1) / 2)].failed,
    runs: runs.length,
  };
}

// Signs in afresh through the login form (a session left by the previous run is dropped first).
async function signIn(page, baseUrl, role) {
  // on a page of the origin where the app does not run: a resumed session would store itself again
  await page.goto(`${baseUrl}/robots.txt`);
  await page.evaluate(() => localStorage.removeItem('currentUser'));
  await page.goto(baseUrl);
  if (role === 'doctor') {
    const radio = page.getByRole('radio', { name: 'Doctor' });
    await page.locator(`label[for="${await radio.getAttribute('id')}"]`).click(); // a visually hidden btn-check
  }
  await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`**/${role}/dashboard`, { timeout: 120_000 });
}

// Back to a cold start that keeps the session: no HTTP cache, no service worker, no cached files.
async function coldButSignedIn(page) {
  await page.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    for (const name of await caches.keys()) await caches.delete(name);
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

// One Lighthouse run of `page` (the login, or a role's dashboard with a stored session) on the build at `baseUrl`.
async function measure(context, flags, baseUrl, page) {
  if (page === 'login') return (await lighthouse(`${baseUrl}/`, flags)).lhr;
  const tab = await context.newPage(); // a tab of its own: Lighthouse may have driven the others
  await signIn(tab, baseUrl, page);
  await coldButSignedIn(tab);
  await tab.close();
  const { lhr } = await lighthouse(`${baseUrl}/${page}/dashboard`, { ...flags, disableStorageReset: true });
  if (!lhr.finalDisplayedUrl.endsWith(`/${page}/dashboard`)) {
    throw new Error(`Lighthouse ended on ${lhr.finalDisplayedUrl}, not the dashboard: the stored session was not used`);
  }
  return lhr;
}

// BENCH_LIGHTHOUSE_AGAINST=<another build's directory> measures that build too, run for run in turns with this one
// (which goes first alternates): on a shared machine two builds measured one after the other differ by the load.
export async function runLighthouseBench({ executablePath, chromiumArgs }) {
  process.env.NODE_ENV = 'production';
  console.log('[bench] building the app for Lighthouse (vite build)…');
  await build({ root, mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const against = process.env.BENCH_LIGHTHOUSE_AGAINST;
  if (against && !existsSync(join(against, 'index.html'))) throw new Error(`BENCH_LIGHTHOUSE_AGAINST: no build in ${against}`);
  const builds = [{ name: 'this build', ...(await previewApp(outDir)) }];
  if (against) builds.push({ name: against, ...(await previewApp(against)) });
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'medledger-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [...chromiumArgs, `--remote-debugging-port=${port}`],
  });
  const flags = { port, output: 'json', logLevel: 'error' };
  try {
    const version = await chromiumVersion(context);
    const pages = ['login', 'patient', 'doctor'];
    const runs = builds.map(() => Object.fromEntries(pages.map((page) => [page, []])));
    for (const page of pages) {
      for (let run = 1; run <= RUNS; run += 1) {
        const order = run % 2 === 1 ? builds.keys() : [...builds.keys()].reverse();
        for (const which of order) {
          const name = page === 'login' ? 'login page' : `${page} dashboard (stored session)`;
          console.log(`[bench] Lighthouse: ${name}, run ${run} of ${RUNS}${against ? `, ${builds[which].name}` : ''}`);
          const lhr = await measure(context, flags, builds[which].baseUrl, page);
          if (which === 0) {
            const file = page === 'login' ? 'lighthouse-login.json' : `lighthouse-${page}-dashboard.json`;
            writeFileSync(join(root, 'tests/bench/results', file), JSON.stringify(lhr)); // the last run, for a closer look
          }
          runs[which][page].push(figures(lhr));
        }
      }
    }
    const summaries = runs.map((byPage) => ({
      login: summarize(byPage.login),
      dashboard: summarize(byPage.patient),
      doctorDashboard: summarize(byPage.doctor),
    }));
    return {
      when: new Date().toISOString(),
      lighthouse: LIGHTHOUSE_VERSION,
      node: process.versions.node,
      chromium: version,
      cpus: cpus().length,
      loadAverage: loadavg(),
      ...summaries[0],
      ...(against ? { against: { build: against, ...summaries[1] } } : {}),
    };
  } finally {
    await context.close();
    for (const { server } of builds) await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function chromiumVersion(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const { product } = await cdp.send('Browser.getVersion');
  await page.close();
  return product.replace(/^\D+\//, '');
}

const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const ms = (value) => `${Math.round(value)} ms`;
const tbtRange = (r) => (r.tbtRangeMs && r.runs > 1 ? ` (${r.tbtRangeMs.map(Math.round).join('-')})` : '');

export function formatLighthouseTable(results) {
  const load = results.loadAverage.map((value) => value.toFixed(2)).join(', ');
  const before = (r) => (Number.isFinite(r.bytesBeforeData) ? kib(r.bytesBeforeData) : 'n/a');
  const row = (name, r) =>
    `| ${name} | ${r.performance} | ${seconds(r.lcpMs)} | ${ms(r.tbtMs)}${tbtRange(r)} | ${r.cls.toFixed(3)} | ${kib(r.bytes)} | ${before(r)} | ` +
    `${kib(r.unusedScriptBytes)} of ${kib(r.scriptBytes)} | ${r.longestTaskMs ? ms(r.longestTaskMs) : 'none over 50 ms'} | ` +
    `${r.accessibility} | ${r.bestPractices} | ${r.seo} |`;
  const { login } = results;
  const dashboards = [
    ['patient dashboard', results.dashboard],
    ['doctor dashboard', results.doctorDashboard],
  ].filter(([, r]) => r);
  const goals = LIGHTHOUSE_GOALS;
  const verdict = (ok) => (ok ? 'met' : 'NOT MET');
  const lines = [
    `Lighthouse ${results.lighthouse} (Lighthouse 13 needs Node 22; this is Node ${results.node}), mobile defaults ` +
      `(simulated slow 4G, 4x CPU slowdown), Chromium ${results.chromium}, vite preview, median of ${login.runs} runs, ` +
      `${results.cpus} CPUs, load ${load} at the end`,
    '',
    '| MedLedger | performance | LCP | TBT (lowest-highest) | CLS | bytes | bytes before data shown | unused JS of all JS | longest task | a11y | best practices | SEO |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('login page', login),
    ...dashboards.map(([name, r]) => row(`${name} (stored session)`, r)),
    '',
    '| goal | measured | |',
    '|---|---:|---|',
    ...[['login', login], ...dashboards].flatMap(([name, r]) => [
      `| ${name} accessibility, best practices, SEO ${goals.accessibility} | ${r.accessibility}, ${r.bestPractices}, ${r.seo} | ${verdict(
        r.accessibility >= goals.accessibility && r.bestPractices >= goals.bestPractices && r.seo >= goals.seo,
      )} |`,
      `| ${name} CLS ${goals.cls} | ${r.cls.toFixed(3)} | ${verdict(r.cls <= goals.cls)} |`,
    ]),
  ];
  for (const [name, r] of [['login', login], ...dashboards]) {
    if (r.failed.length > 0) lines.push('', `Failed audits (${name}): ${r.failed.join(', ')}`);
  }
  if (results.against) {
    const other = results.against;
    lines.push(
      '',
      `Against ${other.build} (BENCH_LIGHTHOUSE_AGAINST), run for run in turns with this build; this build / that one:`,
      '',
      '| page | performance | LCP | TBT (lowest-highest) | bytes before data shown |',
      '|---|---:|---:|---:|---:|',
      ...[
        ['login page', login, other.login],
        ['patient dashboard', results.dashboard, other.dashboard],
        ['doctor dashboard', results.doctorDashboard, other.doctorDashboard],
      ].map(
        ([name, mine, theirs]) =>
          `| ${name} | ${mine.performance} / ${theirs.performance} | ${seconds(mine.lcpMs)} / ${seconds(theirs.lcpMs)} | ` +
          `${ms(mine.tbtMs)}${tbtRange(mine)} / ${ms(theirs.tbtMs)}${tbtRange(theirs)} | ${before(mine)} / ${before(theirs)} |`,
      ),
    );
  }
  return lines.join('\n');
}
