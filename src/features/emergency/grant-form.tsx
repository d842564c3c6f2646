import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_EMERGENCY_DURATION, MAX_REASON_LENGTH } from '../../../workers/core/constants';
import { PATIENTS } from '../../../workers/core/directory';
import { checkText } from '../../../workers/core/text-input';
import type { AccessLevel, EmergencyGrant, Patient } from '../../../workers/core/types';
import { AccessLevelField } from '../../components/access-level-field';
import { DurationSelect } from '../../components/duration-select';
import { Icon } from '../../components/icon';
import { LengthNote } from '../../components/length-note';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { DURATION_OPTIONS } from './emergency-options';
import { PatientSearch } from './patient-search';

const GRANT_FAILED = 'Emergency access could not be granted. Please try again.';

// What the form still lacks, and only that.
function missingHint(hasPatient: boolean, hasReason: boolean): string {
  if (!hasPatient && !hasReason) return 'Select a patient and enter a reason to continue.';
  return hasPatient ? 'Enter a reason to continue.' : 'Select a patient to continue.';
}

export function GrantForm({ onGranted }: { onGranted: (grant: EmergencyGrant) => void }) {
  const service = useLedger();
  const [params] = useSearchParams();
  // My Patients links here with ?patient=<id>: start with that patient selected
  const [patient, setPatient] = useState<Patient | null>(() => PATIENTS.find((p) => p.id === params.get('patient')) ?? null);
  const [reason, setReason] = useState('');
  const [level, setLevel] = useState<AccessLevel>('basic');
  const [duration, setDuration] = useState<number>(DEFAULT_EMERGENCY_DURATION);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false); // a double click must not request two grants
  const errorRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const reasonCheck = checkText('reason', reason); // the worker's rule, on the normalised, trimmed reason
  const reasonLength = reasonCheck.text.length;
  const reasonTooLong = reasonLength > MAX_REASON_LENGTH;
  const reasonProblem = reasonCheck.blank ? null : reasonCheck.problem; // a blank reason is the hint's business
  const canGrant = patient !== null && !reasonCheck.blank && reasonProblem === null && !busy;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current || !patient || reasonCheck.blank || reasonProblem !== null) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      const grant = await service.requestEmergencyAccess({
        patientId: patient.id,
        reason: reasonCheck.text,
        accessLevel: level,
        durationMinutes: duration,
      });
      onGranted(grant);
    } catch (caught) {
      console.error('MedLedger: emergency grant failed', caught);
      setError(userMessage(caught, GRANT_FAILED));
      setBusy(false);
    } finally {
      inFlight.current = false;
    }
  };

  return (
    <Card className="grant-card">
      <Card.Body>
        <Form onSubmit={(event) => void submit(event)} aria-label="Request emergency access" noValidate>
          <fieldset disabled={busy}>
            <PatientSearch selected={patient} onSelect={setPatient} />

            <Form.Group className="mb-3" controlId="emergency-reason">
              <Form.Label>Reason for emergency access</Form.Label>
              <Form.Control
                as="textarea"
                rows={3}
                required
                isInvalid={reasonProblem !== null}
                aria-invalid={reasonProblem !== null || undefined}
                aria-describedby="emergency-reason-limit emergency-reason-count"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                placeholder="e.g. Unconscious patient admitted to the ER, allergy check needed"
              />
              <LengthNote
                id="emergency-reason"
                what="reason"
                length={reasonLength}
                max={MAX_REASON_LENGTH}
                problem={reasonProblem}
              />
            </Form.Group>

            <div className="row g-3 mb-3">
              <AccessLevelField name="access-level" value={level} onChange={setLevel} className="col-md-7" />
              <DurationSelect
                id="emergency-duration"
                className="col-md-5"
                value={duration}
                options={DURATION_OPTIONS}
                onChange={setDuration}
              />
            </div>
          </fieldset>

          {error ? (
            <Alert variant="danger" role="alert" ref={errorRef} tabIndex={-1}>
              {error}
            </Alert>
          ) : null}

          <div className="d-flex flex-wrap align-items-center gap-2">
            <Button type="submit" variant="danger" disabled={!canGrant}>
              {busy ? (
                <>
                  <Spinner animation="border" size="sm" aria-hidden="true" /> Granting Access...
                </>
              ) : (
                <>
                  <Icon name="alert" size={16} /> Grant Emergency Access
                </>
              )}
            </Button>
            {!busy && !canGrant ? (
              <span className="small text-body-secondary">
                {reasonTooLong
                  ? 'Shorten the reason to continue.'
                  : reasonProblem
                    ? 'Correct the reason to continue.'
                    : missingHint(patient !== null, !reasonCheck.blank)}
              </span>
            ) : null}
          </div>
          <p className="small text-body-secondary mt-3 mb-0">
            Every emergency access is recorded on the chain and shown to the patient.
          </p>
        </Form>
      </Card.Body>
    </Card>
  );
}
