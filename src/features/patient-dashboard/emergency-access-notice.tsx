import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router-dom';
import type { AccessHistoryEntry } from '../../../workers/api';
import { useSession } from '../../auth/use-session';
import { formatDateTime } from '../../components/format';
import { Icon } from '../../components/icon';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

function statusLabel(entry: AccessHistoryEntry, patientName: string | undefined): string {
  if (entry.status === 'active') return 'active now';
  if (entry.status === 'expired') return 'expired';
  return entry.endedBy === patientName ? 'ended by you' : 'ended';
}

// The patient sees every emergency access to their records until they dismiss it, and may end one still open;
// Dismiss waits until none is open, so the alert never hides a session that can still read
// (docs/decisions/enforced-emergency-access.md).
export function EmergencyAccessNotice({ entries }: { entries: readonly AccessHistoryEntry[] }) {
  const service = useLedger();
  const patientName = useSession().user?.name;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (entries.length === 0) return null;
  const open = entries.some((entry) => entry.status === 'active');

  const run = async (action: () => Promise<unknown>, failure: string) => {
    setBusy(true);
    setError(null);
    try {
      await action(); // the change notification refreshes the dashboard
    } catch (caught) {
      setError(userMessage(caught, failure));
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
                {statusLabel(entry, patientName)}). Reason: {entry.reason}
                {entry.status === 'active' ? (
                  <>
                    {' '}
                    <Button
                      variant="danger"
                      size="sm"
                      className="ms-1"
                      aria-label={`End the emergency session of ${entry.doctorName}`}
                      onClick={() =>
                        void run(
                          () => service.endEmergencyAccessAsPatient(entry.grantId),
                          'Could not end the emergency session. Please try again.',
                        )
                      }
                      disabled={busy}
                    >
                      End session
                    </Button>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          {error ? (
            <div className="text-danger small mb-2" role="alert">
              {error}
            </div>
          ) : null}
          <div className="d-flex flex-wrap align-items-center gap-2">
            {open ? null : (
              <Button
                variant="outline-dark"
                size="sm"
                onClick={() =>
                  void run(() => service.acknowledgeEmergencyAccesses(), 'Could not dismiss the notice. Please try again.')
                }
                disabled={busy}
              >
                Dismiss
              </Button>
            )}
            <Link to="/patient/records#access-history" className="alert-link small">
              See the access history
            </Link>
          </div>
        </div>
      </div>
    </Alert>
  );
}
