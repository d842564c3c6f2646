import { memo } from 'react';
import Table from 'react-bootstrap/Table';
import { SideScrollBox } from '../../components/side-scroll-box';
import { formatCount, formatHashRate, formatMs, formatSeconds } from './lab-format';
import { PLACE_LABELS, type LabRun } from './lab-run';

const FROZEN_MS = 50; // a frame gap or task this long is a visible stall

// Every run of this visit, newest first, so worker and main-thread mining can be compared side by side.
export const RunHistory = memo(function RunHistory({ runs }: { runs: readonly LabRun[] }) {
  if (runs.length === 0) return <p className="text-body-secondary small mb-0">No runs yet.</p>;
  return (
    // on a phone the secondary columns are left out; on the narrowest the rest scrolls, and says so
    <SideScrollBox label="Mining runs">
      <Table size="sm" className="mb-0 align-middle small lab-runs">
        <caption className="visually-hidden">Mining runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Where</th>
            <th scope="col" className="d-none d-md-table-cell">
              Difficulty
            </th>
            <th scope="col">Blocks</th>
            <th scope="col" className="d-none d-md-table-cell">
              Attempts
            </th>
            <th scope="col">Time</th>
            <th scope="col" className="d-none d-md-table-cell">
              Blocks/s
            </th>
            <th scope="col">Hash rate</th>
            <th scope="col" className="lab-runs-gap">
              {/* at most two lines on a phone, so the table fits its card */}
              Longest <span className="text-nowrap">frame gap</span>
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              Long tasks
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr
              key={run.id}
              data-place={run.place}
              data-difficulty={run.difficulty}
              data-blocks-mined={run.blocksMined}
              data-attempts={run.attempts}
              data-elapsed-ms={run.elapsedMs.toFixed(1)}
              data-hash-rate={run.hashRate.toFixed(0)}
              data-cancelled={run.cancelled}
            >
              <th scope="row">{PLACE_LABELS[run.place]}</th>
              <td className="d-none d-md-table-cell">{run.difficulty}</td>
              <td>
                {run.blocksMined} of {run.blocksTotal}
                {run.cancelled && <span className="text-body-secondary"> (cancelled)</span>}
              </td>
              <td className="d-none d-md-table-cell">{formatCount(run.attempts)}</td>
              <td>{formatSeconds(run.elapsedMs)}</td>
              <td className="d-none d-md-table-cell">
                {run.elapsedMs > 0 ? ((run.blocksMined * 1000) / run.elapsedMs).toFixed(2) : '–'}
              </td>
              <td>{formatHashRate(run.hashRate)}</td>
              <td className={run.maxFrameGapMs >= FROZEN_MS ? 'text-danger fw-semibold' : 'text-success'}>
                {formatMs(run.maxFrameGapMs)}
              </td>
              <td className={`d-none d-md-table-cell${run.longTasks && run.longTasks.count > 0 ? ' text-danger' : ''}`}>
                {run.longTasks ? `${run.longTasks.count} (${formatMs(run.longTasks.totalMs)})` : 'not measured'}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </SideScrollBox>
  );
});
