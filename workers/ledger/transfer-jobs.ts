// The running exports and backups of this worker: started by id, reporting progress a few times a second, cancelled
// by id (cancelTransfer) or all at once when the signed-in user changes. Shared by portability.ts and backup-restore.ts.
import { transfer } from 'comlink';
import type { ExportedFile, LedgerService, TransferProgress, TransferProgressListener } from '../api';
import type { User } from '../core/types';
import { fail, nextTask, type LedgerDeps } from './deps';

const PROGRESS_EVERY_MS = 100;

export function fileOf(fileName: string, mimeType: string, parts: ArrayBuffer[]): ExportedFile {
  const file = { fileName, mimeType, parts, size: parts.reduce((sum, part) => sum + part.byteLength, 0) };
  return transfer(file, parts); // moved to the page, not copied
}

export function createTransferJobs(deps: LedgerDeps, enter: () => Promise<User>) {
  const jobs = new Map<string, { cancelled: boolean }>();

  function startJob(jobId: unknown): void {
    if (typeof jobId !== 'string' || jobId === '') fail('ValidationError', 'A job needs an id.');
    if (jobs.has(jobId)) fail('ValidationError', 'This job is already running.');
    jobs.set(jobId, { cancelled: false });
  }

  // Reports progress and yields after each file, so a cancel gets in; false once the job was cancelled.
  function progressOf(jobId: string, total: number, onProgress?: TransferProgressListener) {
    const progress: TransferProgress = { jobId, done: 0, total, bytes: 0 };
    let lastSent = -Infinity;
    return async (files: number, bytes: number): Promise<boolean> => {
      progress.done += files;
      progress.bytes += bytes;
      const now = deps.now();
      // a few updates a second: each one is a message and a render on the page's main thread
      if (onProgress && (now - lastSent >= PROGRESS_EVERY_MS || progress.done === total)) {
        lastSent = now;
        Promise.resolve(onProgress({ ...progress }) as unknown).catch(() => undefined); // a closed page's proxy may reject
      }
      await nextTask();
      return !jobs.get(jobId)?.cancelled;
    };
  }

  const api: Pick<LedgerService, 'cancelTransfer'> = {
    async cancelTransfer(jobId) {
      await enter();
      const job = jobs.get(jobId);
      if (!job || job.cancelled) return false;
      job.cancelled = true;
      return true;
    },
  };

  // Another user (or none) now: the last one's running exports and backups stop.
  function cancelAll(): void {
    for (const job of jobs.values()) job.cancelled = true;
  }

  return { jobs, startJob, progressOf, api, cancelAll };
}

export type TransferJobs = ReturnType<typeof createTransferJobs>;
