import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import type { MiningProgress } from '../../../workers/api';
import { formatNumber } from '../../components/format';

export function formatHashRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M hashes/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k hashes/s`;
  return `${Math.round(perSecond)} hashes/s`;
}

// Below a second in whole milliseconds, so a fast run never reads "0.00 s".
export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms < 0.5 ? 'under 1 ms' : `${Math.round(ms)} ms`;
}

interface RemineProgressProps {
  from: number;
  progress: MiningProgress | null;
  cancelling: boolean;
  onCancel: () => void;
}

// A re-mine to the tip as it runs in the worker: blocks done, hash rate, time, and Cancel.
export function RemineProgress({ from, progress, cancelling, onCancel }: RemineProgressProps) {
  const done = progress?.blocksMined ?? 0;
  const total = progress?.blocksTotal ?? 0;
  return (
    <div className="mt-3" data-remine-running="true">
      {/* stacked form: only then does react-bootstrap put the label on the element with role progressbar */}
      <ProgressBar>
        <ProgressBar
          now={total > 0 ? (done / total) * 100 : 0}
          label={`${done} of ${total}`}
          visuallyHidden
          aria-label="Blocks re-mined"
        />
      </ProgressBar>
      <div className="d-flex flex-wrap align-items-center gap-3 mt-2 small">
        <span>
          Re-mining from block #{from}: {formatNumber(done)} of {formatNumber(total)} blocks
        </span>
        <span className="font-monospace">{progress ? formatHashRate(progress.hashRate) : '–'}</span>
        <span className="font-monospace">{progress ? formatDuration(progress.elapsedMs) : '–'}</span>
        <Button variant="outline-danger" size="sm" onClick={onCancel} disabled={cancelling}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </Button>
      </div>
    </div>
  );
}
