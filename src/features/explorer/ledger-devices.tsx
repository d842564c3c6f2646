import Table from 'react-bootstrap/Table';
import type { SyncStatus } from '../../../workers/api';
import { formatDateTime, formatNumber } from '../../components/format';
import { HashBadge } from '../../components/hash-badge';
import { SideScrollBox } from '../../components/side-scroll-box';
import { syncWords } from '../../components/sync-words';

interface Copy {
  key: string;
  name: string;
  height?: number;
  tip?: string;
  seenAt?: string;
  thisDevice: boolean;
}

// How a copy stands beside this device's: the same tip, or how many blocks apart.
function comparison(copy: Copy, mine: Copy | undefined): string {
  if (copy.thisDevice) return 'This device';
  if (!copy.tip || !mine?.tip || copy.height === undefined || mine.height === undefined) return 'Not known yet';
  if (copy.tip === mine.tip) return 'Same tip';
  const apart = copy.height - mine.height;
  if (apart > 0) return `${apart} ${apart === 1 ? 'block' : 'blocks'} ahead`;
  if (apart < 0) return `${-apart} ${apart === -1 ? 'block' : 'blocks'} behind`;
  return 'Same height, another tip';
}

// The real copies of the ledger while this device is connected: the sync server and every device it knows.
export function LedgerDevices({ status }: { status: SyncStatus }) {
  const copies: Copy[] = [
    {
      key: 'server',
      name: `Sync server (${status.serverUrl})`,
      ...(status.serverHeight !== undefined ? { height: status.serverHeight } : {}),
      ...(status.serverTip ? { tip: status.serverTip } : {}),
      thisDevice: false,
    },
    ...status.devices.map((device, i) => ({ key: `device-${i}`, ...device })),
  ];
  const mine = copies.find((copy) => copy.thisDevice);
  return (
    <section aria-labelledby="peers-heading">
      <h2 id="peers-heading" className="h5">
        Peers
      </h2>
      <p className="text-body-secondary">
        This device is connected to a sync server, so these are the real copies of the ledger: the server and every device that
        joined it, each with its newest block. Every copy verifies every block it takes. The simulated copies of the tamper
        sandbox come back when this device disconnects (My Profile, Devices and sync).
      </p>
      <p role="status" className="fw-semibold" data-sync-state={status.state}>
        {syncWords(status)}
      </p>
      <SideScrollBox label="The copies of the ledger">
        <Table size="sm" className="align-middle">
          <caption className="visually-hidden">The copies of the ledger: the sync server and the devices</caption>
          <thead>
            <tr>
              <th scope="col">Copy</th>
              <th scope="col" className="text-end">
                Blocks
              </th>
              <th scope="col">Tip hash</th>
              <th scope="col">Last seen</th>
              <th scope="col">Beside this device</th>
            </tr>
          </thead>
          <tbody>
            {copies.map((copy) => (
              <tr key={copy.key} data-copy={copy.key}>
                <th scope="row">
                  {copy.name}
                  {copy.thisDevice ? ' (this device)' : ''}
                </th>
                <td className="text-end">{copy.height === undefined ? '–' : formatNumber(copy.height)}</td>
                <td>{copy.tip ? <HashBadge hash={copy.tip} label={`tip hash of ${copy.name}`} /> : '–'}</td>
                <td>{copy.seenAt ? <time dateTime={copy.seenAt}>{formatDateTime(copy.seenAt)}</time> : '–'}</td>
                <td>{comparison(copy, mine)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </SideScrollBox>
    </section>
  );
}
