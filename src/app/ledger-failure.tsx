import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { LEDGER_DB_NAME } from '../../workers/core/constants';
import type { LedgerFailureProps } from '../ledger/ledger-provider';
import { clearStoredUser } from '../auth/session-storage';

type ResetState = 'idle' | 'confirming' | 'deleting' | 'blocked' | 'failed';

// The worker was stopped (ledger-worker.ts terminates it), so the page deletes the stored ledger itself: the
// worker's own reset cannot run when loading the ledger is what stops it.
function deleteLedgerDatabase(): Promise<'deleted' | 'blocked'> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(LEDGER_DB_NAME);
    request.onsuccess = () => resolve('deleted');
    request.onerror = () => reject(request.error ?? new Error('The database could not be deleted.'));
    request.onblocked = () => resolve('blocked'); // another tab still holds it open
  });
}

// The worker died or stopped answering: say so, keep the saved data's promise, and offer a way back.
export function LedgerFailure({ error, restart }: LedgerFailureProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [reset, setReset] = useState<ResetState>('idle');

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const resetLocalData = async () => {
    setReset('deleting');
    try {
      if ((await deleteLedgerDatabase()) === 'blocked') return setReset('blocked');
      clearStoredUser();
      window.location.reload();
    } catch {
      setReset('failed');
    }
  };

  return (
    <main className="route-error" aria-labelledby="ledger-failure-title">
      <div role="alert">
        <h1 className="h4" id="ledger-failure-title" tabIndex={-1} ref={heading}>
          The records service stopped
        </h1>
        <p>{error.message}</p>
        <p className="route-error-hint">
          Everything saved before is still in this browser. Anything that had not finished, such as an upload in progress, was not
          saved: do it again after the restart.
        </p>
      </div>
      <div className="d-flex flex-wrap gap-2 justify-content-center">
        <Button variant="primary" onClick={restart}>
          Restart the records service
        </Button>
        <Button variant="outline-primary" onClick={() => window.location.reload()}>
          Reload the page
        </Button>
        {reset === 'idle' ? (
          <Button variant="outline-dark" onClick={() => setReset('confirming')}>
            Reset local data
          </Button>
        ) : null}
      </div>
      {reset !== 'idle' ? (
        <div className="route-error-hint mt-3" role="status">
          {reset === 'blocked' ? (
            <p>Another MedLedger tab still has the records open: close it, then try again.</p>
          ) : reset === 'failed' ? (
            <p>The local data could not be deleted. Please try again.</p>
          ) : (
            <p>
              If the records service stops again after a restart, the stored records cannot be loaded. Resetting deletes every
              record stored in this browser and starts over with the demo records.
            </p>
          )}
          <div className="d-flex flex-wrap gap-2 justify-content-center">
            <Button variant="danger" onClick={() => void resetLocalData()} disabled={reset === 'deleting'}>
              {reset === 'deleting' ? 'Resetting...' : 'Delete the local data and start over'}
            </Button>
            <Button variant="secondary" onClick={() => setReset('idle')} disabled={reset === 'deleting'}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
    </main>
  );
}
