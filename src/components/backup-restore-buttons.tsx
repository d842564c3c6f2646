import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { BackupScope, ExportedFile, RestorePlan, TransferProgressListener } from '../../workers/api';
import { useSession } from '../auth/use-session';
import { useLedger } from '../ledger/use-ledger';
import { userMessage } from '../ledger/error-message';
import { BackupPasswordModal } from './backup-password-modal';
import { formatBytes } from './format';
import { RestoreBackupModal } from './restore-backup-modal';
import { RESTORED_NOTICE, leaveSignInNotice } from './sign-in-notice';
import type { NoticeVariant } from './transfer-notice';

type Run = (
  label: string,
  work: (jobId: string, onProgress: TransferProgressListener) => Promise<ExportedFile | null>,
) => Promise<ExportedFile | null>;

// Download my backup, Back up this whole browser (patients: the worker refuses it to a doctor) and Restore backup,
// with their dialogs (docs/decisions/restore-merges.md): the patient's records screen and the doctor's profile.
export function BackupRestoreButtons({
  run,
  busy,
  say,
}: {
  run: Run;
  busy: boolean;
  say: (variant: NoticeVariant, text: string) => void;
}) {
  const service = useLedger();
  const { user, signOut } = useSession();
  const [dialog, setDialog] = useState<BackupScope | 'restore' | null>(null);

  const backup = async (scope: BackupScope, password: string) => {
    setDialog(null);
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

  const restored = (plan: RestorePlan) => {
    setDialog(null);
    if (plan.mode === 'merge') {
      const blocks = plan.adds.blocks === 1 ? '1 block' : `${plan.adds.blocks} blocks`;
      if (plan.adds.blocks > 0) say('success', `Added ${blocks} from the backup. Nothing this browser held was dropped.`);
      return; // this browser's keys stay: the session goes on
    }
    leaveSignInNotice(RESTORED_NOTICE); // the login screen says why the user was signed out
    void signOut(); // the restored ledger's keys sign from now on: they are unlocked at the next sign-in
  };

  return (
    <>
      <Button variant="outline-primary" size="sm" onClick={() => setDialog('mine')} disabled={busy}>
        Download my backup
      </Button>
      {user?.role === 'patient' ? (
        <Button variant="outline-primary" size="sm" onClick={() => setDialog('browser')} disabled={busy}>
          Back up this whole browser
        </Button>
      ) : null}
      <Button variant="outline-primary" size="sm" onClick={() => setDialog('restore')} disabled={busy}>
        Restore backup
      </Button>
      <BackupPasswordModal
        scope={dialog === 'browser' ? 'browser' : 'mine'}
        show={dialog === 'mine' || dialog === 'browser'}
        onCancel={() => setDialog(null)}
        onSubmit={(scope, password) => void backup(scope, password)}
      />
      <RestoreBackupModal show={dialog === 'restore'} onClose={() => setDialog(null)} onRestored={restored} />
    </>
  );
}
