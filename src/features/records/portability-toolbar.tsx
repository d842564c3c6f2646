import { useCallback, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { BackupScope, RestorePlan } from '../../../workers/api';
import type { Patient } from '../../../workers/core/types';
import { SectionCard } from '../../components/section-card';
import { formatBytes } from '../../components/format';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { useSession } from '../../auth/use-session';
import { BackupPasswordModal } from './backup-password-modal';
import { ImportModal } from './import-modal';
import { PrintSummary, type SummaryData } from './print-summary';
import { RestoreBackupModal } from './restore-backup-modal';
import { TransferProgressPanel } from './transfer-progress';
import { useTransferJob } from './transfer-job';
import { RESTORED_NOTICE, leaveSignInNotice } from '../../components/sign-in-notice';

type Dialog = BackupScope | 'restore' | 'import' | null;

// Records that leave with the patient: FHIR export and import, the encrypted backup (their own, or the whole
// browser's) and its restore, the printable summary (docs/decisions/fhir-portability.md, restore-merges.md).
export function PortabilityToolbar({ patient }: { patient: Patient }) {
  const service = useLedger();
  const { user, signOut } = useSession();
  const mayBackUpBrowser = user?.role === 'patient'; // the worker refuses a doctor the whole browser's backup
  const { running, run, cancel } = useTransferJob();
  const [withFiles, setWithFiles] = useState(true);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<{ variant: 'success' | 'danger' | 'secondary'; text: string } | null>(null);
  const [summary, setSummary] = useState<SummaryData | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  const say = (variant: 'success' | 'danger' | 'secondary', text: string) => {
    setNotice({ variant, text });
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  const exportFhir = async () => {
    setNotice(null);
    try {
      const file = await run('Exporting your records', (jobId, onProgress) =>
        service.exportFhir(jobId, { withFiles }, onProgress),
      );
      say(
        file ? 'success' : 'secondary',
        file ? `Saved ${file.fileName} (${formatBytes(file.size)}).` : 'The export was cancelled.',
      );
    } catch (caught) {
      say('danger', userMessage(caught, 'The export failed. Please try again.'));
    }
  };

  const backup = async (scope: BackupScope, password: string) => {
    setDialog(null);
    setNotice(null);
    try {
      const file = await run('Writing the backup', (jobId, onProgress) =>
        service.downloadBackup(jobId, password, scope, onProgress),
      );
      say(
        file ? 'success' : 'secondary',
        file
          ? `Saved ${file.fileName} (${formatBytes(file.size)}). Keep the password: it cannot be recovered.`
          : 'The backup was cancelled.',
      );
    } catch (caught) {
      say('danger', userMessage(caught, 'The backup failed. Please try again.'));
    }
  };

  const print = async () => {
    setNotice(null);
    try {
      const [records, history] = await Promise.all([service.listRecords(patient.id), service.accessHistory()]);
      setSummary({ patient, records, history, printedAt: new Date().toISOString() });
    } catch (caught) {
      say('danger', userMessage(caught, 'The summary could not be prepared. Please try again.'));
    }
  };

  const printed = useCallback(() => setSummary(null), []);
  const busy = running !== null;

  return (
    <SectionCard title="Take your records with you" icon="share">
      <div className="portability-actions">
        <div className="portability-group">
          <Button variant="outline-primary" size="sm" onClick={() => void exportFhir()} disabled={busy}>
            Export (FHIR)
          </Button>
          <Form.Check
            id="export-without-files"
            type="checkbox"
            label="Without files"
            checked={!withFiles}
            onChange={(event) => setWithFiles(!event.target.checked)}
            disabled={busy}
          />
        </div>
        <Button variant="outline-primary" size="sm" onClick={() => setDialog('import')} disabled={busy}>
          Import (FHIR)
        </Button>
        <Button variant="outline-primary" size="sm" onClick={() => setDialog('mine')} disabled={busy}>
          Download my backup
        </Button>
        {mayBackUpBrowser ? (
          <Button variant="outline-primary" size="sm" onClick={() => setDialog('browser')} disabled={busy}>
            Back up this whole browser
          </Button>
        ) : null}
        <Button variant="outline-primary" size="sm" onClick={() => setDialog('restore')} disabled={busy}>
          Restore backup
        </Button>
        <Button variant="outline-primary" size="sm" onClick={() => void print()} disabled={busy}>
          Print summary
        </Button>
      </div>
      {running ? <TransferProgressPanel job={running} onCancel={cancel} /> : null}
      {notice ? (
        <Alert
          variant={notice.variant}
          className="mt-3 mb-0"
          ref={noticeRef}
          tabIndex={-1}
          role={notice.variant === 'danger' ? 'alert' : 'status'}
          dismissible
          onClose={() => setNotice(null)}
        >
          {notice.text}
        </Alert>
      ) : null}
      <BackupPasswordModal
        scope={dialog === 'browser' ? 'browser' : 'mine'}
        show={dialog === 'mine' || dialog === 'browser'}
        onCancel={() => setDialog(null)}
        onSubmit={(scope, password) => void backup(scope, password)}
      />
      <ImportModal show={dialog === 'import'} onClose={() => setDialog(null)} />
      <RestoreBackupModal
        show={dialog === 'restore'}
        onClose={() => setDialog(null)}
        onRestored={(plan: RestorePlan) => {
          setDialog(null);
          if (plan.mode === 'merge') {
            const blocks = plan.adds.blocks === 1 ? '1 block' : `${plan.adds.blocks} blocks`;
            if (plan.adds.blocks > 0) say('success', `Added ${blocks} from the backup. Nothing this browser held was dropped.`);
            return; // this browser's keys stay: the session goes on
          }
          leaveSignInNotice(RESTORED_NOTICE); // the login screen says why the user was signed out
          void signOut(); // the restored ledger's keys sign from now on: they are unlocked at the next sign-in
        }}
      />
      {summary ? <PrintSummary data={summary} onDone={printed} /> : null}
    </SectionCard>
  );
}
