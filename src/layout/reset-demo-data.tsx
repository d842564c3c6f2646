import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { Role } from '../../workers/core/types';

// the dialog's code (a modal) loads when it is first asked for: it is not part of the first screen
const ResetDemoDialog = lazy(() => import('./reset-demo-dialog').then((module) => ({ default: module.ResetDemoDialog })));

// Start over with a fresh chain (docs/decisions/persistence.md); asks first, since every stored record goes.
export function ResetDemoData({ role, onDone }: { role: Role; onDone?: () => void }) {
  const [show, setShow] = useState(false);
  // a fresh dialog each time it opens: who may reset is asked again, since another tab may have written since
  const [opening, setOpening] = useState(0);
  return (
    <>
      <Button
        variant="outline-dark"
        size="sm"
        className="reset-demo-button w-100 mt-2"
        onClick={() => {
          setOpening((count) => count + 1);
          setShow(true);
        }}
      >
        Reset demo data
      </Button>
      {opening > 0 ? (
        <Suspense fallback={null}>
          <ResetDemoDialog key={opening} role={role} show={show} onHide={() => setShow(false)} onDone={onDone} />
        </Suspense>
      ) : null}
    </>
  );
}
