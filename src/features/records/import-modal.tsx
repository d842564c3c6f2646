import { useId, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { transfer } from 'comlink';
import type { ImportOptions, ImportResult, ImportedOverview } from '../../../workers/api';
import { formatDate, formatNumber } from '../../components/format';
import { RECORD_TYPE_LABELS } from '../../components/record-type';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

const IMPORT_FAILED = 'The import failed. Nothing was stored. Please try again.';

type OtherPatient = NonNullable<ImportResult['otherPatient']>;
type Skipped = ImportResult['skipped'];

// What a kind of entry that is not a document is, in a patient's words.
const KIND_WORDS: Record<string, string> = {
  Patient: 'Your details',
  Practitioner: 'Doctors’ details',
  Provenance: 'Where each record came from',
  AuditEvent: 'Emergency access events',
};

// A document by its title, one line each; the other entries one line per kind and reason, with how many.
function skippedLines(skipped: Skipped): { key: string; text: string }[] {
  const lines = new Map<string, { what: string; reason: string; count: number }>();
  for (const skip of skipped) {
    const key = skip.title ? `entry-${skip.entry}` : `${skip.resourceType}|${skip.reason}`;
    const line = lines.get(key);
    if (line) line.count += 1;
    else
      lines.set(key, {
        what: skip.title ? `“${skip.title}”` : (KIND_WORDS[skip.resourceType] ?? skip.resourceType),
        reason: skip.reason,
        count: 1,
      });
  }
  return [...lines].map(([key, { what, reason, count }]) => ({
    key,
    text: `${what}${count > 1 ? ` (${formatNumber(count)})` : ''}: ${reason}`,
  }));
}

// "blood type O+; allergies Penicillin, Peanuts; emergency contact Mark Johnson (spouse) +1 555 0142"
function overviewWords({ bloodType, allergies, emergencyContact }: ImportedOverview): string {
  return [
    bloodType ? `blood type ${bloodType}` : '',
    allergies.length > 0 ? `allergies ${allergies.join(', ')}` : '',
    emergencyContact ? `emergency contact ${emergencyContact}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

// "Sarah Johnson (born Apr 12, 1988)"; a partial FHIR birth date ('1988-04') is shown as the file gives it.
function whoIs({ name, birthDate }: OtherPatient): string {
  if (!birthDate) return name;
  return `${name} (born ${/^\d{4}-\d{2}-\d{2}$/.test(birthDate) ? formatDate(`${birthDate}T12:00:00`) : birthDate})`;
}

// A FHIR R4 Bundle from MedLedger or another system: what was imported, and every entry skipped, with why.
export function ImportModal({ show, onClose }: { show: boolean; onClose: () => void }) {
  const service = useLedger();
  const titleId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  // another patient's Bundle: nothing is stored until the patient confirms the warning naming them
  const [pending, setPending] = useState<{ file: File; otherPatient: OtherPatient } | null>(null);
  const [declined, setDeclined] = useState(false);

  const run = async (file: File, options?: ImportOptions) => {
    setError('');
    setResult(null);
    setPending(null);
    setDeclined(false);
    setBusy(true);
    try {
      const bytes = await file.arrayBuffer(); // read again on confirm: the first read was transferred to the worker
      const answer = await service.importFhir(transfer(bytes, [bytes]), options);
      if (answer.needsConfirmation && answer.otherPatient) setPending({ file, otherPatient: answer.otherPatient });
      else setResult(answer);
    } catch (caught) {
      setError(userMessage(caught, IMPORT_FAILED));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return; // Enter never confirms the warning
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setResult(null);
      return setError('Choose a FHIR JSON file to import.');
    }
    await run(file);
  };

  const decline = () => {
    setPending(null);
    setDeclined(true);
  };

  const close = () => {
    if (busy) return;
    setError('');
    setResult(null);
    setPending(null);
    setDeclined(false);
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
            <Form.Control
              type="file"
              accept=".json,application/json,application/fhir+json"
              ref={fileRef}
              disabled={busy || pending !== null}
            />
          </Form.Group>
          {pending ? (
            <Alert variant="warning" className="mt-3 mb-0" role="alert">
              This file holds the records of {whoIs(pending.otherPatient)}, not yours. Import them into your records anyway?
            </Alert>
          ) : null}
          {declined ? (
            <p className="small mt-3 mb-0" role="status">
              Nothing was imported.
            </p>
          ) : null}
          {error ? (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {error}
            </Alert>
          ) : null}
          {result ? (
            <div className="mt-3" role="status">
              <Alert variant={result.imported.length > 0 ? 'success' : 'warning'} className="mb-2">
                {result.imported.length === 0
                  ? 'No new record was added.'
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
              {result.healthOverview ? (
                <p className="small mb-2">
                  {result.healthOverview.matchesProfile
                    ? `Your health overview in this file (${overviewWords(result.healthOverview)}) is the same as on your profile.`
                    : `This file’s health overview (${overviewWords(result.healthOverview)}) is not the one on your profile. Your profile is kept by your clinic, so it was not changed: tell your doctor if yours is out of date.`}
                </p>
              ) : null}
              {result.skipped.length > 0 ? (
                <>
                  <h3 className="h6" id={`${titleId}-skipped`}>
                    Not added as records
                  </h3>
                  <ul className="small mb-0" aria-labelledby={`${titleId}-skipped`}>
                    {skippedLines(result.skipped).map((line) => (
                      <li key={line.key}>{line.text}</li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
          ) : null}
        </Modal.Body>
        {pending ? (
          // its own key: the footer's buttons are new nodes, so the focused Import button never becomes "Import anyway"
          <Modal.Footer key="confirm">
            {/* Cancel is the default: it takes the focus, and Enter does not confirm */}
            <Button variant="secondary" onClick={decline} autoFocus>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void run(pending.file, { otherPatientConfirmed: true })}>
              Import anyway
            </Button>
          </Modal.Footer>
        ) : (
          <Modal.Footer key="import">
            <Button variant="secondary" onClick={close} disabled={busy}>
              {result ? 'Close' : 'Cancel'}
            </Button>
            <Button type="submit" variant="primary" disabled={busy}>
              {busy ? 'Importing...' : 'Import'}
            </Button>
          </Modal.Footer>
        )}
      </Form>
    </Modal>
  );
}
