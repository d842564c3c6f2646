import { useEffect, useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import { CARE_CONSENT_MEANING } from './care-consent-switch';

// Asked on a patient's first Connect, before anything leaves the device: their choice is a block, then the device connects.
export function CareConsentQuestion({
  busy,
  onAnswer,
  onCancel,
}: {
  busy: boolean;
  onAnswer: (on: boolean) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []); // the question replaces the button that was pressed: move to it
  return (
    <div role="group" aria-labelledby={`${id}-question`} aria-describedby={`${id}-meaning`} className="border rounded p-3 mb-2">
      <h3 id={`${id}-question`} className="h6" tabIndex={-1} ref={headingRef}>
        Before you connect: may the care network open your files in an emergency?
      </h3>
      <p id={`${id}-meaning`} className="small">
        {CARE_CONSENT_MEANING} You can change this later on this card.
      </p>
      <div className="d-flex flex-wrap gap-2">
        <Button variant="primary" disabled={busy} onClick={() => onAnswer(true)}>
          Allow and connect
        </Button>
        <Button variant="outline-dark" disabled={busy} onClick={() => onAnswer(false)}>
          Don&apos;t allow and connect
        </Button>
        <Button variant="link" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
