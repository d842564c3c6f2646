import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { SyncDevice } from '../../../workers/api';
import { formatDateTime } from '../../components/format';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

export const shortDeviceId = (id: string) => id.slice(0, 8);

// Asks before another device of this user leaves the sync server, naming it by its name, last seen time and id.
export function RemoveDeviceModal({
  device,
  onClose,
  onRemoved,
  onExited,
  restoreFocus,
}: {
  device: SyncDevice | null;
  onClose: () => void;
  onRemoved: (device: SyncDevice) => void;
  onExited: () => void;
  restoreFocus: boolean; // false once removed: its Remove button is gone
}) {
  const service = useLedger();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const close = () => {
    if (busy) return;
    setError('');
    onClose();
  };

  const remove = async () => {
    if (!device) return;
    setBusy(true);
    setError('');
    try {
      await service.removeSyncDevice(device.id);
      onRemoved(device);
    } catch (caught) {
      setError(userMessage(caught, 'The device could not be removed.'));
    } finally {
      setBusy(false);
    }
  };

  const seen = device?.seenAt ? formatDateTime(device.seenAt) : 'never';
  return (
    <Modal
      show={device !== null}
      onHide={close}
      onExited={onExited}
      restoreFocus={restoreFocus}
      centered
      aria-labelledby={titleId}
    >
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5">
          Remove this device?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          <strong>{device?.name}</strong> (last seen {seen}, id {shortDeviceId(device?.id ?? '')}) stops syncing with the server
          at once.
        </p>
        <p className="mb-0">
          The blocks and files it sent stay on the ledger. To use it again, sign in on it and connect: it joins as a new device.
        </p>
        {error ? (
          <Alert variant="danger" className="mt-3 mb-0" role="alert">
            {error}
          </Alert>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={close} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void remove()} disabled={busy}>
          {busy ? 'Removing...' : 'Remove device'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
