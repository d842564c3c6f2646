import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { MAX_SHARE_NOTE_LENGTH } from '../../../workers/core/constants';
import { DOCTORS } from '../../../workers/core/directory';
import type { AccessLevel, Share } from '../../../workers/core/types';
import { AccessLevelField } from '../../components/access-level-field';
import { DurationSelect } from '../../components/duration-select';
import { accessLevelLabel } from '../../components/access-levels';
import { formatDateTime } from '../../components/format';
import { Icon } from '../../components/icon';
import { LengthNote } from '../../components/length-note';
import { errorName, userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { DEFAULT_SHARE_DAYS, SHARE_DURATION_OPTIONS } from './share-options';

const SHARE_FAILED = 'Your records could not be shared. Please try again.';

function sharedMessage(share: Share): string {
  const doctor = DOCTORS.find((candidate) => candidate.id === share.doctorId)?.name ?? share.doctorId;
  const level = accessLevelLabel(share.accessLevel);
  const until = share.expiresAt === null ? 'until you revoke it' : `until ${formatDateTime(share.expiresAt)}`;
  return `Shared with ${doctor}: ${level.toLowerCase()} access ${until}.`;
}

// The worker checks the request (workers/core/access.ts, validateShareRequest); its message is shown as it words it.
export function ShareForm({ revokedIds }: { revokedIds: ReadonlySet<string> }) {
  const service = useLedger();
  const [doctorId, setDoctorId] = useState('');
  const [level, setLevel] = useState<AccessLevel>('basic');
  const [days, setDays] = useState<number>(DEFAULT_SHARE_DAYS);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shared, setShared] = useState<Share | null>(null);
  const inFlight = useRef(false); // a double click must not share twice
  const errorRef = useRef<HTMLDivElement>(null);
  const sharedRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  useEffect(() => {
    if (shared) sharedRef.current?.focus();
  }, [shared]);

  const noteLength = note.trim().length; // the worker's limit counts the trimmed note
  const noteTooLong = noteLength > MAX_SHARE_NOTE_LENGTH;
  const doctorMissing = error !== null && doctorId === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    setShared(null);
    try {
      const share = await service.shareRecords({ doctorId, accessLevel: level, durationDays: days, note });
      setDoctorId('');
      setLevel('basic');
      setDays(DEFAULT_SHARE_DAYS);
      setNote('');
      setShared(share);
    } catch (caught) {
      if (errorName(caught) !== 'ValidationError') console.error('MedLedger: sharing failed', caught); // a refused choice is no fault
      setError(userMessage(caught, SHARE_FAILED));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <Card className="share-card">
      <Card.Body>
        <Form onSubmit={(event) => void submit(event)} aria-label="Share records" noValidate>
          <fieldset disabled={busy}>
            <div className="row g-3 mb-3">
              <Form.Group className="col-md-7" controlId="share-doctor">
                <Form.Label>Doctor</Form.Label>
                <Form.Select
                  value={doctorId}
                  onChange={(event) => setDoctorId(event.target.value)}
                  isInvalid={doctorMissing}
                  aria-invalid={doctorMissing || undefined}
                  aria-describedby={doctorMissing ? 'share-error' : undefined}
                >
                  <option value="">Choose a doctor</option>
                  {DOCTORS.map((doctor) => (
                    <option key={doctor.id} value={doctor.id}>
                      {doctor.name} ({doctor.specialization})
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <DurationSelect
                id="share-duration"
                className="col-md-5"
                value={days}
                options={SHARE_DURATION_OPTIONS}
                onChange={setDays}
              />
            </div>

            <AccessLevelField name="share-level" value={level} onChange={setLevel} className="mb-3" />

            <Form.Group className="mb-3" controlId="share-note">
              <Form.Label>
                Note for the doctor <span className="text-body-secondary fw-normal">(optional)</span>
              </Form.Label>
              <Form.Control
                as="textarea"
                rows={2}
                isInvalid={noteTooLong}
                aria-invalid={noteTooLong || undefined}
                aria-describedby="share-note-limit share-note-count"
                value={note}
                onChange={(event) => setNote(event.target.value)}
                placeholder="e.g. Second opinion on my cardiology results"
              />
              <LengthNote id="share-note" what="note" length={noteLength} max={MAX_SHARE_NOTE_LENGTH} />
            </Form.Group>
          </fieldset>

          {error ? (
            <Alert variant="danger" role="alert" id="share-error" ref={errorRef} tabIndex={-1}>
              {error}
            </Alert>
          ) : null}
          {shared && !revokedIds.has(shared.id) ? (
            <Alert variant="success" role="status" ref={sharedRef} tabIndex={-1} dismissible onClose={() => setShared(null)}>
              {sharedMessage(shared)}
            </Alert>
          ) : null}

          <Button type="submit" disabled={busy}>
            {busy ? (
              <>
                <Spinner animation="border" size="sm" aria-hidden="true" /> Sharing...
              </>
            ) : (
              <>
                <Icon name="share" size={16} /> Share records
              </>
            )}
          </Button>
          <p className="small text-body-secondary mt-3 mb-0">
            The doctor sees what the level allows until the share ends or you revoke it. Each read is recorded on the chain and
            listed below.
          </p>
        </Form>
      </Card.Body>
    </Card>
  );
}
