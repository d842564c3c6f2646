// `npm run bench -- --act` (issue 39): the time until a person can act on a slow phone. The built app, served by
// `vite preview` as `npm start` serves it, in the system Chromium over CDP with the issue's emulation: 150 ms latency,
// 1.6 Mbps down, 750 Kbps up (Network.emulateNetworkConditions), CPU 4x (Emulation.setCPUThrottlingRate); every
// measured load is cold (a new browser context, or the HTTP cache, Cache Storage and service worker cleared).
// Each time is in the page, from its navigation start (performance.timeOrigin), taken by an observer installed
// before any of the app's scripts (installActObserver: a MutationObserver and a 50 ms interval mark the page
// dirty, and the conditions are checked in the next animation frame, where the layout they read is due anyway).
//
//   Sign In usable     the Sign In button is in the document, visible (checkVisibility with opacity and
//                      visibility), not disabled, not inside an inert subtree nor aria-busy, and
//                      document.elementFromPoint at its centre is the button or inside it. Only observed.
//   Sign In answered   in a load of its own: as soon as the bench sees Sign In usable (polled over CDP every
//                      20 ms), it clicks the Email and Password fields and types the demo patient's (real input
//                      events), then clicks the button's centre; "Signing in..." shown, from the click's
//                      pointerdown (its event timeStamp) and from the navigation start.
//   data visible       a returning user (signed in once through the form, then the HTTP cache, Cache Storage
//                      and service worker cleared) opens /<role>/dashboard: the stat labelled Total Records
//                      (patient) or Total Patients (doctor), both counted by the worker from the verified ledger,
//                      shows a digit, visible and on top (elementFromPoint) as above.
//   screens            in that same load, once the data shows and the network has been quiet for a second: each
//                      side-menu entry is clicked, timed from the click's pointerdown to the frame that shows the
//                      URL's screen with a new level-1 heading in <main> and no spinner (.spinner-border,
//                      .spinner-grow, aria-busy) left in <main>; then each entry again (second visit).
//
// BENCH_ACT_RUNS rounds (5); each round measures each of the four loads once, in an order that alternates.
// BENCH_ACT_DIST=<dir> measures that build instead of building this one; BENCH_ACT_AGAINST=<dir> measures a second
// build too, round for round in turns (which goes first alternates), and prints both side by side. A build's
// directory is served by the `vite preview` of the project it sits in (the nearest folder above it with a
// vite.config.ts and node_modules/vite), else by this one's.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { freePort } from './browser-bench.mjs';
import { quietNetwork } from './screens-bench.mjs';

const root = resolve(import.meta.dirname, '../..');
const outDir = join(root, 'tests/bench/results/act-build'); // git-ignored; dist/ is left to the e2e run
const RUNS = Number(process.env.BENCH_ACT_RUNS || 5);

export const EMULATION = {
  latencyMs: 150,
  downloadBytesPerSecond: 1.6e6 / 8, // 1.6 Mbps
  uploadBytesPerSecond: 0.75e6 / 8, // 750 Kbps
  cpuSlowdown: 4,
};
const VIEWPORT = { width: 1280, height: 800 }; // the side menu is a column from 992 px up (src/layout/side-menu.tsx)
const PASSWORD = 'demo123'; // workers/core/constants.ts, DEMO_PASSWORD
const ACCOUNTS = { patient: 'sarah.johnson@medledger.demo', doctor: 'emily.carter@medledger.demo' }; // README "Demo accounts"
const DATA_STAT = { patient: 'Total Records', doctor: 'Total Patients' };
const QUIET_MS = 1000;
const QUIET_CAP_MS = 20_000;
const LOAD_TIMEOUT_MS = 60_000;
const ANSWER_TIMEOUT_MS = 10_000;
const SCREEN_TIMEOUT_MS = 30_000;

export const ACT_GOALS = { signInUsableMs: 1300, dataVisibleMs: 2000, secondVisitMs: 200 };
// Issue 39's figures for the original app (a plain Vite + React 18 app), quoted, not measured here.
const ORIGINAL_QUOTED = { signInUsableMs: 1360, dataVisibleMs: 1600, bytesBeforeData: 67 * 1024 };

// Installed in every page before its scripts run. `want`: the conditions this load times ('signInShown',
// 'signInUsable', 'signingIn', 'stat:<label>'); a screen is timed when the bench asks (expectScreen).
function installActObserver(want) {
  if (window.top !== window || window.__act) return;
  const marks = {};
  const act = { marks, clicks: [], screen: null, longTasks: [] };
  window.__act = act;
  // the main thread's tasks over 50 ms: what a click waits behind
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) act.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  // and the scripts of each long animation frame (Chromium 123+), to say whose work that was
  act.longFrames = [];
  if (PerformanceObserver.supportedEntryTypes?.includes('long-animation-frame')) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const scripts = entry.scripts.map((script) => ({
          at: script.startTime,
          ms: script.duration,
          what: `${script.invoker || script.invokerType} (${(script.sourceURL || '').replace(/^.*\//, '')})`,
        }));
        act.longFrames.push({ at: entry.startTime, ms: entry.duration, scripts });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  }
  const now = () => performance.now();
  const text = (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  const name = (element) =>
    element.getAttribute('aria-label') ?? (element instanceof HTMLInputElement ? element.value : text(element));
  const shown = (element) =>
    element.isConnected &&
    element.getClientRects().length > 0 &&
    element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  // what a click at the element's centre would hit: the element or something inside it
  const onTop = (element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (box.width === 0 || box.height === 0 || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit !== null && element.contains(hit);
  };
  const buttons = (wanted) =>
    [...document.querySelectorAll('button, [role="button"], input[type="submit"]')].filter((button) => wanted(name(button)));
  const usable = (button) =>
    shown(button) &&
    !button.matches(':disabled') &&
    button.getAttribute('aria-disabled') !== 'true' &&
    button.closest('[inert]') === null &&
    button.closest('[aria-busy="true"]') === null &&
    onTop(button);
  // the stat's label (found by XPath: native, where a walk over every element in script cost each frame a few ms at 4x
  // CPU), and the nearest element around it with more than the label in it (its value)
  const statValue = (label) => {
    const found = document.evaluate(
      `//body//*[not(*)][normalize-space(.)=${JSON.stringify(label)}]`,
      document,
      null,
      XPathResult.ORDERED_NODE_SNAPSHOT_TYPE,
      null,
    );
    for (let index = 0; index < found.snapshotLength; index += 1) {
      const element = found.snapshotItem(index);
      let around = element.parentElement;
      while (around && text(around) === label) around = around.parentElement;
      if (!around || !/\d/.test(text(around).replace(label, ''))) continue;
      if (shown(around) && onTop(around)) return true;
    }
    return false;
  };
  const record = (key, holds) => {
    if (marks[key] === undefined && holds()) marks[key] = now();
  };
  const spinnerIn = (main) =>
    [...main.querySelectorAll('.spinner-border, .spinner-grow, [aria-busy="true"]')].some((element) => shown(element));
  const mainHeading = () => [...document.querySelectorAll('main h1')].find((heading) => shown(heading)) ?? null;

  const conditions = {
    signInShown: () => buttons((n) => n === 'Sign In').some(shown),
    signInUsable: () => buttons((n) => n === 'Sign In').some(usable),
    signingIn: () => buttons((n) => n.startsWith('Signing in')).some(shown),
  };
  for (const item of want) if (item.startsWith('stat:')) conditions[item] = () => statValue(item.slice(5));
  const wanted = want.filter((key) => key in conditions);
  const pending = () =>
    wanted.some((key) => marks[key] === undefined) || (act.screen !== null && act.screen.shownAt === undefined);

  const check = () => {
    for (const key of wanted) record(key, conditions[key]);
    const screen = act.screen;
    if (screen && screen.shownAt === undefined && location.pathname === screen.path) {
      const heading = mainHeading();
      const fresh = heading !== null && (heading !== screen.fromHeading || text(heading) !== screen.fromText);
      if (fresh && !spinnerIn(heading.closest('main'))) {
        screen.shownAt = now();
        screen.heading = text(heading);
      }
    }
  };
  let queued = false;
  const dirty = () => {
    if (queued || !pending()) return; // nothing left to time: no frame asked for
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      check();
    });
  };
  new MutationObserver(dirty).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  setInterval(dirty, 50); // what no mutation says: a stylesheet arriving, a layout change
  // the bench's clicks: the event's own time, taken when the browser received the input
  for (const type of ['pointerdown', 'click']) {
    window.addEventListener(
      type,
      (event) => {
        if (!event.isTrusted) return;
        const target = event.target instanceof Element ? event.target : null;
        const button = target?.closest('button, [role="button"], a') ?? null;
        // at: when the input came in; dispatched: when the main thread got to it (the page's handlers run then)
        act.clicks.push({ type, at: event.timeStamp, dispatched: now(), on: button ? name(button) : (target?.tagName ?? '') });
      },
      true,
    );
  }
  // the bench says which screen it is about to open: timed once the URL is its path and a new heading shows
  act.expectScreen = (path) => {
    const heading = mainHeading();
    act.screen = { path, fromHeading: heading, fromText: heading ? text(heading) : null, clicksBefore: act.clicks.length };
  };
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The project that serves `dir` as `npm start` does: the nearest folder above it with a vite.config.ts and vite.
function projectOf(dir) {
  for (let at = resolve(dir); at !== dirname(at); at = dirname(at)) {
    if (existsSync(join(at, 'vite.config.ts')) && existsSync(join(at, 'node_modules/vite/bin/vite.js'))) return at;
  }
  return root;
}

// `vite preview` in a process of its own, as server/start.mjs runs it (the sync server is not needed: sync is opt-in).
async function serveBuild(dir) {
  const project = projectOf(dir);
  const port = await freePort();
  const args = ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', resolve(dir)];
  const child = spawn(process.execPath, [join(project, 'node_modules/vite/bin/vite.js'), ...args], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`vite preview of ${dir} exited with code ${child.exitCode}`);
    if (waited > 30_000) throw new Error(`vite preview of ${dir} did not answer in 30 s`);
    const answered = await fetch(`${baseUrl}/robots.txt`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) break;
    await sleep(100);
  }
  const close = () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { dir: resolve(dir), project, baseUrl, close };
}

// A page of a new context, its network and CPU emulated, with the observer; the CDP session drives it.
async function emulatedPage(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: EMULATION.latencyMs,
    downloadThroughput: EMULATION.downloadBytesPerSecond,
    uploadThroughput: EMULATION.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: EMULATION.cpuSlowdown });
  return { page, cdp };
}

// Evaluated over the bench's own CDP session: no Playwright helper script is injected into the measured page.
async function inPage(cdp, expression) {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
  if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value;
}

async function waitInPage(cdp, expression, timeoutMs, everyMs, what) {
  const began = Date.now();
  for (;;) {
    const value = await inPage(cdp, expression).catch(() => undefined); // a navigation in between: try again
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() - began > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
}

const MARKS = '(window.__act ? window.__act.marks : null)';
const FCP = `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null`;

// The page's requests and their wire sizes (Playwright reports the page's and its dedicated workers' requests).
function recordRequests(page) {
  const requests = [];
  const pending = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.sizes().then(
        (sizes) => requests.push({ url: request.url(), type: request.resourceType(), start: request.timing().startTime, sizes }),
        () => undefined,
      ),
    );
  });
  return async () => {
    await Promise.all(pending);
    return requests;
  };
}

// JS and CSS requested before `atMs` from the navigation start: bytes of their bodies as sent, and gzipped.
function scriptBytesBefore(requests, timeOrigin, atMs, dir) {
  let wire = 0;
  let gzip = 0;
  let files = 0;
  for (const request of requests) {
    const { pathname } = new URL(request.url);
    if (!/\.(m?js|css)$/.test(pathname) || request.start - timeOrigin > atMs) continue;
    files += 1;
    const file = join(dir, pathname);
    const gzipped = existsSync(file) ? gzipSync(readFileSync(file)).length : request.sizes.responseBodySize;
    gzip += gzipped;
    // Chromium reports no body for a worker's own script: the build's Brotli copy there, which is what the server sends
    const sent = request.sizes.responseBodySize;
    wire += sent > 0 ? sent : existsSync(`${file}.br`) ? statSync(`${file}.br`).size : gzipped;
  }
  return { files, wire, gzip };
}

// 1: the login page, cold, only observed.
async function measureSignInUsable(browser, served) {
  const context = await browser.newContext({ baseURL: served.baseUrl, viewport: VIEWPORT });
  try {
    await context.addInitScript(installActObserver, ['signInShown', 'signInUsable']);
    const { page, cdp } = await emulatedPage(context);
    const requestsOf = recordRequests(page);
    await page.goto('/', { waitUntil: 'commit' });
    const usable = await waitInPage(cdp, `${MARKS}?.signInUsable`, LOAD_TIMEOUT_MS, 50, 'Sign In usable');
    const { marks, timeOrigin } = await inPage(cdp, `({ marks: ${MARKS}, timeOrigin: performance.timeOrigin })`);
    // the paint entry is queued after the frame is presented: read at once it was often not there yet
    const fcp = await waitInPage(cdp, FCP, 5_000, 50, 'first contentful paint').catch(() => null);
    return {
      usableMs: usable,
      shownMs: marks.signInShown ?? null,
      fcpMs: fcp,
      bytes: scriptBytesBefore(await requestsOf(), timeOrigin, usable, served.dir),
    };
  } finally {
    await context.close();
  }
}

// The centre of an element found in the page, in CSS pixels of the viewport.
const centreOf = (finder) => `(() => {
  const element = (${finder})();
  if (!element) return null;
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
})()`;
const FIELD = (label) =>
  `() => [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === ${JSON.stringify(label)})?.control`;
const SIGN_IN_BUTTON = `() => [...document.querySelectorAll('button, [role="button"], input[type="submit"]')]
  .find((b) => (b.getAttribute('aria-label') ?? (b.value || b.textContent)).replace(/\\s+/g, ' ').trim() === 'Sign In')`;

// 2: the login page, cold; the demo patient's email and password typed and Sign In clicked once it is usable.
async function measureSignInAnswered(browser, served) {
  const context = await browser.newContext({ baseURL: served.baseUrl, viewport: VIEWPORT });
  try {
    await context.addInitScript(installActObserver, ['signInUsable', 'signingIn', `stat:${DATA_STAT.patient}`]);
    const { page, cdp } = await emulatedPage(context);
    let documents = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) documents += 1;
    });
    await page.goto('/', { waitUntil: 'commit' });
    const usable = await waitInPage(cdp, `${MARKS}?.signInUsable`, LOAD_TIMEOUT_MS, 20, 'Sign In usable');
    for (const [label, value] of [
      ['Email', ACCOUNTS.patient],
      ['Password', PASSWORD],
    ]) {
      const field = await inPage(cdp, centreOf(FIELD(label)));
      if (!field) throw new Error(`no field labelled ${label}`);
      await page.mouse.click(field.x, field.y);
      await page.keyboard.insertText(value);
    }
    const button = await inPage(cdp, centreOf(SIGN_IN_BUTTON));
    const documentsBefore = documents;
    await page.mouse.click(button.x, button.y);
    let answered = null;
    let failure = null;
    try {
      answered = await waitInPage(cdp, `${MARKS}?.signingIn`, ANSWER_TIMEOUT_MS, 20, '"Signing in..."');
    } catch {
      failure = documents > documentsBefore ? 'the page loaded again (the form was sent by the browser)' : 'no answer';
    }
    // what the person waited for: the dashboard's data after signing in (the same stat as a returning patient's)
    const signedIn = failure
      ? null
      : await waitInPage(cdp, `${MARKS}?.[${JSON.stringify(`stat:${DATA_STAT.patient}`)}]`, LOAD_TIMEOUT_MS, 20, 'signed in');
    const { clicks, longTasks, longFrames } = (await inPage(
      cdp,
      '({ clicks: window.__act?.clicks ?? [], longTasks: window.__act?.longTasks ?? [], longFrames: window.__act?.longFrames ?? [] })',
    ).catch(() => null)) ?? { clicks: [], longTasks: [], longFrames: [] };
    const click = clicks.find((entry) => entry.type === 'pointerdown');
    const clickMs = click?.at ?? null;
    const dispatched = clicks.find((entry) => entry.type === 'click')?.dispatched ?? null;
    // the long tasks the click and its answer waited behind: those that ended after the click, before the answer
    const end = answered ?? clickMs + ANSWER_TIMEOUT_MS;
    const waitedBehind = longTasks.filter(([start, duration]) => clickMs !== null && start + duration > clickMs && start < end);
    // the scripts of those frames, by what ran them, longest first
    const scripts = {};
    for (const frame of longFrames) {
      for (const script of frame.scripts) {
        if (clickMs !== null && script.at + script.ms > clickMs && script.at < end) {
          scripts[script.what] = (scripts[script.what] ?? 0) + script.ms;
        }
      }
    }
    return {
      scriptsAfterClick: Object.entries(scripts)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([what, total]) => `${what} ${Math.round(total)} ms`),
      longTasksAfterClick: waitedBehind.length,
      longTaskMsAfterClick: waitedBehind.reduce((sum, [, duration]) => sum + duration, 0),
      longestTaskAfterClick: Math.max(0, ...waitedBehind.map(([, duration]) => duration)),
      usableMs: usable,
      clickMs,
      clickedOn: clicks.find((entry) => entry.type === 'click')?.on ?? null,
      answeredMs: answered,
      answerAfterClickMs: answered !== null && clickMs !== null ? answered - clickMs : null,
      signedInMs: signedIn,
      signedInAfterClickMs: signedIn !== null && clickMs !== null ? signedIn - clickMs : null,
      clickDispatchedAfterMs: dispatched !== null && clickMs !== null ? dispatched - clickMs : null,
      failure,
    };
  } finally {
    await context.close();
  }
}

// Signs in through the form, unthrottled, and waits for the dashboard's data: the session and ledger are stored.
async function signInOnce(context, role) {
  const page = await context.newPage();
  await page.goto('/');
  const radio = page.getByRole('radio', { name: role === 'patient' ? 'Patient' : 'Doctor' });
  await page.locator(`label[for="${await radio.getAttribute('id')}"]`).click(); // a visually hidden btn-check
  await page.getByLabel('Email').fill(ACCOUNTS[role]);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`**/${role}/dashboard`, { timeout: LOAD_TIMEOUT_MS });
  await page.waitForFunction((label) => window.__act?.marks[label] !== undefined, `stat:${DATA_STAT[role]}`, {
    timeout: LOAD_TIMEOUT_MS,
  });
  await page.close();
  // on a page of the origin where the app does not run, so nothing registers the service worker again
  const bare = await context.newPage();
  await bare.goto('/robots.txt');
  await bare.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    for (const name of await caches.keys()) await caches.delete(name);
  });
  const cdp = await context.newCDPSession(bare);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  await bare.close();
}

const MENU_LINKS = `[...(document.querySelector('nav[aria-label="Main menu"]')?.querySelectorAll('a[href]') ?? [])]
  .map((link) => ({ path: new URL(link.href).pathname, label: link.textContent.replace(/\\s+/g, ' ').trim() }))`;
const menuLink = (path) =>
  `() => [...(document.querySelector('nav[aria-label="Main menu"]')?.querySelectorAll('a[href]') ?? [])].find((link) => new URL(link.href).pathname === ${JSON.stringify(path)})`;

// One side-menu visit: its click's pointerdown to the frame that shows the screen settled.
async function visit(page, cdp, path) {
  await inPage(cdp, `window.__act.expectScreen(${JSON.stringify(path)})`);
  const link = await inPage(cdp, centreOf(menuLink(path)));
  if (!link) throw new Error(`no side-menu link to ${path}`);
  await page.mouse.click(link.x, link.y);
  try {
    const screen = await waitInPage(
      cdp,
      'window.__act.screen.shownAt !== undefined && window.__act.screen',
      SCREEN_TIMEOUT_MS,
      50,
      path,
    );
    const clicks = await inPage(cdp, 'window.__act.clicks');
    const click = clicks.slice(screen.clicksBefore).find((entry) => entry.type === 'pointerdown');
    return click
      ? { ms: screen.shownAt - click.at, heading: screen.heading }
      : { ms: null, heading: screen.heading, failure: 'the click was not seen by the page' };
  } catch {
    // what the page shows instead, for the table's notes
    const state = await inPage(cdp, SCREEN_STATE).catch(() => null);
    return { ms: null, heading: null, failure: `not shown in ${SCREEN_TIMEOUT_MS / 1000} s: ${JSON.stringify(state)}` };
  }
}
const SCREEN_STATE = `(() => {
  const main = document.querySelector('main');
  return {
    path: location.pathname,
    headings: [...document.querySelectorAll('main h1')].map((h) => h.textContent.trim()),
    spinners: main ? [...main.querySelectorAll('.spinner-border, .spinner-grow, [aria-busy="true"]')].map((e) => e.textContent.trim() || e.className) : null,
    clicks: window.__act.clicks.length - window.__act.screen.clicksBefore,
  };
})()`;

// 3 and 4: a returning user's dashboard, cold, then every side-menu screen twice.
async function measureDashboard(browser, served, role) {
  const context = await browser.newContext({ baseURL: served.baseUrl, viewport: VIEWPORT });
  try {
    const stat = `stat:${DATA_STAT[role]}`;
    await context.addInitScript(installActObserver, [stat]);
    await signInOnce(context, role);
    const { page, cdp } = await emulatedPage(context);
    const requestsOf = recordRequests(page);
    const quiet = quietNetwork(page);
    await page.goto(`/${role}/dashboard`, { waitUntil: 'commit' });
    const dataMs = await waitInPage(cdp, `${MARKS}?.[${JSON.stringify(stat)}]`, LOAD_TIMEOUT_MS, 100, `${role} data`);
    // the app's own mark of its first screen with data (src/app/mount-app.tsx), if it still sets one: a cross-check
    const { fcp, timeOrigin, path, appMark } = await inPage(
      cdp,
      `({ fcp: ${FCP}, timeOrigin: performance.timeOrigin, path: location.pathname,
          appMark: performance.getEntriesByName('medledger:first-screen')[0]?.startTime ?? null })`,
    );
    if (path !== `/${role}/dashboard`) throw new Error(`the stored session led to ${path}, not the ${role} dashboard`);
    const bytes = scriptBytesBefore(await requestsOf(), timeOrigin, dataMs, served.dir);
    await quiet(QUIET_MS, QUIET_CAP_MS); // the person reads the dashboard a moment before moving on
    const quietMs = await inPage(cdp, 'performance.now()');
    const links = (await inPage(cdp, MENU_LINKS)).filter((link) => link.path !== `/${role}/dashboard`);
    const first = {};
    const second = {};
    const headings = {};
    const failures = [];
    for (const [visits, list] of [
      [first, links],
      [second, [...links, { path: `/${role}/dashboard`, label: 'Dashboard' }]],
    ]) {
      for (const link of list) {
        const result = await visit(page, cdp, link.path);
        visits[link.label] = result.ms;
        headings[link.label] ??= result.heading;
        if (result.failure) failures.push(`${visits === first ? 'first' : 'second'} visit of ${link.label}: ${result.failure}`);
      }
    }
    return { dataMs, fcpMs: fcp, appMarkMs: appMark, bytes, quietMs, first, second, headings, failures };
  } finally {
    await context.close();
  }
}

// BENCH_ACT_ONLY=signInUsable,signInAnswered (say) measures only those loads
const ALL_MEASURES = ['signInUsable', 'signInAnswered', 'patient', 'doctor'];
const MEASURES = process.env.BENCH_ACT_ONLY ? process.env.BENCH_ACT_ONLY.split(',') : ALL_MEASURES;
async function measure(browser, served, which) {
  if (which === 'signInUsable') return measureSignInUsable(browser, served);
  if (which === 'signInAnswered') return measureSignInAnswered(browser, served);
  return measureDashboard(browser, served, which);
}

export async function runActBench({ executablePath, chromiumArgs }) {
  const loadBefore = loadavg();
  const given = process.env.BENCH_ACT_DIST;
  const against = process.env.BENCH_ACT_AGAINST;
  for (const [variable, dir] of [
    ['BENCH_ACT_DIST', given],
    ['BENCH_ACT_AGAINST', against],
  ]) {
    if (dir && !existsSync(join(dir, 'index.html'))) throw new Error(`${variable}: no build in ${dir}`);
  }
  if (!given) {
    process.env.NODE_ENV = 'production';
    console.log('[bench] building the app for the act bench (vite build)…');
    await build({ root, mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  }
  const builds = [];
  const browser = await chromium.launch({ executablePath, headless: true, args: chromiumArgs });
  try {
    builds.push({ name: given ? resolve(given) : 'this build', ...(await serveBuild(given ?? outDir)) });
    if (against) builds.push({ name: resolve(against), ...(await serveBuild(against)) });
    for (const served of builds) console.log(`[bench] ${served.name}: ${served.dir} served by ${served.project}'s vite preview`);
    const rounds = builds.map(() => Object.fromEntries(ALL_MEASURES.map((which) => [which, []])));
    for (let round = 1; round <= RUNS; round += 1) {
      const measures = round % 2 === 1 ? MEASURES : [...MEASURES].reverse();
      for (const which of measures) {
        const order = (round + MEASURES.indexOf(which)) % 2 === 1 ? builds.keys() : [...builds.keys()].reverse();
        for (const index of order) {
          console.log(`[bench] act: ${which}, round ${round} of ${RUNS}${against ? `, ${builds[index].name}` : ''}`);
          const result = await measure(browser, builds[index], which);
          console.log(`[bench]   ${brief(which, result)}`);
          rounds[index][which].push(result);
        }
      }
    }
    return {
      when: new Date().toISOString(),
      chromium: browser.version(),
      node: process.versions.node,
      cpus: cpus().length,
      loadBefore,
      loadAfter: loadavg(),
      runs: RUNS,
      emulation: EMULATION,
      viewport: VIEWPORT,
      builds: builds.map((served, index) => ({ name: served.name, dir: served.dir, rounds: rounds[index] })),
    };
  } finally {
    await browser.close();
    for (const served of builds) await served.close();
  }
}

const ms = (value) => (value === null || value === undefined ? '–' : `${Math.round(value)} ms`);
function brief(which, result) {
  if (which === 'signInUsable') return `Sign In shown ${ms(result.shownMs)}, usable ${ms(result.usableMs)}`;
  if (which === 'signInAnswered') {
    return (
      `usable ${ms(result.usableMs)}, clicked ${ms(result.clickMs)} (its click event dispatched ${ms(result.clickDispatchedAfterMs)} ` +
      `later), answered ${ms(result.answeredMs)}, dashboard data ${ms(result.signedInMs)}` +
      `${result.failure ? ` (${result.failure})` : ''}; ${result.longTasksAfterClick} long tasks between (${ms(result.longTaskMsAfterClick)}, ` +
      `longest ${ms(result.longestTaskAfterClick)}); scripts: ${result.scriptsAfterClick.join(', ') || 'none over 50 ms'}`
    );
  }
  const visits = Object.entries(result.first)
    .map(([label, value]) => `${label} ${ms(value)}/${ms(result.second[label])}`)
    .join(', ');
  const failed = result.failures.length ? `; ${result.failures.join('; ')}` : '';
  return `data ${ms(result.dataMs)} (the app's first-screen mark ${ms(result.appMarkMs)}), quiet at ${ms(result.quietMs)}; first/second: ${visits}, Dashboard -/${ms(result.second.Dashboard)}${failed}`;
}

// Median (the lower middle of an even count) and range of the values that are numbers; how many are missing.
function stats(values) {
  const numbers = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  if (numbers.length === 0) return { median: null, min: null, max: null, missing: values.length };
  return {
    median: numbers[Math.floor((numbers.length - 1) / 2)],
    min: numbers[0],
    max: numbers.at(-1),
    missing: values.length - numbers.length,
  };
}

const seconds = (value) => (value === null ? '–' : `${(value / 1000).toFixed(2)} s`);
const kib = (bytes) => (bytes === null ? '–' : `${Math.round(bytes / 1024)} KiB`);
function cell(values, format = seconds) {
  const s = stats(values);
  if (s.median === null) return `none of ${values.length}`;
  const range = values.length > 1 ? ` (${format(s.min)}–${format(s.max)})` : '';
  return `${format(s.median)}${range}${s.missing ? `, ${s.missing} of ${values.length} never` : ''}`;
}
const verdict = (values, goal) => {
  const { median } = stats(values);
  return median !== null && median <= goal ? 'met' : 'NOT MET';
};

// The figures of one build, by row: [name, values, format, goal].
function rows(build) {
  const r = build.rounds;
  const pick = (list, key) => list.map((result) => result[key]);
  const bytes = (list, key) => list.map((result) => result.bytes[key]);
  return [
    ['first contentful paint (login page)', pick(r.signInUsable, 'fcpMs')],
    ['Sign In shown (visible, maybe not yet usable)', pick(r.signInUsable, 'shownMs')],
    ['**Sign In usable**', pick(r.signInUsable, 'usableMs'), seconds, ACT_GOALS.signInUsableMs, ORIGINAL_QUOTED.signInUsableMs],
    ['Sign In usable (in the click load)', pick(r.signInAnswered, 'usableMs')],
    ['Sign In clicked (pointerdown, from navigation)', pick(r.signInAnswered, 'clickMs')],
    ['**Sign In answered** ("Signing in..." shown), from the click', pick(r.signInAnswered, 'answerAfterClickMs'), (v) => ms(v)],
    [
      'of which: the click event dispatched to the page (input delay)',
      pick(r.signInAnswered, 'clickDispatchedAfterMs'),
      (v) => ms(v),
    ],
    ['Sign In answered, from navigation start', pick(r.signInAnswered, 'answeredMs')],
    ['signed in: the dashboard data shows, from the click', pick(r.signInAnswered, 'signedInAfterClickMs'), (v) => ms(v)],
    ['signed in: the dashboard data shows, from navigation start', pick(r.signInAnswered, 'signedInMs')],
    [
      'main-thread long tasks between the click and its answer, in all',
      pick(r.signInAnswered, 'longTaskMsAfterClick'),
      (v) => ms(v),
    ],
    ['patient dashboard: first contentful paint', pick(r.patient, 'fcpMs')],
    [
      '**patient dashboard data visible** (Total Records shows a digit)',
      pick(r.patient, 'dataMs'),
      seconds,
      ACT_GOALS.dataVisibleMs,
      ORIGINAL_QUOTED.dataVisibleMs,
    ],
    ['doctor dashboard: first contentful paint', pick(r.doctor, 'fcpMs')],
    [
      '**doctor dashboard data visible** (Total Patients shows a digit)',
      pick(r.doctor, 'dataMs'),
      seconds,
      ACT_GOALS.dataVisibleMs,
    ],
    ['JS + CSS before Sign In usable, gzip', bytes(r.signInUsable, 'gzip'), kib, null, null, bytes(r.signInUsable, 'wire')],
    [
      'JS + CSS before the patient data shows, gzip',
      bytes(r.patient, 'gzip'),
      kib,
      null,
      ORIGINAL_QUOTED.bytesBeforeData,
      bytes(r.patient, 'wire'),
    ],
    ['JS + CSS before the doctor data shows, gzip', bytes(r.doctor, 'gzip'), kib, null, null, bytes(r.doctor, 'wire')],
  ];
}

function screenRows(build) {
  const out = [];
  for (const role of ['patient', 'doctor']) {
    const list = build.rounds[role];
    if (list.length === 0) continue;
    for (const label of Object.keys(list[0].second)) {
      out.push({
        role,
        label,
        heading: list[0].headings[label] ?? '',
        first: label in list[0].first ? list.map((result) => result.first[label]) : null,
        second: list.map((result) => result.second[label]),
      });
    }
  }
  return out;
}

export function formatActTable(results) {
  const load = (values) => values.map((value) => value.toFixed(2)).join(', ');
  const [mine, other] = results.builds;
  const e = results.emulation;
  const lines = [
    `Time until a person can act (issue 39): Chromium ${results.chromium}, Node ${results.node}, vite preview; ` +
      `${e.latencyMs} ms latency, ${(e.downloadBytesPerSecond * 8) / 1e6} Mbps down, ${(e.uploadBytesPerSecond * 8) / 1e3} Kbps up, ` +
      `CPU ${e.cpuSlowdown}x; ${results.viewport.width}x${results.viewport.height}; every load cold (no HTTP cache, no service ` +
      `worker); median (min–max) of ${results.runs} rounds; ${results.cpus} CPUs, load average ${load(results.loadBefore)} ` +
      `before, ${load(results.loadAfter)} after`,
    '',
    other
      ? `| measure, from navigation start unless said | ${mine.name} | ${other.name} | goal | original app (quoted by issue 39, not measured) |`
      : '| measure, from navigation start unless said | measured | goal | met | original app (quoted by issue 39, not measured) |',
    other ? '|---|---:|---:|---:|---:|' : '|---|---:|---:|---|---:|',
  ];
  const theirs = other ? rows(other) : [];
  rows(mine).forEach(([name, values, format = seconds, goal = null, quoted = null, wire = null], index) => {
    const goalCell = goal === null ? '' : `≤ ${format(goal)}`;
    const quotedCell = quoted === null ? '' : `${format(quoted)} (quoted)`;
    const shown = (list, wireList) => `${cell(list, format)}${wireList ? `; sent ${format(stats(wireList).median)}` : ''}`;
    if (other) {
      const [, otherValues, , , , otherWire] = theirs[index];
      lines.push(`| ${name} | ${shown(values, wire)} | ${shown(otherValues, otherWire)} | ${goalCell} | ${quotedCell} |`);
    } else {
      lines.push(
        `| ${name} | ${shown(values, wire)} | ${goalCell} | ${goal === null ? '' : verdict(values, goal)} | ${quotedCell} |`,
      );
    }
  });
  const answered = (build) => build.rounds.signInAnswered.filter((result) => result.failure);
  for (const build of results.builds) {
    for (const result of answered(build)) {
      lines.push('', `${build.name}: a click on Sign In at ${ms(result.clickMs)} was not answered: ${result.failure}.`);
    }
    // what the click waited behind, in the round whose answer took the median time
    const list = build.rounds.signInAnswered.filter((result) => result.answerAfterClickMs !== null);
    const typical = list.find((result) => result.answerAfterClickMs === stats(list.map((r) => r.answerAfterClickMs)).median);
    if (typical) {
      lines.push(
        '',
        `${build.name}: the click on Sign In (median round) waited ${ms(typical.answerAfterClickMs)} for its answer, behind ` +
          `${typical.longTasksAfterClick} long tasks (${ms(typical.longTaskMsAfterClick)}); the scripts of the long animation frames ` +
          `then: ${typical.scriptsAfterClick?.join(', ') || 'none reported'}.`,
      );
    }
  }
  lines.push(
    '',
    'Side-menu screens in the same loads (after the data showed and a second of quiet network): click (pointerdown) to the ' +
      'frame that shows the screen with its level-1 heading and no spinner in <main>',
    '',
    other
      ? `| role | screen (heading) | first visit: ${mine.name} | ${other.name} | second visit: ${mine.name} | ${other.name} | second-visit goal |`
      : '| role | screen (heading) | first visit | second visit | second visit ≤ 200 ms |',
    other ? '|---|---|---:|---:|---:|---:|---|' : '|---|---|---:|---:|---|',
  );
  const otherScreens = other ? screenRows(other) : [];
  const visitCell = (values) => (values ? cell(values, ms) : 'landing');
  for (const row of screenRows(mine)) {
    const name = `${row.label}${row.heading && row.heading !== row.label ? ` (${row.heading})` : ''}`;
    if (other) {
      const match = otherScreens.find((entry) => entry.role === row.role && entry.label === row.label);
      lines.push(
        `| ${row.role} | ${name} | ${visitCell(row.first)} | ${match ? visitCell(match.first) : '–'} | ${cell(row.second, ms)} | ` +
          `${match ? cell(match.second, ms) : '–'} | ≤ 200 ms |`,
      );
    } else {
      lines.push(
        `| ${row.role} | ${name} | ${visitCell(row.first)} | ${cell(row.second, ms)} | ${verdict(row.second, ACT_GOALS.secondVisitMs)} |`,
      );
    }
  }
  for (const build of results.builds) {
    for (const role of ['patient', 'doctor']) {
      build.rounds[role].forEach((result, index) => {
        for (const failure of result.failures) lines.push('', `${build.name}, ${role}, round ${index + 1}: ${failure}.`);
      });
    }
  }
  const quiet = (build) => [...build.rounds.patient, ...build.rounds.doctor].map((result) => result.quietMs);
  lines.push(
    '',
    `The menu was first clicked once the network had been quiet for ${QUIET_MS / 1000} s (at most ${QUIET_CAP_MS / 1000} s): ` +
      results.builds.map((build) => `${build.name} at ${cell(quiet(build))} from navigation start`).join('; ') +
      '. Byte rows: gzip of each JS and CSS file requested before the moment (the page and its workers); "sent": the ' +
      "median of what the server sent (vite preview sends the build's Brotli copies where it has them).",
  );
  return lines.join('\n');
}
