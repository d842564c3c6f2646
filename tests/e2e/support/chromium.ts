import { existsSync } from 'node:fs';
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

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

export function chromiumAvailable(): boolean {
  return existsSync(chromiumPath());
}

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}
