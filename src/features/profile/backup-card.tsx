import { BackupRestoreButtons } from '../../components/backup-restore-buttons';
import { SectionCard } from '../../components/section-card';
import { TransferProgressPanel } from '../../components/transfer-progress';
import { useTransferJob } from '../../components/transfer-job';
import { useTransferNotice } from '../../components/transfer-notice';

// A doctor's own backup and its restore (patients have theirs on Medical Records): what they may read and their key,
// sealed under a password of their choosing; it restores into any browser of the demo ledger (docs/decisions/one-demo-ledger.md).
export function BackupCard() {
  const { running, run, cancel } = useTransferJob();
  const notice = useTransferNotice();
  return (
    <SectionCard title="Your backup" icon="share" fill>
      <p className="small text-body-secondary">
        Your backup holds the records you may read and your key, sealed by a password you choose. Restore it in any browser of
        MedLedger: it adds what that browser lacks and you stay signed in.
      </p>
      <div className="d-flex flex-wrap gap-2">
        <BackupRestoreButtons run={run} busy={running !== null} say={notice.say} />
      </div>
      {running ? <TransferProgressPanel job={running} onCancel={cancel} /> : null}
      {notice.element}
    </SectionCard>
  );
}
