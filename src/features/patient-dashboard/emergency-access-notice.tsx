import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router-dom';
import type { AccessHistoryEntry } from '../../../workers/api';
import { formatDateTime } from '../../components/format';
import { Icon } from '../../components/icon';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

const STATUS_LABELS: Record<AccessHistoryEntry['status'], string> = {
  active: 'active now',
  ended: 'ended',
  expired: 'expired',
};

// The patient sees every emergency access to their records until they dismiss it (docs/decisions/enforced-emergency-access.md).
export function EmergencyAccessNotice({ entries }: { entries: readonly AccessHistoryEntry[] }) {
  const service = useLedger();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (entries.length === 0) return null;

  const dismiss = async () => {
    setBusy(true);
    setError(null);
    try {
      await service.acknowledgeEmergencyAccesses(); // the change notification refreshes the dashboard
    } catch (caught) {
      setError(userMessage(caught, 'Could not dismiss the notice. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Alert variant="warning" className="emergency-notice" aria-labelledby="emergency-notice-title">
      <div className="d-flex align-items-start gap-3">
        <Icon name="alert" size={22} className="mt-1" />
        <div className="flex-grow-1 min-w-0">
          <h2 className="h6 mb-2" id="emergency-notice-title">
            Emergency access to your records
          </h2>
          <ul className="mb-2 ps-3">
            {entries.map((entry) => (
              <li key={entry.grantId}>
                <strong>{entry.doctorName}</strong>, {entry.accessLevel} access, {formatDateTime(entry.startedAt)} (
                {STATUS_LABELS[entry.status]}). Reason: {entry.reason}
              </li>
            ))}
          </ul>
          {error ? (
            <div className="text-danger small mb-2" role="alert">
              {error}
            </div>
          ) : null}
          <div className="d-flex flex-wrap align-items-center gap-2">
            <Button variant="outline-dark" size="sm" onClick={() => void dismiss()} disabled={busy}>
              Dismiss
            </Button>
            <Link to="/patient/records#access-history" className="alert-link small">
              See the access history
            </Link>
          </div>
        </div>
      </div>
    </Alert>
  );
}
