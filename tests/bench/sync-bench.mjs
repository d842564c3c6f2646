// `npm run bench -- --sync`: two devices of one ledger through the real sync server (dist-server/, a child process
// with its own storage folder) and the built app (dist/) in two Chromium contexts. Measures
// - upload-to-visible: an upload through the form on device A until its record is listed on device B. Both pages
//   stamp the moment with performance.timeOrigin + performance.now() (one clock on one machine): A when its
//   "Upload successful" heading is added, B when a MutationObserver on Medical Records sees the record's heading;
// - catch-up: a new device connects to a server holding 1,000, 10,000 or 100,000 blocks (SYNC_CATCH_UP) and takes
//   the ledger: Connect click until the card offers the server's ledger and asks for the password, then from the
//   password given until every block is held and verified (the device proves its user's key first), then the
//   explorer shows every block verified (the bench fails unless it shows all of them); the card's status line is read
//   every 2 s meanwhile (SYNC_SHOTS=<folder> saves a screenshot of the card at each read). The server is seeded from
//   Node by a device (tests/server/support/devices.ts) sending 1,000 blocks a change: by default a chain made
//   directly (tests/bench/signed-chain.ts: bench records mined and signed with real keys, the demo password), with
//   SYNC_SEED=service uploads written one by one through the ledger service (100,000 of these took over 39 minutes).
//   Measured on 2026-12-07 (2 CPUs, shared; load 2.1-2.9): 100,000 blocks held and verified 23.4 s after the
//   password (goal: under 60 s), the card counting down "Syncing 99,999 blocks" in slices of 10,000;
// - a real block accepted while 20,000 junk blocks of another device wait for a block that never comes (from Node:
//   the block's change sent until the server's height counts it);
// - a 10 MB file: its upload's answer on A until its encrypted bytes are stored in B's IndexedDB (the key does not
//   travel yet, so B cannot open it).
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, createServer } from 'vite';
import { previewApp } from './browser-bench.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const UPLOADS = Number(process.env.SYNC_UPLOADS || 50);
const CATCH_UP_SIZES = (process.env.SYNC_CATCH_UP || '1000,10000').split(',').map(Number);
const JUNK = Number(process.env.SYNC_JUNK || 20_000); // blocks of another device that wait beside a real one
const BIG_FILE_MB = Number(process.env.SYNC_BIG_FILE_MB || 10); // the file whose bytes travel
// the catch-up's ledger: made directly (bench records, mined and signed), or 'service': uploads through the ledger service
const SEED = process.env.SYNC_SEED || 'bench';
// blocks the seed device adds to its document at a time: one change of 5,000 onto 5,000 took the server's Automerge
// (3.5.0) to its 4 GB wasm memory and stopped it
const SEED_BATCH = 1_000;
const PASSWORD = 'demo123';
const SARAH = 'sarah.johnson@medledger.demo';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

let uploadOfBench = () => ({}); // the ledger fixtures' upload, once loaded
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const now = (page) => page.evaluate(() => performance.timeOrigin + performance.now());

async function signIn(page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Fill Demo Credentials' }).click();
  await page.getByLabel('Email').fill(SARAH);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/patient/dashboard', { timeout: 60_000 });
}

const card = (page) => page.getByRole('region', { name: 'Devices and sync' });
const inStep = (page) => card(page).locator('[data-sync-state="in-step"]');

// Connects from My Profile; returns when the Connect click was made, when the card offered the server's ledger
// (a fresh device holds the demo ledger, the server the bench's own), when the password was given there, and when
// the device was in step.
async function connect(page, port, name) {
  await page.goto('/patient/profile');
  await card(page).getByLabel('Server address').fill(`ws://127.0.0.1:${port}`);
  await card(page).getByLabel("This device's name").fill(name);
  const clicked = await now(page);
  await card(page).getByRole('button', { name: 'Connect' }).click();
  const password = card(page).getByLabel('Your password');
  await inStep(page).or(password).first().waitFor({ timeout: 300_000 });
  const taken = await now(page);
  let passwordGiven = taken;
  if (await password.isVisible()) {
    // as a person would: the password that opens their key on the server's ledger, then the card's button
    await password.fill(PASSWORD);
    await card(page).getByRole('button', { name: 'Take the server’s ledger and connect' }).click();
    passwordGiven = await now(page);
  }
  const progress = watchProgress(page, passwordGiven, name);
  await inStep(page).waitFor({ timeout: 600_000 });
  const inStepAt = await now(page);
  return { clicked, taken, passwordGiven, inStepAt, progress: await progress.stop() };
}

// What the card says while the device catches up, read every 2 s (ms after the password: the card's status line);
// with SYNC_SHOTS=<folder>, a screenshot of the card at each read.
function watchProgress(page, from, name) {
  const seen = [];
  let stopped = false;
  const shots = process.env.SYNC_SHOTS;
  const status = card(page).locator('[data-sync-state]').first();
  const reading = (async () => {
    while (!stopped) {
      const at = await now(page).catch(() => NaN);
      const text = await status.textContent({ timeout: 1_000 }).catch(() => null);
      if (text !== null && seen.at(-1)?.text !== text) seen.push({ ms: Math.round(at - from), text: text.trim() });
      if (shots)
        await card(page)
          .screenshot({ path: join(shots, `${name}-${Math.round(at - from)}ms.png`) })
          .catch(() => {});
      await new Promise((done) => setTimeout(done, 2_000));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await reading;
      return seen;
    },
  };
}

async function newDevice(browser, baseUrl) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return { context, page, errors };
}

// Stamps, in the page, when a level-3 heading starting with `prefix` first appears: title -> epoch ms.
function watchHeadings(page, prefix) {
  return page.evaluate((prefix) => {
    const seen = {};
    const look = () => {
      const at = performance.timeOrigin + performance.now();
      for (const heading of document.querySelectorAll('h3')) {
        const title = heading.textContent?.trim() ?? '';
        if (title.startsWith(prefix) && !(title in seen)) seen[title] = at;
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    look();
    window.syncBenchSeen = seen;
  }, prefix);
}

// Stamps, in the page, when the "Upload successful" heading is added (the upload's answer reached the screen).
function watchAnswers(page) {
  return page.evaluate(() => {
    window.syncBenchAnswers = [];
    let shown = false;
    new MutationObserver(() => {
      const heading = [...document.querySelectorAll('h1,h2,h3,h4,h5')].some((h) => h.textContent?.trim() === 'Upload successful');
      if (heading && !shown) window.syncBenchAnswers.push(performance.timeOrigin + performance.now());
      shown = heading;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

async function upload(page, title, file) {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Upload Documents', exact: true }).click();
  await page.getByRole('heading', { name: 'Upload Medical Documents', level: 1 }).waitFor();
  await page.getByLabel('Add files').setInputFiles([file]);
  await page.locator('label[for="record-type-test-report"]').click();
  await page.getByLabel('Title').fill(title);
  const answers = await page.evaluate(() => window.syncBenchAnswers.length);
  await page.getByRole('button', { name: 'Upload Documents' }).click();
  await page.getByRole('heading', { name: 'Upload successful' }).waitFor({ timeout: 120_000 });
  await page.waitForFunction((count) => window.syncBenchAnswers.length > count, answers);
  return page.evaluate(() => window.syncBenchAnswers.at(-1));
}

// Encrypted file bytes stored on the device (the worker's 'contents' store), polled in the page every 20 ms
// until there are more than `count`; returns the epoch ms it saw them.
function contentsBeyond(page, count) {
  return page.evaluate(async (count) => {
    const open = () =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('medledger');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    for (;;) {
      const db = await open();
      const stored = await new Promise((resolve, reject) => {
        const request = db.transaction('contents', 'readonly').objectStore('contents').count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      if (stored > count) return performance.timeOrigin + performance.now();
      await new Promise((done) => setTimeout(done, 20));
    }
  }, count);
}

async function storedContents(page) {
  return page.evaluate(async () => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('medledger');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const count = await new Promise((resolve) => {
      const request = db.transaction('contents', 'readonly').objectStore('contents').count();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return count;
  });
}

async function uploadsToVisible(browser, baseUrl, server) {
  const laptop = await newDevice(browser, baseUrl);
  const phone = await newDevice(browser, baseUrl);
  await signIn(laptop.page);
  await connect(laptop.page, server.port, 'Bench laptop');
  await signIn(phone.page);
  await connect(phone.page, server.port, 'Bench phone');
  await phone.page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Medical Records', exact: true })
    .click();
  await phone.page.getByRole('heading', { name: 'Medical Records', level: 1 }).waitFor();
  await watchHeadings(phone.page, 'Sync bench ');
  await watchAnswers(laptop.page);

  const delays = [];
  for (let n = 1; n <= UPLOADS; n++) {
    const title = `Sync bench ${n}`;
    const file = {
      name: `bench-${n}.pdf`,
      mimeType: 'application/pdf',
      buffer: Buffer.from(`%PDF-1.4 bench ${n} ${'x'.repeat(512)}`),
    };
    const answered = await upload(laptop.page, title, file);
    await phone.page.waitForFunction((title) => title in window.syncBenchSeen, title, { timeout: 60_000 });
    const seen = await phone.page.evaluate((title) => window.syncBenchSeen[title], title);
    delays.push(seen - answered);
    if (n % 10 === 0) console.log(`[sync] ${n}/${UPLOADS} uploads seen on the other device`);
  }

  // a 10 MB file: its encrypted bytes reach the phone's IndexedDB
  // the earlier uploads' bytes may still be on their way: count from when the phone holds every file the laptop does
  const before = await storedContents(laptop.page);
  await contentsBeyond(phone.page, before - 1);
  const arrived = contentsBeyond(phone.page, before);
  const bigFile = { name: 'scan-10mb.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(BIG_FILE_MB * 1024 * 1024, 0x25) };
  const bigAnswered = await upload(laptop.page, 'Sync bench 10 MB scan', bigFile);
  const bigStored = await arrived;

  const errors = [...laptop.errors, ...phone.errors];
  await laptop.context.close();
  await phone.context.close();
  const sorted = [...delays].sort((a, b) => a - b);
  return {
    uploads: UPLOADS,
    msMedian: quantile(sorted, 0.5),
    msP95: quantile(sorted, 0.95),
    msMax: sorted.at(-1),
    ms: delays,
    tenMbFileMs: bigStored - bigAnswered,
    errors,
  };
}

// Waits until the server holds `height` blocks; throws when it stops growing short of them for a minute.
async function serverHeight(server, height) {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const held = (await server.info()).height;
    if (held >= height) return;
    if (held !== last) [last, since] = [held, Date.now()];
    else if (Date.now() - since > 60_000) throw new Error(`the server stopped at ${held} of ${height} seeded blocks`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function catchUp(browser, baseUrl, support, size) {
  const { startServer, newStorageDir } = support.process;
  const server = await startServer(newStorageDir());
  const seedStarted = Date.now();
  // genesis + (size - 1) more: `size` blocks, as the service writes them or made directly (SYNC_SEED)
  const ledger = SEED === 'service' ? await support.devices.signedLedger(size - 1) : await support.devices.benchLedger(size);
  const blocks = await ledger.blocks();
  // the device document grows a batch at a time, as a device that wrote them would send them: one message of every
  // block would pass the server's limit on a WebSocket message at 100,000 blocks
  const first = blocks.slice(0, SEED_BATCH);
  const seeder = await support.devices.connectDevice(server.port, 'seed', first, { as: ledger.sarah, keys: ledger.keys });
  const joined = await seeder.join();
  if (!joined.ok) throw new Error(`the server refused the seed: ${joined.reason}`);
  for (let from = 0; from < blocks.length; from += SEED_BATCH) {
    const batch = blocks.slice(from, from + SEED_BATCH);
    if (from > 0) seeder.handle.change((doc) => support.devices.addBlocks(doc, batch));
    await serverHeight(server, from + batch.length);
  }
  const seedMs = Date.now() - seedStarted;
  await seeder.close();

  const device = await newDevice(browser, baseUrl);
  try {
    await signIn(device.page);
    const { clicked, taken, passwordGiven, inStepAt, progress } = await connect(device.page, server.port, `New tablet ${size}`);
    await device.page.goto('/patient/blockchain');
    const summary = device.page.locator('#explorer-tabs-tabpane-chain [data-chain-valid="true"]');
    await summary.waitFor({ timeout: 300_000 });
    const shown = await summary.textContent();
    const verifiedAt = await now(device.page);
    // a device that refused blocks is in step too (it no longer waits for them): every block must be here and verified
    const count = Number(shown?.match(/All ([\d,]+) blocks? verified/)?.[1].replaceAll(',', ''));
    if (count !== blocks.length) throw new Error(`the new device holds ${shown}, not all ${blocks.length} blocks verified`);
    return {
      blocks: blocks.length,
      seedMs,
      takenMs: taken - clicked, // the server's ledger offered: its genesis and keys, before the device gets any more
      // the blocks themselves, after signing in: proof, join and every block merged and verified
      blocksMs: inStepAt - passwordGiven, // after the password: proof, join and every block merged and verified
      inStepMs: inStepAt - clicked, // includes typing the password
      explorerMs: verifiedAt - inStepAt,
      explorerSays: shown?.match(/All [\d,]+ blocks? verified/)?.[0] ?? shown,
      progress, // the card's status line while the blocks came, as it changed
      errors: device.errors,
    };
  } finally {
    await device.context.close();
    await server.kill();
  }
}

// A real block is accepted while 20,000 junk blocks of another device wait for a head that never arrives.
async function realBlockBesideJunk(support) {
  const { startServer, newStorageDir } = support.process;
  const server = await startServer(newStorageDir());
  const ledger = await support.devices.signedLedger(1);
  const blocks = await ledger.blocks();
  const laptop = await support.devices.connectDevice(server.port, 'laptop', blocks, { as: ledger.sarah, keys: ledger.keys });
  const junk = await support.devices.connectDevice(server.port, 'junk', blocks.slice(0, 1), { as: ledger.sarah });
  try {
    if (!(await laptop.join()).ok) throw new Error('the laptop did not seed the server');
    support.devices.writeBlocksThatWait(junk.handle, JUNK);
    if (!(await junk.join()).ok) throw new Error('the junk device did not join');
    const waiting = `${JUNK} block(s) of device ${junk.deviceId} wait`;
    while (!server.lines.some((line) => line.includes(waiting))) await new Promise((done) => setTimeout(done, 20));
    await ledger.service.upload(uploadOfBench());
    const all = await ledger.blocks();
    const fresh = Object.fromEntries(
      all.slice(blocks.length).map((block) => [block.hash, new TextEncoder().encode(JSON.stringify(block))]),
    );
    const sent = Date.now();
    laptop.handle.change((doc) => Object.assign(doc.blocks, fresh));
    while ((await server.info()).height < all.length) await new Promise((done) => setTimeout(done, 5));
    return { junk: JUNK, acceptedMs: Date.now() - sent };
  } finally {
    await laptop.close();
    await junk.close();
    await server.kill();
  }
}

export async function runSyncBench() {
  process.env.NODE_ENV = 'production';
  if (!existsSync(fileURLToPath(new URL('../../dist/index.html', import.meta.url)))) {
    console.log('[sync] building the app (vite build)...');
    await build({ root, mode: 'production', logLevel: 'warn' });
  }
  // one module runner for the whole run: the ledger loads its content-id importer on first use, after the imports
  const loader = await createServer({
    root,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    optimizeDeps: { noDiscovery: true, entries: [] }, // Node modules only: nothing of the app to scan
    server: { middlewareMode: true, hmr: false },
  });
  const buildServer = await loader.ssrLoadModule('/tests/server/global-setup.ts');
  buildServer.default();
  const processModule = await loader.ssrLoadModule('/tests/server/support/server-process.ts');
  const devices = await loader.ssrLoadModule('/tests/server/support/devices.ts');
  const fixtures = await loader.ssrLoadModule('/tests/support/ledger-fixtures.ts');
  uploadOfBench = () => fixtures.uploadOf('Written while the junk waits');
  const support = { process: processModule, devices };

  // serve a private copy of dist/: a build run meanwhile in the same tree would empty it under the server
  const served = mkdtempSync(join(tmpdir(), 'medledger-sync-bench-app-'));
  cpSync(join(root, 'dist'), served, { recursive: true });
  const { server: app, baseUrl } = await previewApp(served);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const server = await processModule.startServer(processModule.newStorageDir());
  try {
    console.log(`[sync] ${UPLOADS} uploads on one device, each until it shows on the other...`);
    const visible = await uploadsToVisible(browser, baseUrl, server);
    const catchUps = [];
    for (const size of CATCH_UP_SIZES) {
      console.log(`[sync] a new device takes a ledger of ${size.toLocaleString('en-US')} blocks...`);
      const caught = await catchUp(browser, baseUrl, support, size);
      console.log(
        `[sync] ${size} blocks: taken after ${Math.round(caught.takenMs)} ms, shown verified ${Math.round(caught.explorerMs)} ms later`,
      );
      catchUps.push(caught);
    }
    console.log(`[sync] a real block while ${JUNK.toLocaleString('en-US')} junk blocks wait...`);
    const beside = await realBlockBesideJunk(support);
    return { when: new Date().toISOString(), cpus: cpus().length, loadAverage: loadavg()[0], visible, catchUps, beside };
  } finally {
    await loader.close();
    await server.kill();
    await browser.close();
    await app.close();
  }
}

const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`;

// issue 44's catch-up goals: 10,000 blocks taken in under 5 s, 100,000 in under 60 s
function goalOf(each) {
  const limit = { 10000: 5_000, 100000: 60_000 }[each.blocks];
  if (!limit) return '';
  return `< ${limit.toLocaleString('en-US')} ms: ${each.takenMs + each.blocksMs < limit ? 'met' : 'missed'}`;
}

export function formatSyncTable(run) {
  const { visible } = run;
  const rows = [
    ['Measure', 'Figure', 'Goal'],
    [
      `Upload to visible on the other device (${visible.uploads} uploads), median / p95`,
      `${ms(visible.msMedian)} / ${ms(visible.msP95)}`,
      `p95 < 1,000 ms: ${visible.msP95 < 1000 ? 'met' : 'missed'}`,
    ],
    ['  slowest', ms(visible.msMax), ''],
    ["10 MB file: upload's answer to encrypted bytes stored on the other device", ms(visible.tenMbFileMs), ''],
    ...run.catchUps.flatMap((each) => [
      [
        `New device takes ${each.blocks.toLocaleString('en-US')} blocks: Connect to ledger taken, the password typed aside`,
        ms(each.takenMs + each.blocksMs),
        goalOf(each),
      ],
      ['  of which the server’s ledger offered (genesis and keys), before the password', ms(each.takenMs), ''],
      ['  of which proof, join and every block held and verified, after the password', ms(each.blocksMs), ''],
      ['  Connect to in step, the password typed between (every block held and verified)', ms(each.inStepMs), ''],
      ['  then the explorer verifies and shows them', `${ms(each.explorerMs)} (${each.explorerSays})`, ''],
      ['  seeding the server from Node (not a device figure)', ms(each.seedMs), ''],
    ]),
    [
      `A real block accepted while ${run.beside.junk.toLocaleString('en-US')} junk blocks wait`,
      ms(run.beside.acceptedMs),
      `< 1,000 ms: ${run.beside.acceptedMs < 1000 ? 'met' : 'missed'}`,
    ],
    ['Page errors', String(visible.errors.length + run.catchUps.reduce((sum, each) => sum + each.errors.length, 0)), ''],
    ['Machine', `${run.cpus} CPUs, load ${run.loadAverage.toFixed(1)}`, ''],
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
