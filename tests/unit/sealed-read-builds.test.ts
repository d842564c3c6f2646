// The screens' projection (workers/ledger/sealing.ts) is built from the reader's last build when a snapshot only
// appends blocks: after every kind of write it must equal the projection built from nothing.
import { describe, expect, it } from 'vitest';
import { createSealing } from '../../workers/ledger/sealing';
import { createLedgerBackend } from '../../workers/service';
import { SARAH, WILSON, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';

describe('the screens’ projection of sealed records', () => {
  it('built from the last build after each upload, deletion, share, grant, read and acknowledgement, equals one built afresh', async () => {
    const backend = createLedgerBackend(testDeps());
    const { service, store } = backend;
    const session = { encryptionKey: () => undefined }; // reasons and notes stay sealed: their retry is checked too
    const kept = createSealing(store, session);
    const sameAsAfresh = async (step: string) => {
      const built = await kept.readable(SARAH);
      const afresh = await createSealing(store, session).readable(SARAH);
      expect(built, step).toEqual(afresh);
      return built;
    };

    await signInAs(service, SARAH);
    await sameAsAfresh('signed in');
    const first = await service.upload(uploadOf('Blood panel', [fileInput('panel.pdf'), fileInput('panel-2.pdf', 'two')]));
    await sameAsAfresh('an upload of two files');
    await service.upload(uploadOf('X-ray, left wrist', [fileInput('wrist.png', 'png')]));
    const afterTwo = await sameAsAfresh('a second upload');
    expect(afterTwo.medicalRecords.get(SARAH.id)?.at(-1)?.record.title).toBe('X-ray, left wrist');
    await service.deleteDocument(first.record.documentIds[1]);
    const afterDeletion = await sameAsAfresh('a deletion');
    expect(afterDeletion.documents.get(first.record.documentIds[1])?.deletedAt).toBeDefined();
    await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 7, note: 'Second opinion' });
    await sameAsAfresh('a share');

    await signInAs(service, WILSON);
    const grant = await service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'Collapsed at home',
      durationMinutes: 30,
      accessLevel: 'basic',
    });
    await sameAsAfresh('a grant');
    await service.emergencyView(grant.id);
    await sameAsAfresh('a read under the grant');

    await signInAs(service, SARAH);
    await service.acknowledgeEmergencyAccesses();
    await sameAsAfresh('an acknowledgement');
    await service.upload(uploadOf('Follow-up', [fileInput('follow-up.pdf', 'three')]));
    const last = await sameAsAfresh('an upload after all of it');
    expect(last.records.get(SARAH.id)?.map((entry) => entry.record.title)).toContain('Follow-up');
  });
});
