import { useCallback, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { Patient } from '../../../workers/core/types';
import { BackupRestoreButtons } from '../../components/backup-restore-buttons';
import { SectionCard } from '../../components/section-card';
import { formatBytes } from '../../components/format';
import { TransferProgressPanel } from '../../components/transfer-progress';
import { useTransferJob } from '../../components/transfer-job';
import { useTransferNotice } from '../../components/transfer-notice';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { everyRecord } from './every-record';
import { ImportModal } from './import-modal';
import { PrintSummary, type SummaryData } from './print-summary';

// Records that leave with the patient: FHIR export and import, the encrypted backup (their own, or the whole
// browser's) and its restore, the printable summary (docs/decisions/fhir-portability.md, restore-merges.md).
export function PortabilityToolbar({ patient }: { patient: Patient }) {
  const service = useLedger();
  const { running, run, cancel } = useTransferJob();
  const [withFiles, setWithFiles] = useState(true);
  const [importing, setImporting] = useState(false);
  const [summary, setSummary] = useState<SummaryData | null>(null);
  const notice = useTransferNotice();
  const { say } = notice;

  const exportFhir = async () => {
    notice.clear();
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

  const print = async () => {
    notice.clear();
    try {
      const [records, history] = await Promise.all([everyRecord(service, patient.id), service.accessHistory()]);
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
        <Button variant="outline-primary" size="sm" onClick={() => setImporting(true)} disabled={busy}>
          Import (FHIR)
        </Button>
        <BackupRestoreButtons run={run} busy={busy} say={say} />
        <Button variant="outline-primary" size="sm" onClick={() => void print()} disabled={busy}>
          Print summary
        </Button>
      </div>
      {running ? <TransferProgressPanel job={running} onCancel={cancel} /> : null}
      {notice.element}
      <ImportModal show={importing} onClose={() => setImporting(false)} />
      {summary ? <PrintSummary data={summary} onDone={printed} /> : null}
    </SectionCard>
  );
}
