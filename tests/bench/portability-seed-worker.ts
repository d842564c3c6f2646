// The portability bench's own worker, built only by `npm run bench -- --portability` (never shipped): it writes
// a patient's records into the app's IndexedDB through the real ledger service, as uploads would, so the app's
// worker then exports and backs up a ledger of the asked size.
import { DEMO_PASSWORD, DIFFICULTY } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { PBKDF2_ITERATIONS } from '../../workers/core/signatures';
import { createLedgerService } from '../../workers/service';
import { createIndexedDbStorage } from '../../workers/storage/indexeddb-storage';

export interface SeedCommand {
  records: number;
  bytesPerRecord: number;
}

self.onmessage = async (event: MessageEvent<SeedCommand>) => {
  try {
    const { records, bytesPerRecord } = event.data;
    const service = createLedgerService({
      storage: createIndexedDbStorage(),
      now: () => Date.now(),
      randomId: () => crypto.randomUUID(),
      uploadDelayMs: 0,
      grantDelayMs: 0,
      difficulty: DIFFICULTY,
      keyIterations: PBKDF2_ITERATIONS, // the keys it makes are the app's: the same cost as the app's worker
    });
    await service.signIn(DEMO_ACCOUNTS.patient, DEMO_PASSWORD, 'patient');
    const began = performance.now();
    for (let i = 0; i < records; i++) {
      const bytes = new Uint8Array(bytesPerRecord);
      for (let at = 0; at < bytes.length; at += 4096) bytes[at] = (i + at) & 255; // every file different
      await service.upload({
        title: `Bench record ${i + 1}`,
        type: i % 2 === 0 ? 'test_report' : 'prescription',
        files: [{ name: `scan-${i + 1}.pdf`, type: 'application/pdf', bytes: bytes.buffer }],
      });
    }
    self.postMessage({ result: { records, bytes: records * bytesPerRecord, seedMs: performance.now() - began } });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
};
