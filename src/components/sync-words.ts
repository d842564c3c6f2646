// The sync state in plain words: one status, worded the same on My Profile's "Devices and sync" card, the explorer's
// Peers view, the side menu and the patient's dashboard.
import type { SyncStatus } from '../../workers/api';
import { formatTime, formatNumber } from './format';

export const DEFAULT_SYNC_SERVER = 'ws://127.0.0.1:3030'; // the server `npm start` runs (workers/core/sync-protocol.ts)

type StatusWords = Pick<SyncStatus, 'state' | 'pendingBlocks' | 'pendingFiles' | 'since' | 'reason' | 'otherLedger' | 'devices'>;

const counted = (count: number, one: string) => `${formatNumber(count)} ${count === 1 ? one : `${one}s`}`;

// "2 devices": the devices the server knows for this ledger, this one included.
const deviceCount = (status: Pick<SyncStatus, 'devices'>) => counted(Math.max(1, status.devices.length), 'device');

// "3 blocks and 1 file": what this device still has to exchange with the server.
const pending = (status: Pick<SyncStatus, 'pendingBlocks' | 'pendingFiles'>) =>
  [
    status.pendingBlocks > 0 ? counted(status.pendingBlocks, 'block') : '',
    status.pendingFiles > 0 ? counted(status.pendingFiles, 'file') : '',
  ]
    .filter(Boolean)
    .join(' and ') || 'with the server';

// The short form, where space is small (the side menu, the dashboard's Network row).
export function syncBrief(status: StatusWords): string {
  switch (status.state) {
    case 'off':
      return 'Alone: this device only';
    case 'connecting':
      return 'Connecting to the server...';
    case 'in-step':
      return `In step: ${deviceCount(status)}`;
    case 'syncing':
      return `Syncing ${pending(status)}`;
    case 'offline':
      return status.since ? `Offline since ${formatTime(status.since)}` : 'Offline';
    case 'refused':
      return status.otherLedger ? 'The server holds another ledger' : 'Refused by the server';
  }
}

export function syncWords(status: StatusWords): string {
  switch (status.state) {
    case 'off':
      return 'Not connected: this device works alone.';
    case 'connecting':
      return status.reason ? `Connecting: ${status.reason}` : 'Connecting to the server...';
    case 'in-step':
      return `In step with the server: ${deviceCount(status)}`;
    case 'syncing':
      return `Syncing ${pending(status)}`;
    case 'offline':
      return status.since ? `Offline since ${formatTime(status.since)} (will retry)` : 'Offline (will retry)';
    case 'refused':
      if (status.otherLedger && status.reason) return status.reason; // a choice offered, not a refusal
      return `Refused: ${status.reason ?? 'the server did not say why.'}`;
  }
}

// A name for this device from its browser and system ("Chrome on Linux"); the user may change it before connecting.
export function defaultDeviceName(userAgent: string): string {
  const browser =
    [
      ['Edge', /Edg\//],
      ['Firefox', /Firefox\//],
      ['Chrome', /Chrome\/|Chromium\//],
      ['Safari', /Safari\//],
    ].find(([, pattern]) => (pattern as RegExp).test(userAgent))?.[0] ?? 'Browser';
  const system =
    [
      ['Android', /Android/],
      ['iPhone', /iPhone/],
      ['iPad', /iPad/],
      ['Windows', /Windows/],
      ['macOS', /Mac OS X|Macintosh/],
      ['Linux', /Linux/],
    ].find(([, pattern]) => (pattern as RegExp).test(userAgent))?.[0] ?? 'this computer';
  return `${String(browser)} on ${String(system)}`;
}
