// The worker entry as the app runs it: a backup's password key takes at least 600,000 PBKDF2 rounds there
// (unit tests ask for fewer through LedgerDeps), and the file crosses the channel in transferred parts.
import 'fake-indexeddb/auto';
import { expose, releaseProxy, wrap } from 'comlink';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { readBackupFile } from '../../workers/core/backup-file';
import { BACKUP_ITERATIONS } from '../../workers/core/constants';
import { SARAH, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { joined } from '../support/portability-fixtures';

type Endpoint = Parameters<typeof wrap>[0];

describe('the worker entry', () => {
  it('derives a backup password key with at least 600,000 PBKDF2-SHA-256 rounds, and checks its own backup as one that adds nothing', async () => {
    const api = await import('../../workers/ledger.worker');
    const { port1, port2 } = new MessageChannel();
    expose(api, port1 as unknown as Endpoint);
    const remote = wrap<typeof api>(port2 as unknown as Endpoint);
    try {
      await signInAs(remote.ledger, SARAH);
      await remote.ledger.upload(uploadOf('ECG', [fileInput('ecg.pdf', 'ecg')]));
      const file = await remote.ledger.downloadBackup('job-1', 'a long enough password', 'browser');
      if (!file) throw new Error('the backup was cancelled');
      const bytes = joined(file);
      const { header } = await readBackupFile(bytes);
      expect(BACKUP_ITERATIONS).toBeGreaterThanOrEqual(600_000);
      expect(header.kdf).toMatchObject({ name: 'PBKDF2', hash: 'SHA-256', iterations: BACKUP_ITERATIONS });
      const plan = await remote.ledger.prepareRestore(bytes.buffer, 'a long enough password');
      expect(plan).toMatchObject({ mode: 'merge', adds: { blocks: 0 }, current: { records: 2, files: 1 } }); // its own ledger: a merge that adds nothing
    } finally {
      remote[releaseProxy]();
      port1.close();
    }
  });
});
