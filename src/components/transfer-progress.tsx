import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { formatBytes } from './format';
import type { RunningTransfer } from './transfer-job';

// The running export or backup: how far, in files and bytes, and Cancel.
export function TransferProgressPanel({ job, onCancel }: { job: RunningTransfer; onCancel: () => void }) {
  const { progress } = job;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  const detail = progress ? `${progress.done} of ${progress.total} files, ${formatBytes(progress.bytes)}` : 'Starting...';
  return (
    <div className="transfer-progress" role="group" aria-label={job.label}>
      <div className="d-flex justify-content-between align-items-center gap-2 mb-2">
        <span className="small">
          <strong>{job.label}</strong> <span aria-live="polite">{detail}</span>
        </span>
        <Button size="sm" variant="outline-secondary" onClick={onCancel} disabled={job.cancelling}>
          {job.cancelling ? 'Cancelling...' : 'Cancel'}
        </Button>
      </div>
      {/* stacked form: only then does react-bootstrap put the label on the element with role progressbar */}
      <ProgressBar>
        <ProgressBar now={percent} aria-label={`${job.label}: ${percent}%`} />
      </ProgressBar>
    </div>
  );
}
