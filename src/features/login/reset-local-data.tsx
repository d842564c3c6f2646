import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

const RESET_FAILED = 'The local data could not be reset. Please try again.';

// Shown after an unexpected sign-in failure: when the stored ledger cannot be loaded, the worker lets anyone
// start this browser over (workers/ledger/policy.ts), since nothing in it can be trusted or read.
export function ResetLocalData({ onReset }: { onReset: () => void }) {
  const service = useLedger();
  const [allowed, setAllowed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    service.resetAllowed().then(
      (answer) => live && setAllowed(answer.allowed),
      () => undefined, // the worker cannot answer either: the page's own failure screen takes over
    );
    return () => {
      live = false;
    };
  }, [service]);

  if (!allowed) return null;

  const reset = async () => {
    setBusy(true);
    setError(null);
    try {
      await service.resetDemoData();
      onReset();
    } catch (caught) {
      setError(userMessage(caught, RESET_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mb-3">
      <p className="mb-2 small">The records stored in this browser could not be loaded, so nobody can sign in.</p>
      {confirming ? (
        <div className="d-flex flex-wrap gap-2 align-items-center">
          <span className="small fw-semibold">Delete every record stored in this browser and start over?</span>
          <Button size="sm" variant="danger" onClick={() => void reset()} disabled={busy}>
            {busy ? 'Resetting...' : 'Reset local data'}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button size="sm" variant="outline-dark" onClick={() => setConfirming(true)}>
          Reset local data
        </Button>
      )}
      {error ? <p className="mt-2 mb-0 small">{error}</p> : null}
    </div>
  );
}
