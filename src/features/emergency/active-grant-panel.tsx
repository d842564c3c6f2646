import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { findUser } from '../../../workers/core/directory';
import type { EmergencyGrant } from '../../../workers/core/types';
import { accessLevelText } from '../../components/access-levels';
import { Countdown } from '../../components/countdown';
import { formatDateTime, remainingUnits } from '../../components/format';
import { Icon } from '../../components/icon';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { GrantedRecords } from './granted-records';

interface ActiveGrantPanelProps {
  grant: EmergencyGrant;
  onEnded: () => void;
  onExpired: () => void;
}

const END_FAILED = 'The emergency session could not be ended. Please try again.';

export function ActiveGrantPanel({ grant, onEnded, onExpired }: ActiveGrantPanelProps) {
  const service = useLedger();
  const [ending, setEnding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const patient = findUser(grant.patientId);

  // The screen starts again at its top, where the red bar growing the sticky header pushes the panel down instead of
  // covering it: a focus scrolled the heading (or, on a phone, the countdown) under the bar that appears after it.
  useEffect(() => {
    window.scrollTo(0, 0);
    headingRef.current?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const end = async () => {
    if (ending) return;
    setEnding(true);
    setError(null);
    try {
      await service.endEmergencyAccess(grant.id);
      onEnded();
    } catch (caught) {
      console.error('MedLedger: ending the emergency session failed', caught);
      setError(userMessage(caught, END_FAILED));
      setEnding(false);
    }
  };

  return (
    <>
      <Card className="active-grant" as="section" aria-labelledby="active-grant-title">
        <Card.Header className="active-grant-header">
          <span className="pulse-dot pulse-dot-danger" aria-hidden="true" />
          <h2 className="h5 mb-0" id="active-grant-title" ref={headingRef} tabIndex={-1}>
            Emergency Access Active
          </h2>
        </Card.Header>
        <Card.Body>
          <div className="countdown-box">
            <Countdown
              expiresAt={grant.expiresAt}
              onExpire={onExpired}
              className="countdown-value"
              describe={(left) => <div className="countdown-label">time remaining ({remainingUnits(left)})</div>}
            />
          </div>
          <dl className="detail-list">
            <div>
              <dt>Patient</dt>
              <dd>
                {patient?.name ?? grant.patientId} <span className="text-body-secondary">({grant.patientId})</span>
              </dd>
            </div>
            <div>
              <dt>Access Level</dt>
              <dd>{accessLevelText(grant.accessLevel)}</dd>
            </div>
            <div>
              <dt>Expires</dt>
              <dd>
                <time dateTime={grant.expiresAt}>{formatDateTime(grant.expiresAt)}</time>
              </dd>
            </div>
            <div>
              <dt>Reason</dt>
              <dd className="text-break">{grant.reason}</dd>
            </div>
          </dl>
          {error ? (
            <Alert variant="danger" role="alert" ref={errorRef} tabIndex={-1}>
              {error}
            </Alert>
          ) : null}
          <Button variant="danger" onClick={() => void end()} disabled={ending}>
            <Icon name="cross" size={16} /> {ending ? 'Ending...' : 'End Emergency Session'}
          </Button>
        </Card.Body>
      </Card>
      <GrantedRecords grant={grant} />
    </>
  );
}
