import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { ShareEntry as ShareEntryData } from '../../../workers/api';
import { accessLevelText } from '../../components/access-levels';
import { DetailList, type DetailFields } from '../../components/detail-list';
import { formatDateTime } from '../../components/format';
import { ShareExpiry } from '../../components/share-expiry';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

const STATUS: Record<ShareEntryData['status'], { label: string; bg: string }> = {
  active: { label: 'Active', bg: 'success' },
  revoked: { label: 'Revoked', bg: 'secondary' },
  expired: { label: 'Expired', bg: 'secondary' },
};

const REVOKE_FAILED = 'The share could not be revoked. Please try again.';

const at = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

interface ShareEntryProps {
  entry: ShareEntryData;
  onRevoked: (entry: ShareEntryData) => void;
}

// One share: who, what level, until when, the note, and every read the doctor made under it.
export function ShareEntry({ entry, onRevoked }: ShareEntryProps) {
  const service = useLedger();
  const { share, status, doctorName, reads } = entry;
  const [revoking, setRevoking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false); // a second click must not send a second revoke
  const errorRef = useRef<HTMLDivElement>(null);
  const titleId = `share-${share.id}-title`;

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const revoke = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setRevoking(true);
    setError(null);
    try {
      await service.revokeShare(share.id);
      onRevoked(entry); // stays disabled: the refreshed list shows the share as revoked
    } catch (caught) {
      console.error('MedLedger: revoking a share failed', caught);
      setError(userMessage(caught, REVOKE_FAILED));
      setRevoking(false);
      inFlight.current = false;
    }
  };

  const fields: DetailFields = [
    ['Access Level', accessLevelText(share.accessLevel)],
    ['Shared', at(share.createdAt)],
    [status === 'expired' ? 'Expired' : 'Expires', <ShareExpiry expiresAt={share.expiresAt} />],
    ...(share.revokedAt ? ([['Revoked', at(share.revokedAt)]] as const) : []),
    ['Note', share.note === '' ? 'None' : share.note],
  ];

  return (
    <li className="share-entry">
      <div className="share-entry-head">
        <h3 className="share-entry-title" id={titleId}>
          {doctorName}
        </h3>
        <Badge bg={STATUS[status].bg}>{STATUS[status].label}</Badge>
        {status === 'active' ? (
          <Button
            variant="outline-danger"
            size="sm"
            className="share-revoke"
            onClick={() => void revoke()}
            disabled={revoking}
            aria-label={`${revoking ? 'Revoking' : 'Revoke'} the share with ${doctorName}`}
          >
            {revoking ? 'Revoking...' : 'Revoke'}
          </Button>
        ) : null}
      </div>
      <DetailList fields={fields} />
      {error ? (
        <Alert variant="danger" role="alert" className="mt-2 mb-0" ref={errorRef} tabIndex={-1}>
          {error}
        </Alert>
      ) : null}
      <h4 className="share-reads-title">Access log</h4>
      {reads.length === 0 ? (
        <p className="share-reads-none">Not read yet</p>
      ) : (
        <ul className="share-reads">
          {reads.map((read, index) => (
            <li key={index}>
              <time dateTime={read.at}>{formatDateTime(read.at)}</time>
              <span>{read.what}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
