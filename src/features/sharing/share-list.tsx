import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import type { ShareEntry as ShareEntryData } from '../../../workers/api';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { SectionCard } from '../../components/section-card';
import { useReloadAtExpiry } from '../../components/use-reload-at-expiry';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';
import { ShareEntry } from './share-entry';
import { WhoCanRead } from './who-can-read';

const loadShares = (service: LedgerRemote) => service.myShares(); // module level: stable for useLedgerQuery

// Every share of the patient, active ones first, each newest first (as the worker lists them).
export function ShareList({ onRevoked }: { onRevoked?: (entry: ShareEntryData) => void }) {
  // shares and revokes are 'grants' changes, the doctor's reads 'access' ones
  const query = useLedgerQuery(loadShares, ['grants', 'access'], 'my-shares');
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const active = query.data?.filter((entry) => entry.status === 'active') ?? [];
  const past = query.data?.filter((entry) => entry.status !== 'active') ?? [];
  useReloadAtExpiry(
    active.map((entry) => entry.share.expiresAt),
    query.reload,
  );

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const revoked = (entry: ShareEntryData) => {
    setNotice(`${entry.doctorName} can no longer read your records.`);
    onRevoked?.(entry);
  };

  if (!query.data) {
    return query.error ? (
      <LoadError error={query.error} what="your shares" onRetry={query.reload} />
    ) : (
      <PageSpinner label="Loading your shares" />
    );
  }

  return (
    <div className="share-lists">
      {notice ? (
        <Alert
          variant="success"
          role="status"
          className="mb-0"
          ref={noticeRef}
          tabIndex={-1}
          dismissible
          onClose={() => setNotice(null)}
        >
          {notice}
        </Alert>
      ) : null}
      <SectionCard title="Active Shares" icon="share" flush>
        {active.length === 0 ? (
          <div className="empty-state">No doctor can read your records through a share.</div>
        ) : (
          <ul className="share-list">
            {active.map((entry) => (
              <ShareEntry key={entry.share.id} entry={entry} onRevoked={revoked} />
            ))}
          </ul>
        )}
      </SectionCard>
      <WhoCanRead activeShares={active} />
      {past.length > 0 ? (
        <SectionCard title="Past Shares" icon="clock" flush>
          <ul className="share-list">
            {past.map((entry) => (
              <ShareEntry key={entry.share.id} entry={entry} onRevoked={revoked} />
            ))}
          </ul>
        </SectionCard>
      ) : null}
    </div>
  );
}
