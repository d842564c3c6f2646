// The sync state in plain words, shared by My Profile's "Devices and sync" card and the explorer's Peers view.
import type { SyncStatus } from '../../workers/api';
import { formatTime, formatNumber } from './format';

export const DEFAULT_SYNC_SERVER = 'ws://127.0.0.1:3030'; // the server `npm start` runs (workers/core/sync-protocol.ts)

const counted = (count: number, one: string) => `${formatNumber(count)} ${count === 1 ? one : `${one}s`}`;

export function syncWords(
  status: Pick<SyncStatus, 'state' | 'pendingBlocks' | 'pendingFiles' | 'since' | 'reason' | 'otherLedger'>,
): string {
  switch (status.state) {
    case 'off':
      return 'Not connected: this device works alone.';
    case 'connecting':
      return status.reason ? `Connecting: ${status.reason}` : 'Connecting to the server...';
    case 'in-step':
      return 'In step with the server';
    case 'syncing':
      return `Syncing ${
        [
          status.pendingBlocks > 0 ? counted(status.pendingBlocks, 'block') : '',
          status.pendingFiles > 0 ? counted(status.pendingFiles, 'file') : '',
        ]
          .filter(Boolean)
          .join(' and ') || 'with the server'
      }`;
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
