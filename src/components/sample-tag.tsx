import { useId } from 'react';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';

const SAMPLE_EXPLANATION = 'Sample figure: fixed demo data, not taken from your records.';

// Marks a fixed demo figure (the sample constants of workers/core/constants.ts) so nobody mistakes it for real data.
export function SampleTag() {
  const id = useId();
  return (
    <OverlayTrigger placement="top" overlay={<Tooltip id={id}>{SAMPLE_EXPLANATION}</Tooltip>}>
      <button type="button" className="sample-tag" aria-label={`Sample. ${SAMPLE_EXPLANATION}`}>
        Sample
      </button>
    </OverlayTrigger>
  );
}
