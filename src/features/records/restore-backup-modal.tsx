import { useId, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { transfer } from 'comlink';
import type { LedgerCounts, RestorePlan } from '../../../workers/api';
import { formatDateTime } from '../../components/format';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

const RESTORE_FAILED = 'The backup could not be restored. Nothing was replaced. Please try again.';

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function described({ blocks, records, files, accessEvents }: LedgerCounts): string {
  return [
    counted(blocks, 'block', 'blocks'),
    counted(records, 'medical record', 'medical records'),
    counted(files, 'file', 'files'),
    counted(accessEvents, 'access event', 'access events'),
  ].join(', ');
}

// Two steps: the worker checks the file, the password, the chain and every content id and says what it would
// replace; only the confirmation replaces the ledger of this browser.
export function RestoreBackupModal({
  show,
  onClose,
  onRestored,
}: {
  show: boolean;
  onClose: () => void;
  onRestored: () => void;
}) {
  const service = useLedger();
  const titleId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState<'checking' | 'restoring' | null>(null);
  const [error, setError] = useState('');
  const [plan, setPlan] = useState<RestorePlan | null>(null);

  const check = async (event: FormEvent) => {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    setError('');
    if (!file) return setError('Choose the backup file (.car).');
    if (password === '') return setError('Enter the password of the backup.');
    setBusy('checking');
    try {
      const bytes = await file.arrayBuffer();
      setPlan(await service.prepareRestore(transfer(bytes, [bytes]), password));
    } catch (caught) {
      setError(userMessage(caught, RESTORE_FAILED));
    } finally {
      setBusy(null);
    }
  };

  const confirm = async () => {
    if (!plan) return;
    setBusy('restoring');
    setError('');
    try {
      await service.confirmRestore(plan.planId);
      reset();
      onRestored();
    } catch (caught) {
      setError(userMessage(caught, RESTORE_FAILED));
    } finally {
      setBusy(null);
    }
  };

  function reset() {
    setPassword('');
    setPlan(null);
    setError('');
  }

  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  return (
    <Modal show={show} onHide={close} centered aria-labelledby={titleId}>
      <Form onSubmit={(event) => void check(event)}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId} as="h2" className="h5">
            {plan ? 'Replace this browser’s ledger?' : 'Restore backup'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {plan ? (
            <div role="status">
              <p>The backup checked out: its password, its whole chain and every file’s content id.</p>
              <dl className="small mb-2">
                <dt>This browser now holds (will be replaced)</dt>
                <dd>{described(plan.current)}</dd>
                <dt>The backup of {formatDateTime(plan.createdAt)} holds</dt>
                <dd>{described(plan.backup)}</dd>
              </dl>
              <p className="small text-body-secondary mb-0">
                Every tab of MedLedger in this browser will show the restored ledger. You will then sign in again with your
                account's password as it was when the backup was made.
              </p>
            </div>
          ) : (
            <>
              <p className="small">
                A backup file from “Download backup”, on this or another browser. Nothing is replaced until you confirm.
              </p>
              <Form.Group className="mb-3" controlId="restore-file">
                <Form.Label>Backup file</Form.Label>
                <Form.Control type="file" accept=".car,application/vnd.ipld.car" ref={fileRef} disabled={busy !== null} />
              </Form.Group>
              <Form.Group controlId="restore-password">
                <Form.Label>Backup password</Form.Label>
                <Form.Control
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  disabled={busy !== null}
                />
              </Form.Group>
            </>
          )}
          {error ? (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {error}
            </Alert>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={close} disabled={busy !== null}>
            Cancel
          </Button>
          {plan ? (
            <Button variant="danger" onClick={() => void confirm()} disabled={busy !== null}>
              {busy === 'restoring' ? 'Restoring...' : 'Replace and restore'}
            </Button>
          ) : (
            <Button type="submit" variant="primary" disabled={busy !== null}>
              {busy === 'checking' ? 'Checking...' : 'Check backup'}
            </Button>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
