import { useEffect, useRef } from 'react';
import Badge from 'react-bootstrap/Badge';
import { useLocation } from 'react-router-dom';
import { useSession } from '../../auth/use-session';
import type { AccessHistoryEntry } from '../../../workers/api';
import { accessLevelText } from '../../components/access-levels';
import { formatDateTime, formatDuration } from '../../components/format';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { SectionCard } from '../../components/section-card';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';

export const ACCESS_HISTORY_ANCHOR = 'access-history';

const STATUS: Record<AccessHistoryEntry['status'], { label: string; bg: string; text?: 'dark' }> = {
  active: { label: 'Active', bg: 'warning', text: 'dark' },
  ended: { label: 'Ended', bg: 'secondary' },
  expired: { label: 'Expired', bg: 'secondary' },
};

const END_TERMS: Record<AccessHistoryEntry['status'], string> = { active: 'Expires', ended: 'Ended', expired: 'Expired' };

// A closed session whose start and end read the same on screen: one "Started and ended" row, not two equal times.
function closedWithinAMinute(entry: AccessHistoryEntry): boolean {
  return entry.status !== 'active' && formatDateTime(entry.startedAt) === formatDateTime(entry.endedAt ?? entry.expiresAt);
}

// How the session closed and how long it was open, in the patient's words.
function sessionOutcome(entry: AccessHistoryEntry, patientName: string | undefined): string {
  const lasted = closedWithinAMinute(entry)
    ? 'less than a minute'
    : formatDuration(Date.parse(entry.endedAt ?? entry.expiresAt) - Date.parse(entry.startedAt));
  const by = entry.endedBy ?? entry.doctorName;
  if (entry.status === 'ended') return `Ended by ${by === patientName ? 'you' : by} after ${lasted}`;
  if (entry.status === 'expired') return `Expired on its own after ${lasted}`;
  return `Open now, for up to ${lasted}`; // an open session has no end yet: lasted runs to its expiry
}

const loadHistory = (service: LedgerRemote) => service.accessHistory(); // module level: stable for useLedgerQuery

// Every break-the-glass access to the patient's records, built from the chain by the worker (docs/decisions/enforced-emergency-access.md).
export function AccessHistory() {
  const query = useLedgerQuery(loadHistory, ['grants', 'access'], 'access-history');
  const patientName = useSession().user?.name;
  const { hash } = useLocation();
  const anchorRef = useRef<HTMLDivElement>(null);
  const scrolled = useRef(false);

  useEffect(() => {
    if (hash !== `#${ACCESS_HISTORY_ANCHOR}` || !query.data || scrolled.current) return;
    scrolled.current = true;
    anchorRef.current?.scrollIntoView();
  }, [hash, query.data]);

  return (
    <div id={ACCESS_HISTORY_ANCHOR} ref={anchorRef} className="access-history">
      <SectionCard title="Emergency Access History" icon="alert" flush>
        {!query.data ? (
          query.error ? (
            <div className="p-3">
              <LoadError error={query.error} what="your access history" onRetry={query.reload} />
            </div>
          ) : (
            <PageSpinner label="Loading your access history" />
          )
        ) : query.data.length === 0 ? (
          <div className="empty-state">No doctor has used emergency access to your records.</div>
        ) : (
          <ul className="access-history-list">
            {query.data.map((entry) => {
              const status = STATUS[entry.status];
              const end = entry.status === 'active' ? entry.expiresAt : (entry.endedAt ?? entry.expiresAt);
              return (
                <li key={entry.grantId} className="access-entry">
                  <div className="access-entry-head">
                    <h3 className="access-entry-title">{entry.doctorName}</h3>
                    <Badge bg={status.bg} text={status.text}>
                      {status.label}
                    </Badge>
                  </div>
                  <dl className="detail-list">
                    <div>
                      <dt>Reason</dt>
                      <dd>{entry.reason}</dd>
                    </div>
                    <div>
                      <dt>Access Level</dt>
                      <dd>{accessLevelText(entry.accessLevel)}</dd>
                    </div>
                    {closedWithinAMinute(entry) ? (
                      <div>
                        <dt>Started and ended</dt>
                        <dd>
                          <time dateTime={entry.startedAt}>{formatDateTime(entry.startedAt)}</time>
                        </dd>
                      </div>
                    ) : (
                      <>
                        <div>
                          <dt>Started</dt>
                          <dd>
                            <time dateTime={entry.startedAt}>{formatDateTime(entry.startedAt)}</time>
                          </dd>
                        </div>
                        <div>
                          <dt>{END_TERMS[entry.status]}</dt>
                          <dd>
                            <time dateTime={end}>{formatDateTime(end)}</time>
                          </dd>
                        </div>
                      </>
                    )}
                    <div>
                      <dt>Session</dt>
                      <dd className="access-entry-outcome">{sessionOutcome(entry, patientName)}</dd>
                    </div>
                  </dl>
                  <h4 className="access-reads-title">What was read</h4>
                  {entry.reads.length === 0 ? (
                    <p className="access-reads-none">Nothing was read.</p>
                  ) : (
                    <ul className="access-reads">
                      {entry.reads.map((read, index) => (
                        <li key={index}>
                          <time dateTime={read.at}>{formatDateTime(read.at)}</time>
                          <span>{read.what}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </SectionCard>
    </div>
  );
}
