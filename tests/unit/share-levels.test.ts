// Found by the access property (tests/unit/property-access.test.ts): a patient may hold several shares with one
// doctor, and a newer basic share must not take away the files a full share still in force opens.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { DENIED, SARAH, WILSON, createClock, errorOf, fileInput, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

async function sarahsReport() {
  const clock = createClock();
  const service = createTestLedgerService({ storage: createMemoryStorage(), now: clock.now });
  await signInAs(service, SARAH);
  const { record } = await service.upload(uploadOf('Report', [fileInput('report.pdf', 'the report')]));
  return { service, clock, documentId: record.documentIds[0] };
}

describe('a doctor holding a full and a basic share on one patient', () => {
  it('opens the files while the full share is in force, whichever share is newer', async () => {
    const { service, clock, documentId } = await sarahsReport();
    const full = await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'full', durationDays: 7 });
    clock.advance(60_000);
    await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 30 });

    await signInAs(service, WILSON);
    expect((await service.sharedView(full.id)).documentsReadable).toBe(true);
    expect(textOf((await service.readDocument(documentId)).bytes)).toBe('the report');

    await signInAs(service, SARAH);
    await service.revokeShare(full.id);
    await signInAs(service, WILSON);
    expect(await errorOf(service.readDocument(documentId))).toEqual(DENIED); // the basic share opens no files
  });
});
