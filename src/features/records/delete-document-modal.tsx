import { useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { DocumentView, RecordView } from '../../../workers/api';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

export interface DeleteTarget {
  record: RecordView;
  document: DocumentView;
}

interface DeleteDocumentModalProps {
  target: DeleteTarget | null;
  onCancel: () => void;
  onDeleted: (target: DeleteTarget) => void;
  onExited?: (deleted: boolean) => void; // after the closing transition: where focus goes next
}

const DELETE_FAILED = 'The file could not be deleted. Please try again.';

export function DeleteDocumentModal({ target, onCancel, onDeleted, onExited }: DeleteDocumentModalProps) {
  const service = useLedger();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [succeeded, setSucceeded] = useState(false); // the trigger is gone after a deletion: do not send focus back to it
  const errorRef = useRef<HTMLDivElement>(null);
  const inFlight = useRef(false);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const confirm = async () => {
    if (!target || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      await service.deleteDocument(target.document.id);
      setSucceeded(true);
      onDeleted(target);
    } catch (caught) {
      setError(userMessage(caught, DELETE_FAILED));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const cancel = () => {
    if (busy) return;
    setError(null);
    onCancel();
  };

  return (
    <Modal
      show={target !== null}
      onHide={cancel}
      centered
      aria-labelledby={titleId}
      restoreFocus={!succeeded}
      onExited={() => {
        setError(null);
        setSucceeded(false);
        onExited?.(succeeded);
      }}
    >
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId} as="h2" className="h5">
          Delete this file?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {target ? (
          <>
            <p className="text-break">
              <strong>{target.document.fileName}</strong> of “{target.record.title}” will be removed from your document store.
              This cannot be undone.
            </p>
            <p className="mb-0 text-body-secondary small">
              The record stays on the chain (block #{target.record.blockIndex}), marked “file deleted”.
            </p>
          </>
        ) : null}
        {error ? (
          <Alert variant="danger" className="mt-3 mb-0" ref={errorRef} tabIndex={-1}>
            {error}
          </Alert>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={cancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Deleting...' : 'Delete file'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
