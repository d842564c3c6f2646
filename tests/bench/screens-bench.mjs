// The first-visit screens part of `npm run bench` (`-- --screens` alone): a new user of each role signs in through
// the login form of the built app (fresh browser context: no HTTP cache, no stored ledger), waits on the dashboard
// until the network has been quiet for a second, then opens every screen of the side menu once (first visit), then
// each again (second visit). Each time is taken in the page, from the click to the frame that shows the screen's heading with no
// spinner left in <main>. Medians of BENCH_SCREEN_ROUNDS (5) rounds, each in a context of its own.
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_ARGS, previewApp } from './browser-bench.mjs';

const root = resolve(import.meta.dirname, '../..');
const outDir = join(root, 'tests/bench/results/screens-build'); // git-ignored; dist/ is left to the e2e run
const ROUNDS = Number(process.env.BENCH_SCREEN_ROUNDS || 5);
// BENCH_SCREEN_RTT_MS > 0: the page's requests get that round-trip time and 1.6 Mbps down, as Lighthouse's slow 4G
const RTT_MS = Number(process.env.BENCH_SCREEN_RTT_MS || 0);
const PASSWORD = 'demo123'; // workers/core/constants.ts, DEMO_PASSWORD
const ACCOUNTS = { patient: 'sarah.johnson@medledger.demo', doctor: 'emily.carter@medledger.demo' }; // DEMO_ACCOUNTS

export const SCREEN_GOALS = { firstVisitMs: 600, secondVisitMs: 200 };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

// Installed in the page before its scripts: resolves with the ms from act() to the frame that shows `path`'s
// screen settled.
function installTimer() {
  window.__timeUntilShown = (path, act) =>
    new Promise((done) => {
      const shown = () => {
        const main = document.querySelector('main');
        const heading = main?.querySelector('h1');
        if (location.pathname !== path || !heading || heading.getClientRects().length === 0) return false;
        return !main.querySelector('.spinner-border');
      };
      const start = performance.now();
      const check = () => (shown() ? done(performance.now() - start) : requestAnimationFrame(check));
      act();
      requestAnimationFrame(check);
    });
}

async function signInTimed(page, role) {
  await page.goto('/');
  const radio = page.getByRole('radio', { name: role === 'patient' ? 'Patient' : 'Doctor' });
  await page.locator(`label[for="${await radio.getAttribute('id')}"]`).click(); // a visually hidden btn-check
  await page.getByLabel('Email').fill(ACCOUNTS[role]);
  await page.getByLabel('Password').fill(PASSWORD);
  const button = await page.getByRole('button', { name: 'Sign In' }).elementHandle();
  return page.evaluate(([path, target]) => window.__timeUntilShown(path, () => target.click()), [`/${role}/dashboard`, button]);
}

async function visitTimed(page, path) {
  return page.evaluate(
    (target) =>
      window.__timeUntilShown(target, () => document.querySelector(`nav[aria-label="Main menu"] a[href="${target}"]`).click()),
    path,
  );
}

// Resolves once no request of the page has been in flight for `quietMs`, or after `capMs` (Playwright's networkidle
// fires once per page load: a page that loaded before would not wait at all).
export function quietNetwork(page) {
  let inFlight = 0;
  let last = Date.now();
  const start = () => ((inFlight += 1), (last = Date.now()));
  const end = () => ((inFlight = Math.max(0, inFlight - 1)), (last = Date.now()));
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return async (quietMs = 1000, capMs = Infinity) => {
    const began = Date.now();
    while ((inFlight > 0 || Date.now() - last < quietMs) && Date.now() - began < capMs) {
      await new Promise((done) => setTimeout(done, 50));
    }
  };
}

async function menuPaths(page) {
  return page.$$eval('nav[aria-label="Main menu"] a', (links) =>
    links.map((link) => ({ path: link.getAttribute('href'), label: link.textContent.trim() })),
  );
}

async function runRole(browser, baseUrl, role) {
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    console.log(`[bench] screens: ${role}, round ${round} of ${ROUNDS}`);
    // no service worker: its precache would hide what the first visit of a screen fetches
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    });
    context.setDefaultTimeout(60_000);
    await context.addInitScript(installTimer);
    const page = await context.newPage();
    if (RTT_MS > 0) {
      const cdp = await context.newCDPSession(page);
      const throughput = { downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: RTT_MS, ...throughput });
    }
    const quiet = quietNetwork(page);
    const signInMs = await signInTimed(page, role);
    await quiet(); // the user reads the dashboard a moment before moving on
    const items = (await menuPaths(page)).filter((item) => item.path !== `/${role}/dashboard`);
    const first = {};
    const second = {};
    for (const item of items) first[item.label] = await visitTimed(page, item.path);
    for (const item of [...items, { path: `/${role}/dashboard`, label: 'Dashboard' }]) {
      second[item.label] = await visitTimed(page, item.path);
    }
    rounds.push({ signInMs, first, second });
    await context.close();
  }
  const labels = Object.keys(rounds[0].second);
  return {
    signInMs: median(rounds.map((r) => r.signInMs)),
    screens: labels.map((label) => ({
      label,
      firstMs: label in rounds[0].first ? median(rounds.map((r) => r.first[label])) : null,
      secondMs: median(rounds.map((r) => r.second[label])),
    })),
  };
}

export async function runScreensBench({ executablePath }) {
  process.env.NODE_ENV = 'production';
  console.log('[bench] building the app for the screens bench (vite build)…');
  await build({ root, mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const { server, baseUrl } = await previewApp(outDir);
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    const patient = await runRole(browser, baseUrl, 'patient');
    const doctor = await runRole(browser, baseUrl, 'doctor');
    return {
      when: new Date().toISOString(),
      rounds: ROUNDS,
      rttMs: RTT_MS,
      cpus: cpus().length,
      loadAverage: loadavg(),
      patient,
      doctor,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

const ms = (value) => (value === null ? 'landing' : `${Math.round(value)} ms`);

export function formatScreensTable(results) {
  const load = results.loadAverage.map((value) => value.toFixed(2)).join(', ');
  const lines = [
    `First and second visits from the side menu, click to the frame that shows the screen settled (heading shown, ` +
      `no spinner in <main>), median of ${results.rounds} new users per role, ${
        results.rttMs ? `network ${results.rttMs} ms round trip and 1.6 Mbps down` : 'no throttling'
      }, ${results.cpus} CPUs, load ${load} at the end`,
    '',
    '| role | screen | first visit | second visit | goals (< 600 / < 200 ms) |',
    '|---|---|---:|---:|---|',
  ];
  for (const role of ['patient', 'doctor']) {
    const r = results[role];
    lines.push(`| ${role} | sign-in (click to dashboard) | ${ms(r.signInMs)} | | |`);
    for (const screen of r.screens) {
      const ok =
        (screen.firstMs === null || screen.firstMs < SCREEN_GOALS.firstVisitMs) && screen.secondMs < SCREEN_GOALS.secondVisitMs;
      lines.push(`| ${role} | ${screen.label} | ${ms(screen.firstMs)} | ${ms(screen.secondMs)} | ${ok ? 'met' : 'NOT MET'} |`);
    }
  }
  return lines.join('\n');
}
