import { useEffect, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import type { LedgerFailureProps } from '../ledger/ledger-provider';

// The worker died or stopped answering: say so, keep the saved data's promise, and offer a way back.
export function LedgerFailure({ error, restart }: LedgerFailureProps) {
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
  }, []);

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
      </div>
    </main>
  );
}
