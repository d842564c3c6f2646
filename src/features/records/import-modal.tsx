import { useId, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { transfer } from 'comlink';
import type { ImportResult } from '../../../workers/api';
import { RECORD_TYPE_LABELS } from '../../components/record-type';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

const IMPORT_FAILED = 'The import failed. Nothing was stored. Please try again.';

// A FHIR R4 Bundle from MedLedger or another system: what was imported, and every entry skipped, with why.
export function ImportModal({ show, onClose }: { show: boolean; onClose: () => void }) {
  const service = useLedger();
  const titleId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    setError('');
    setResult(null);
    if (!file) return setError('Choose a FHIR JSON file to import.');
    setBusy(true);
    try {
      const bytes = await file.arrayBuffer();
      setResult(await service.importFhir(transfer(bytes, [bytes])));
    } catch (caught) {
      setError(userMessage(caught, IMPORT_FAILED));
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    if (busy) return;
    setError('');
    setResult(null);
    onClose();
  };

  return (
    <Modal show={show} onHide={close} centered aria-labelledby={titleId} size="lg">
      <Form onSubmit={(event) => void submit(event)}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId} as="h2" className="h5">
            Import (FHIR)
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small">
            A FHIR R4 Bundle (JSON), from MedLedger or another provider. Each DocumentReference or DiagnosticReport with attached
            files becomes a record, mined onto the chain; the upload rules apply to every file. If any entry is refused, nothing
            is stored.
          </p>
          <Form.Group controlId="import-file">
            <Form.Label>Bundle file</Form.Label>
            <Form.Control type="file" accept=".json,application/json,application/fhir+json" ref={fileRef} disabled={busy} />
          </Form.Group>
          {error ? (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {error}
            </Alert>
          ) : null}
          {result ? (
            <div className="mt-3" role="status">
              <Alert variant={result.imported.length > 0 ? 'success' : 'warning'} className="mb-2">
                {result.imported.length === 0
                  ? 'No record was imported: the Bundle has no document with attached data.'
                  : `Imported ${result.imported.length} ${result.imported.length === 1 ? 'record' : 'records'}.`}
              </Alert>
              {result.imported.length > 0 ? (
                <ul className="small mb-2">
                  {result.imported.map((record) => (
                    <li key={record.blockIndex}>
                      {record.title} ({RECORD_TYPE_LABELS[record.type]}, {record.files} {record.files === 1 ? 'file' : 'files'},
                      block #{record.blockIndex})
                    </li>
                  ))}
                </ul>
              ) : null}
              {result.skipped.length > 0 ? (
                <>
                  <h3 className="h6">Skipped ({result.skipped.length})</h3>
                  <ul className="small mb-0" aria-label="Skipped entries">
                    {result.skipped.map((skip) => (
                      <li key={skip.entry}>
                        Entry {skip.entry}, {skip.resourceType}: {skip.reason}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={close} disabled={busy}>
            {result ? 'Close' : 'Cancel'}
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Importing...' : 'Import'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
