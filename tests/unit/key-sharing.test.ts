// Two devices of one ledger: a file's key reaches the readers the ledger allows only wrapped to their enrolled
// keys, and the care network's key is released only under an active full emergency grant
// (docs/decisions/document-keys-travel-wrapped.md).
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import {
  CARE_NETWORK,
  createCareNetworkKey,
  importCareNetworkKey,
  releaseForGrant,
  summaryKeySubject,
  unwrapKey,
  wrapKey,
  type KeyWrap,
} from '../../workers/core/key-wraps';
import { unlockUserKeys } from '../../workers/core/signatures';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { CARTER, MICHAEL, SARAH, WILSON, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';
import { type Device, twoDevices } from '../support/two-devices';

// Sarah uploads on A; B takes the block and the file's encrypted bytes, but not its key.
async function uploadOnA(a: Device, b: Device, storageA: LedgerStorage): Promise<string> {
  await signInAs(a.service, SARAH);
  const documentId = (await a.service.upload(uploadOf('Scan from the phone'))).record.documentIds[0];
  await b.store.mergeRemote(a.store.current().blocks);
  expect(await b.store.addRemoteContent(documentId, (await storageA.readContent(documentId)) as ArrayBuffer)).toBe(true);
  expect(b.store.current().awaiting.has(documentId)).toBe(true);
  return documentId;
}

const addressees = (wraps: KeyWrap[], documentId: string) =>
  wraps
    .filter((wrap) => wrap.documentId === documentId)
    .map((wrap) => wrap.to)
    .sort();

// The summary epoch Sarah's first upload on `device` was sealed under (its wraps name it in their subject).
function sarahsEpoch(device: Device): string {
  const upload = device.store.current().blocks.find((block) => 'files' in block.data && block.data.sealed);
  const epochId = upload && 'files' in upload.data ? upload.data.sealed?.key : undefined;
  if (!epochId) throw new Error('no sealed upload on this device');
  return epochId;
}

async function encryptionKeyOf(device: Device, userId: string): Promise<CryptoKey> {
  const wrapped = device.store.storedKeys()?.users[userId];
  return (await unlockUserKeys(wrapped!, DEMO_PASSWORD))?.encryptionKey as CryptoKey;
}

describe('document keys between devices', () => {
  it('reach Sarah’s other device wrapped to her, which then opens the file; not before its bytes, nor for Michael', async () => {
    const { a, b, storageA } = await twoDevices();
    await signInAs(a.service, SARAH);
    const documentId = (await a.service.upload(uploadOf('Scan from the phone'))).record.documentIds[0];
    await b.store.mergeRemote(a.store.current().blocks);
    const wraps = await a.keySharing.wrapsToSend();
    expect(addressees(wraps, documentId)).toEqual([CARTER.id, SARAH.id]); // her own devices, and the doctor it names
    expect(JSON.stringify(wraps)).not.toContain(a.store.current().keys.get(documentId));

    const epochId = sarahsEpoch(a);
    expect(addressees(wraps, summaryKeySubject(SARAH.id, epochId))).toEqual([CARTER.id, SARAH.id]); // her summary key: her devices and her doctor

    await signInAs(b.service, MICHAEL);
    expect(await b.keySharing.acceptWraps(wraps)).toBe(0);
    expect(b.store.current().summaryKeys.size).toBe(0);
    await signInAs(b.service, SARAH);
    // her summary key is kept; the file's key is not: the bytes have not arrived, it is offered again after they do
    expect(await b.keySharing.acceptWraps(wraps)).toBe(1);
    expect([...b.store.current().summaryKeys.keys()]).toEqual([epochId]);
    expect(b.store.current().keys.has(documentId)).toBe(false);
    expect(await b.store.addRemoteContent(documentId, (await storageA.readContent(documentId)) as ArrayBuffer)).toBe(true);
    expect(b.store.current().awaiting.has(documentId)).toBe(true);

    expect(await b.keySharing.acceptWraps(wraps)).toBe(1); // the file's key
    expect(b.store.current().awaiting.has(documentId)).toBe(false);
    expect(textOf((await b.service.readDocument(documentId)).bytes)).toBe('scan');
    expect((await b.service.listRecords(SARAH.id)).records[0]).toMatchObject({ title: 'Scan from the phone' });
    expect(await b.service.chainStatus()).toMatchObject({ valid: true, readOnly: false });
    expect(await b.keySharing.acceptWraps(wraps)).toBe(0); // held already
  });

  it('keeps no key from a wrap to Sarah that does not open her file, though anyone can make one', async () => {
    const { a, b, storageA } = await twoDevices();
    const documentId = await uploadOnA(a, b, storageA);
    await signInAs(b.service, SARAH);
    const document = b.store.state().documents.get(documentId)!;
    const sarahKey = b.store.state().enrolment?.encryption?.[SARAH.id] as string;
    const forged = await wrapKey(
      documentId,
      document.ipfsHash,
      'ff'.repeat(32),
      { id: SARAH.id, publicKey: sarahKey },
      WILSON.id,
    );

    expect(await b.keySharing.acceptWraps([forged, 'not a wrap', null])).toBe(0);
    expect(b.store.current().keys.has(documentId)).toBe(false);
    expect(b.store.current().awaiting.has(documentId)).toBe(true);
  });

  it('reach Dr. Wilson under a full share, and he opens the file on his own device; a basic share, none or a revoked one gives him no wrap', async () => {
    const { a, b, storageA, clock } = await twoDevices();
    const documentId = await uploadOnA(a, b, storageA);
    expect(addressees(await a.keySharing.wrapsToSend(), documentId)).not.toContain(WILSON.id);

    const basic = await a.service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 7, note: '' });
    const underBasic = await a.keySharing.wrapsToSend();
    expect(addressees(underBasic, documentId)).not.toContain(WILSON.id);
    expect(addressees(underBasic, summaryKeySubject(SARAH.id, sarahsEpoch(a)))).toContain(WILSON.id); // a basic share opens the summary key only
    await a.service.revokeShare(basic.id);
    clock.advance(1000);
    const full = await a.service.shareRecords({ doctorId: WILSON.id, accessLevel: 'full', durationDays: 7, note: '' });
    const wraps = await a.keySharing.wrapsToSend();
    expect(addressees(wraps, documentId)).toContain(WILSON.id);

    await b.store.mergeRemote(a.store.current().blocks);
    await signInAs(b.service, WILSON);
    expect(await b.keySharing.acceptWraps(wraps)).toBe(2); // the file's key and Sarah's summary key
    expect(b.store.current().keys.has(documentId)).toBe(true);
    expect(b.store.current().summaryKeys.size).toBe(1);
    expect(textOf((await b.service.readDocument(documentId)).bytes)).toBe('scan');

    clock.advance(1000);
    await a.service.revokeShare(full.id);
    expect(addressees(await a.keySharing.wrapsToSend(), documentId)).not.toContain(WILSON.id);
  });

  it('are wrapped to the care network only while the server’s key is known and the patient consents, a choice every device reads from her block', async () => {
    const { a, b, storageA } = await twoDevices();
    const documentId = await uploadOnA(a, b, storageA);
    const careKey = (await createCareNetworkKey()).publicKey;
    expect(addressees(await a.keySharing.wrapsToSend(), documentId)).not.toContain(CARE_NETWORK);
    a.keySharing.setCareNetworkKey(careKey);
    expect(await a.service.careNetworkConsent()).toMatchObject({ on: true, recorded: 'setup' }); // the demo setup's choice for Sarah
    expect(addressees(await a.keySharing.wrapsToSend(), documentId)).toContain(CARE_NETWORK);
    const height = a.store.current().blocks.length;
    await a.service.setCareNetworkConsent(false);
    expect(a.store.current().blocks.at(-1)?.data).toMatchObject({
      type: 'care_consent',
      patientId: SARAH.id,
      careNetwork: false,
    });
    await a.service.setCareNetworkConsent(false); // the choice in force: nothing more is signed
    expect(a.store.current().blocks.length).toBe(height + 1);
    expect(await a.service.careNetworkConsent()).toMatchObject({ on: false, recorded: 'patient' });
    expect(addressees(await a.keySharing.wrapsToSend(), documentId)).not.toContain(CARE_NETWORK);

    // her other device takes the block and follows it
    await b.store.mergeRemote(a.store.current().blocks);
    b.keySharing.setCareNetworkKey(careKey);
    await signInAs(b.service, SARAH);
    expect(await b.service.careNetworkConsent()).toMatchObject({ on: false, recorded: 'patient' });
    expect(addressees(await b.keySharing.wrapsToSend(), documentId)).not.toContain(CARE_NETWORK);
  });

  it('are not wrapped again on every call: the same reader gets the same wrap', async () => {
    const { a, b, storageA } = await twoDevices();
    await uploadOnA(a, b, storageA);
    const first = await a.keySharing.wrapsToSend();
    const second = await a.keySharing.wrapsToSend();
    expect(second).toEqual(first);
  });
});

describe('a release under an emergency grant', () => {
  const request = { reason: 'Unconscious on arrival', durationMinutes: 30 };

  async function patientWithCareWrap() {
    const { a, b, storageA, clock } = await twoDevices();
    const documentId = await uploadOnA(a, b, storageA);
    const care = await createCareNetworkKey();
    a.keySharing.setCareNetworkKey(care.publicKey);
    const careWrap = (await a.keySharing.wrapsToSend()).find((wrap) => wrap.to === CARE_NETWORK) as KeyWrap;
    const key = a.store.current().keys.get(documentId) as string;
    return { a, clock, documentId, careWrap, key, carePrivateKey: await importCareNetworkKey(care.privateKey) };
  }

  // the hash of the newest read block under a grant, as the doctor's device names it in its release request
  const readBlockOf = (a: Device, grantId: string) => a.store.state().grants.get(grantId)?.reads.at(-1)?.block ?? 'no read';

  it('re-wraps the key to the granted doctor’s enrolled key under an active full grant, against his read block, which only his key opens', async () => {
    const { a, clock, documentId, careWrap, key, carePrivateKey } = await patientWithCareWrap();
    await signInAs(a.service, WILSON);
    const grant = await a.service.requestEmergencyAccess({ patientId: SARAH.id, accessLevel: 'full', ...request });
    const release = () =>
      releaseForGrant(
        a.store.state(),
        { grantId: grant.id, documentId, readBlock: readBlockOf(a, grant.id) },
        careWrap,
        carePrivateKey,
        clock.now(),
      );
    expect(await release()).toMatch(/is not a read of document/); // no read on the chain yet: no key
    await a.service.emergencyView(grant.id); // a read of the overview names no document
    expect(await release()).toMatch(/is not a read of document/);
    await a.service.readDocument(documentId);
    const released = await release();

    expect(typeof released).toBe('object');
    const wrap = released as KeyWrap;
    expect(wrap).toMatchObject({ to: WILSON.id, from: CARE_NETWORK, documentId });
    expect(JSON.stringify(wrap)).not.toContain(key);
    expect(await unwrapKey(wrap, await encryptionKeyOf(a, WILSON.id))).toBe(key);
    for (const other of [SARAH.id, MICHAEL.id, CARTER.id])
      expect(await unwrapKey(wrap, await encryptionKeyOf(a, other))).toBeNull();
    expect(await unwrapKey(wrap, carePrivateKey)).toBeNull();
  });

  it('releases nothing under a basic grant, an expired or ended one, an unknown one, or for another patient’s or a deleted document', async () => {
    const { a, clock, documentId, careWrap, carePrivateKey } = await patientWithCareWrap();
    const release = (grantId: string, id = documentId, wrap: unknown = careWrap) =>
      releaseForGrant(
        a.store.state(),
        { grantId, documentId: id, readBlock: readBlockOf(a, grantId) },
        wrap,
        carePrivateKey,
        clock.now(),
      );
    expect(await release('no-such-grant')).toMatch(/no grant/);

    await signInAs(a.service, WILSON);
    const basic = await a.service.requestEmergencyAccess({ patientId: SARAH.id, accessLevel: 'basic', ...request });
    expect(await release(basic.id)).toMatch(/basic access/);
    await a.service.endEmergencyAccess(basic.id);
    expect(await release(basic.id)).toMatch(/not active/);

    clock.advance(1000);
    const full = await a.service.requestEmergencyAccess({ patientId: SARAH.id, accessLevel: 'full', ...request });
    expect(await release(full.id, 'another-document')).toMatch(/not a stored document/);
    expect(await release(full.id, documentId, { ...careWrap, to: WILSON.id })).toMatch(/care network's wrap/);
    const michaels = await a.service.requestEmergencyAccess({ patientId: MICHAEL.id, accessLevel: 'full', ...request });
    expect(await release(michaels.id)).toMatch(/does not let the care network/); // Michael has not chosen: off
    await signInAs(a.service, MICHAEL);
    await a.service.setCareNetworkConsent(true);
    expect(await release(michaels.id)).toMatch(/not the granted patient/);
    await signInAs(a.service, WILSON);

    clock.advance(31 * 60_000);
    expect(await release(full.id)).toMatch(/not active/);

    clock.advance(1000);
    const again = await a.service.requestEmergencyAccess({ patientId: SARAH.id, accessLevel: 'full', ...request });
    await a.service.readDocument(documentId);
    expect(typeof (await release(again.id))).toBe('object');
    // her withdrawn consent is on the chain: the server's wrap, if still held, is not released
    await signInAs(a.service, SARAH);
    await a.service.setCareNetworkConsent(false);
    expect(await release(again.id)).toMatch(/does not let the care network/);
    await a.service.setCareNetworkConsent(true);
    expect(typeof (await release(again.id))).toBe('object');
    await signInAs(a.service, SARAH);
    await a.service.deleteDocument(documentId);
    expect(await release(again.id)).toMatch(/not a stored document/);
  });
});
