import { memo, useSyncExternalStore } from 'react';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { formatCount, formatHashRate, formatSeconds } from './lab-format';
import { PLACE_LABELS, type MiningPlace } from './lab-run';
import type { ProgressStore } from './progress-store';

// The progress bar and live figures of the current (or last) run.
export const MiningProgressPanel = memo(function MiningProgressPanel({
  store,
  place,
}: {
  store: ProgressStore;
  place: MiningPlace | null;
}) {
  const progress = useSyncExternalStore(store.subscribe, store.get);
  const percent = progress && progress.blocksTotal > 0 ? (progress.blocksMined / progress.blocksTotal) * 100 : 0;
  return (
    <>
      {/* stacked form: only then does react-bootstrap put the label on the element with role progressbar */}
      <ProgressBar className="mt-3 lab-progress">
        <ProgressBar
          now={percent}
          label={progress ? `${progress.blocksMined} of ${progress.blocksTotal}` : ''}
          visuallyHidden
          aria-label="Blocks mined"
        />
      </ProgressBar>
      {/* beside the bar, not inside it: a narrow bar would clip its own label */}
      <p className="lab-progress-label" aria-hidden="true">
        {progress ? `${progress.blocksMined} of ${progress.blocksTotal} blocks mined` : 'Not started'}
      </p>
      <dl className="row small mt-3 mb-2">
        <dt className="col-6 col-md-3">Hash rate</dt>
        <dd className="col-6 col-md-3 font-monospace">
          <span className="lab-live lab-live-long" data-testid="lab-hash-rate">
            {progress ? formatHashRate(progress.hashRate) : '–'}
          </span>
        </dd>
        <dt className="col-6 col-md-3">Attempts</dt>
        <dd className="col-6 col-md-3 font-monospace">
          <span className="lab-live lab-live-long">{progress ? formatCount(progress.attempts) : '–'}</span>
        </dd>
        <dt className="col-6 col-md-3">Elapsed</dt>
        <dd className="col-6 col-md-3 font-monospace">
          <span className="lab-live lab-live-long">{progress ? formatSeconds(progress.elapsedMs) : '–'}</span>
        </dd>
        <dt className="col-6 col-md-3">Mining in</dt>
        <dd className="col-6 col-md-3">{place ? PLACE_LABELS[place] : '–'}</dd>
      </dl>
    </>
  );
});
