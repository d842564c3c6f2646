import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import type { EmergencyGrant } from '../../../workers/core/types';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { useActiveGrants } from '../../ledger/use-active-grants';
import { ActiveGrantPanel } from './active-grant-panel';
import { GrantForm } from './grant-form';
import { userName } from '../../components/user-name';
import { expiredText } from '../../components/grant-expiry';

export function EmergencyPage() {
  const grants = useActiveGrants(); // newest first
  const [granted, setGranted] = useState<EmergencyGrant | null>(null);
  const [closed, setClosed] = useState<readonly string[]>([]); // ended or expired here: never shown again
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  // A grant made here, else one still active from before (another visit, another tab).
  const active =
    [granted, ...(grants.data ?? [])].find(
      (grant): grant is EmergencyGrant => grant !== null && grant.isActive && !closed.includes(grant.id),
    ) ?? null;

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const close = (grant: EmergencyGrant, message: string) => {
    setClosed((ids) => [...ids, grant.id]);
    setGranted(null);
    setNotice(message);
  };

  return (
    <>
      <div className="page-header">
        <h1 className="page-title">SOS Emergency Access</h1>
        <p className="page-subtitle">
          Temporary access to a patient's records in an emergency. Access ends automatically when the time runs out.
        </p>
      </div>

      {notice && !active ? (
        <Alert variant="info" role="status" ref={noticeRef} tabIndex={-1} onClose={() => setNotice(null)} dismissible>
          {notice}
        </Alert>
      ) : null}

      {grants.error ? <LoadError error={grants.error} what="your active emergency sessions" onRetry={grants.reload} /> : null}

      {grants.loading && !granted ? (
        <PageSpinner label="Checking for an active emergency session" />
      ) : active ? (
        <ActiveGrantPanel
          key={active.id}
          grant={active}
          onEnded={() => close(active, `Emergency session for ${userName(active.patientId)} ended.`)}
          onExpired={() => close(active, expiredText(active))}
        />
      ) : (
        <GrantForm
          onGranted={(grant) => {
            setNotice(null);
            setGranted(grant);
          }}
        />
      )}
    </>
  );
}
