import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { SyncDevice } from '../../../workers/api';
import { formatDateTime, formatNumber } from '../../components/format';
import { HashBadge } from '../../components/hash-badge';
import { SideScrollBox } from '../../components/side-scroll-box';
import { RemoveDeviceModal, shortDeviceId } from './remove-device-modal';

function whose(device: SyncDevice): string {
  if (device.thisDevice) return `id ${shortDeviceId(device.id)}`;
  return `${device.mine ? 'Your device' : 'Another user’s device'} · id ${shortDeviceId(device.id)}`;
}

// The devices the server knows; each other device of this user can be removed, after a question that names it.
export function DeviceTable({ devices }: { devices: SyncDevice[] }) {
  const [removing, setRemoving] = useState<SyncDevice | null>(null);
  const [removed, setRemoved] = useState('');
  const said = useRef<HTMLParagraphElement>(null);
  const removable = devices.some((device) => device.mine && !device.thisDevice);

  return (
    <>
      <SideScrollBox label="Devices the server knows">
        <Table size="sm" className="align-middle mb-0 mt-3">
          <caption className="visually-hidden">Devices the server knows, with the newest block each holds</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col" className="text-end">
                Blocks
              </th>
              <th scope="col">Tip</th>
              <th scope="col">Last seen</th>
              {removable ? (
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {devices.map((device) => (
              <tr key={device.id} data-this-device={String(device.thisDevice)} data-device-id={device.id}>
                <th scope="row">
                  {device.name}
                  {device.thisDevice ? ' (this device)' : ''}
                  <small className="d-block fw-normal text-body-secondary">{whose(device)}</small>
                </th>
                <td className="text-end">{formatNumber(device.height)}</td>
                <td>{device.tip ? <HashBadge hash={device.tip} label={`tip hash of ${device.name}`} /> : '–'}</td>
                <td>{device.seenAt ? <time dateTime={device.seenAt}>{formatDateTime(device.seenAt)}</time> : '–'}</td>
                {removable ? (
                  <td className="text-end">
                    {device.mine && !device.thisDevice ? (
                      <Button
                        size="sm"
                        variant="outline-danger"
                        onClick={() => {
                          setRemoved(''); // a new question: Cancel brings the focus back to this button
                          setRemoving(device);
                        }}
                      >
                        Remove
                        <span className="visually-hidden">
                          {' '}
                          {device.name}, id {shortDeviceId(device.id)}
                        </span>
                      </Button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </Table>
      </SideScrollBox>
      <p ref={said} role="status" tabIndex={-1} className={removed ? 'mt-2 mb-0' : 'visually-hidden'}>
        {removed}
      </p>
      <RemoveDeviceModal
        device={removing}
        restoreFocus={!removed}
        onClose={() => setRemoving(null)}
        onRemoved={(device) => {
          setRemoved(`${device.name} (id ${shortDeviceId(device.id)}) was removed from the sync server.`);
          setRemoving(null);
        }}
        onExited={() => {
          if (removed) said.current?.focus(); // its row and Remove button are gone: the focus stays in the card
        }}
      />
    </>
  );
}
