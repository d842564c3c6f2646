import { proxy } from 'comlink';
import { useCallback, useRef, useState } from 'react';
import type { ExportedFile, TransferProgress, TransferProgressListener } from '../../workers/api';
import { useLedger } from '../ledger/use-ledger';
import { useHoldUpdates } from './update-holds';

export interface RunningTransfer {
  jobId: string;
  label: string; // 'Exporting your records', 'Writing the backup'
  progress: TransferProgress | null;
  cancelling: boolean;
}

// The file the worker made, saved by the browser: its parts become one Blob, never one string on the page, a
// part per task (a Blob of a Blob and a part copies only the part), so a 270 MB file never holds the page still.
async function saveFile(file: ExportedFile): Promise<void> {
  let blob = new Blob([], { type: file.mimeType });
  for (const part of file.parts.splice(0)) {
    blob = new Blob([blob, part], { type: file.mimeType });
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000); // the download has started long before: the URL is only memory now
}

// One long export or backup at a time, in the worker, with its progress and a Cancel (docs/decisions/backup-file.md).
export function useTransferJob() {
  const service = useLedger();
  const [running, setRunning] = useState<RunningTransfer | null>(null);
  const current = useRef<string | null>(null);

  const run = useCallback(
    async (label: string, start: (jobId: string, onProgress: TransferProgressListener) => Promise<ExportedFile | null>) => {
      const jobId = crypto.randomUUID();
      current.current = jobId;
      setRunning({ jobId, label, progress: null, cancelling: false });
      try {
        const file = await start(
          jobId,
          proxy((progress: TransferProgress) =>
            setRunning((job) => (job?.jobId === progress.jobId ? { ...job, progress } : job)),
          ),
        );
        if (file) await saveFile(file);
        return file;
      } finally {
        current.current = null;
        setRunning(null);
      }
    },
    [],
  );

  const cancel = useCallback(() => {
    const jobId = current.current;
    if (!jobId) return;
    setRunning((job) => (job ? { ...job, cancelling: true } : job));
    service.cancelTransfer(jobId).catch(() => undefined); // the job ends either way; a failed cancel only means it had ended
  }, [service]);
  useHoldUpdates(running !== null, 'Wait for the export to finish.');

  return { running, run, cancel };
}
