import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useNavigate } from 'react-router-dom';
import type { Role } from '../../workers/core/types';
import { dashboardPath } from '../auth/dashboard-path';
import { userMessage } from '../ledger/error-message';
import { useLedger } from '../ledger/use-ledger';

const RESET_FAILED = 'The demo data could not be reset. Please try again.';

interface ResetDemoDialogProps {
  role: Role;
  show: boolean;
  onHide: () => void;
  onDone?: () => void;
}

// Asks before the reset, since every stored record goes (src/layout/reset-demo-data.tsx opens it).
export function ResetDemoDialog({ role, show, onHide, onDone }: ResetDemoDialogProps) {
  const service = useLedger();
  const navigate = useNavigate();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // the worker decides who may reset (a reset never drops what someone else wrote); the dialog says the same
  const [verdict, setVerdict] = useState<{ allowed: boolean; reason?: string } | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!show) return;
    let live = true;
    service.resetAllowed().then(
      (answer) => live && setVerdict(answer),
      (caught: unknown) => live && setVerdict({ allowed: false, reason: userMessage(caught, RESET_FAILED) }),
    );
    return () => {
      live = false;
    };
  }, [show, service]);

  useLayoutEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const close = () => {
    if (busy) return;
    onHide();
    setError(null);
  };

  const reset = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await service.resetDemoData(); // every screen refreshes on the change notice, other tabs too
      onHide();
      onDone?.();
      // a move that goes wrong shows RouteError (src/app/router.tsx): nothing to wait for here
      void navigate(dashboardPath(role));
    } catch (caught) {
      setError(userMessage(caught, RESET_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal show={show} onHide={close} centered aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5">
          Reset demo data?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          Every record, document, emergency access and access history entry stored in this browser is deleted, and a new chain
          starts from its first block. Open tabs of MedLedger follow.
        </p>
        <p className="mb-0 fw-semibold">This cannot be undone.</p>
        {verdict && !verdict.allowed ? (
          <Alert variant="warning" className="mt-3 mb-0">
            {verdict.reason}
          </Alert>
        ) : null}
        {error ? (
          <Alert variant="danger" className="mt-3 mb-0" ref={errorRef} tabIndex={-1}>
            {error}
          </Alert>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={close} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void reset()} disabled={busy || !verdict?.allowed}>
          {busy ? 'Resetting...' : 'Reset demo data'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
