import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

// Flags known to work for Debian's chromium on these machines (headless is added by playwright-core).
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Where Linux distributions, Google's packages and macOS put Chromium or Chrome.
const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

const root = resolve(import.meta.dirname, '../../..');
const APT_COMMAND = 'apt-get install -y chromium';
const PLAYWRIGHT_COMMAND = 'npx playwright-core install chromium';

// The browser `npx playwright-core install chromium` puts in Playwright's cache for this playwright-core.
function playwrightBrowser(): string | undefined {
  try {
    const path = chromium.executablePath();
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined; // this platform has no Playwright build
  }
}

// CHROMIUM_PATH when it is set, else the first system Chromium or Chrome, else Playwright's browser.
export function findChromium(): string | undefined {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return existsSync(chosen) ? chosen : undefined;
  return SYSTEM_BROWSERS.find((path) => existsSync(path)) ?? playwrightBrowser();
}

function isRootOnDebian(): boolean {
  const isRoot = process.getuid?.() === 0;
  const debianLike = existsSync('/etc/debian_version') || /ID_LIKE=.*debian/.test(readOptional('/etc/os-release'));
  return isRoot && debianLike && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function readOptional(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

function run(say: (line: string) => void, command: string, args: string[]): boolean {
  say(`running \`${[command, ...args].join(' ')}\``);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

// Finds a browser, or installs one the way this machine allows (apt as root on Debian, else Playwright's
// installer) and says so; throws with the commands to run by hand only when every way failed.
export function ensureChromium(say: (line: string) => void): string {
  const found = findChromium();
  if (found) return found;
  if (process.env.CHROMIUM_PATH) {
    throw new Error(`CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist: correct it or unset it.`);
  }
  say('no Chromium or Chrome found (CHROMIUM_PATH, system paths, Playwright cache): installing one');
  if (isRootOnDebian()) {
    if (run(say, 'apt-get', ['update']) && run(say, 'apt-get', ['install', '-y', 'chromium'])) {
      const installed = findChromium();
      if (installed) return installed;
    }
    say("apt-get did not provide Chromium: trying Playwright's installer");
  }
  if (run(say, 'npx', ['playwright-core', 'install', 'chromium'])) {
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    'No Chromium for the browser tests, and installing one failed. Run one of these, then `npm test` again:\n' +
      `  ${PLAYWRIGHT_COMMAND}\n` +
      `  sudo ${APT_COMMAND}        (Debian, Ubuntu)\n` +
      '  or set CHROMIUM_PATH to a Chromium or Chrome executable.',
  );
}

export function launch(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
