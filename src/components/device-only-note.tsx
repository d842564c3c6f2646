import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { SyncStatus } from '../../workers/api';
import type { Role } from '../../workers/core/types';
import { useSession } from '../auth/use-session';
import { useSyncStatus } from '../ledger/use-sync-status';
import { formatTime } from './format';

// Where the Connect and restore links go: the "Devices and sync" card, and the role's backup (SectionCard heading ids).
export const connectLink = (role: Role) => `/${role}/profile#section-devices-and-sync`;
export const restoreLink = (role: Role) =>
  role === 'patient' ? '/patient/records#section-take-your-records-with-you' : '/doctor/profile#section-your-backup';

function noteWords(status: SyncStatus, role: Role): ReactNode {
  const elsewhere = 'records added on other devices';
  switch (status.state) {
    case 'off':
      return (
        <>
          Only the records on this device: it is not connected, so {elsewhere} are not here.{' '}
          <Link to={connectLink(role)}>Connect this device</Link> or <Link to={restoreLink(role)}>restore a backup</Link>.
        </>
      );
    case 'connecting':
    case 'syncing':
      return `Still catching up with the server: ${elsewhere} may not be here yet.`;
    case 'offline':
      return status.since
        ? `Offline since ${formatTime(status.since)}: ${elsewhere} since then are not here yet.`
        : `Offline: ${elsewhere} may not be here yet.`;
    case 'refused':
      return (
        <>
          Not in step with the server, so {elsewhere} are not here. <Link to={connectLink(role)}>See Devices and sync</Link>.
        </>
      );
    case 'in-step':
      return null;
  }
}

// A record list holds only what this device holds: say so wherever the device is not in step with the others.
export function DeviceOnlyNote() {
  const status = useSyncStatus().data;
  const role = useSession().user?.role;
  const words = status && role ? noteWords(status, role) : null;
  if (!words) return null;
  return (
    <p className="device-only-note" data-sync-state={status?.state}>
      {words}
    </p>
  );
}
