import { useId, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { transfer } from 'comlink';
import type { LedgerCounts, RestorePlan } from '../../workers/api';
import { formatDateTime } from './format';
import { userMessage } from '../ledger/error-message';
import { useLedger } from '../ledger/use-ledger';

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

// What a checked plan will do, in plain words (docs/decisions/restore-merges.md).
function PlanSummary({ plan }: { plan: RestorePlan }) {
  if (plan.mode === 'replace') {
    return (
      <>
        <p>The backup checked out: its password, its whole chain and every file’s content id.</p>
        <dl className="small mb-2">
          <dt>This browser now holds (will be replaced)</dt>
          <dd>{described(plan.current)}</dd>
          <dt>The backup of {formatDateTime(plan.createdAt)} holds</dt>
          <dd>{described(plan.adds)}</dd>
        </dl>
        <p className="small text-body-secondary mb-0">
          This browser holds only a new, untouched ledger, so the backup replaces it. Every tab of MedLedger in this browser will
          show the restored ledger. You will then sign in again with your account's password as it was when the backup was made.
        </p>
      </>
    );
  }
  if (plan.adds.blocks === 0) return <p className="mb-0">This browser already holds every record of the backup.</p>;
  return (
    <>
      <p>The backup of {formatDateTime(plan.createdAt)} is of this ledger and checked out against it.</p>
      <dl className="small mb-2">
        <dt>This browser now holds (all of it is kept)</dt>
        <dd>{described(plan.current)}</dd>
        <dt>The backup adds</dt>
        <dd>{described(plan.adds)}</dd>
      </dl>
      {plan.deletesFiles > 0 ? (
        <p className="small">
          Its records delete {counted(plan.deletesFiles, 'file', 'files')} this browser still holds: their bytes are removed,
          their records stay.
        </p>
      ) : null}
      <p className="small text-body-secondary mb-0">Nothing this browser holds is dropped, and you stay signed in.</p>
    </>
  );
}

// Two steps: the worker checks the file, the password, the chain and every content id and says what it would
// add (or, in a new browser, replace); only the confirmation writes.
export function RestoreBackupModal({
  show,
  onClose,
  onRestored,
}: {
  show: boolean;
  onClose: () => void;
  onRestored: (plan: RestorePlan) => void;
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
      onRestored(plan);
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
            {!plan ? 'Restore backup' : plan.mode === 'replace' ? 'Replace this browser’s ledger?' : 'Add the backup’s records?'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {plan ? (
            <div role="status">
              <PlanSummary plan={plan} />
            </div>
          ) : (
            <>
              <p className="small">
                A backup file of this browser’s ledger adds the records this browser lacks and drops nothing; a whole-browser
                backup also starts a new browser over. Nothing changes until you confirm.
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
          {plan?.mode === 'replace' ? (
            <Button variant="danger" onClick={() => void confirm()} disabled={busy !== null}>
              {busy === 'restoring' ? 'Restoring...' : 'Replace and restore'}
            </Button>
          ) : plan && plan.adds.blocks > 0 ? (
            <Button variant="primary" onClick={() => void confirm()} disabled={busy !== null}>
              {busy === 'restoring' ? 'Adding...' : 'Add to this browser'}
            </Button>
          ) : plan ? null : (
            <Button type="submit" variant="primary" disabled={busy !== null}>
              {busy === 'checking' ? 'Checking...' : 'Check backup'}
            </Button>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
