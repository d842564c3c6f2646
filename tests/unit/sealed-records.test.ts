// Nothing medical in clear off the patient's devices (docs/decisions/nothing-medical-in-clear.md): what the device
// writes holds no record text, what other devices receive opens only with the keys the patient's readers hold, and a
// reader who lost access gets no key to what is written after.
import { describe, expect, it } from 'vitest';
import { summaryWrapOf, type KeyWrap } from '../../workers/core/key-wraps';
import type { Block, ClinicalRecord } from '../../workers/core/types';
import { SEALED_TITLE } from '../../workers/ledger/sealing';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { CARTER, MICHAEL, SARAH, WILSON, fileInput, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';
import { writeClearUpload } from '../support/clear-upload';
import { copyOf, twoDevices } from '../support/two-devices';

const TITLE = 'HIV test, positive';
const DESCRIPTION = 'Viral load 12,400 copies/mL';
const FILE_NAME = 'hiv-viral-load.pdf';
const NOTE = 'Second opinion on the antiretroviral plan';
const REASON = 'Collapsed at home, on antiretrovirals';

const secretsIn = (blocks: readonly Block[]) => {
  const text = JSON.stringify(blocks);
  return [TITLE, DESCRIPTION, FILE_NAME, NOTE, REASON].filter((secret) => text.includes(secret));
};

// Epoch id -> who a summary-key wrap of it goes to.
function summaryAddressees(wraps: KeyWrap[]): Map<string, string[]> {
  const to = new Map<string, string[]>();
  for (const wrap of wraps) {
    const named = summaryWrapOf(wrap);
    if (named) to.set(named.epochId, [...(to.get(named.epochId) ?? []), wrap.to].sort());
  }
  return to;
}

const uploadOfSarah = () => uploadOf(TITLE, [fileInput(FILE_NAME, 'viral load')], { description: DESCRIPTION });

describe('what a patient writes travels sealed', () => {
  it('holds no title, description or file name in the blocks, and Sarah reads them back on her device', async () => {
    const service = createTestLedgerService({ storage: createMemoryStorage() });
    await signInAs(service, SARAH);
    const { record } = await service.upload(uploadOfSarah());
    const blocks = (await service.blocksPage(0, 10)).blocks;
    const stored = (await service.block(record.blockIndex)).data as ClinicalRecord;
    expect(stored).toMatchObject({ title: '', description: '', files: [{ name: '', type: '' }] });
    expect(stored.sealed?.key).toMatch(/^[0-9a-f]{32}$/);
    expect(secretsIn([await service.block(record.blockIndex)])).toEqual([]);
    expect(record).toMatchObject({ title: TITLE, description: DESCRIPTION, fileName: FILE_NAME });
    expect((await service.listRecords(SARAH.id)).records[0]).toMatchObject({ title: TITLE, fileName: FILE_NAME });
    expect(blocks[0]).toMatchObject({ index: record.blockIndex, title: TITLE }); // the explorer shows what she opened
    expect((await service.listRecords(SARAH.id, { search: 'viral load' })).records).toHaveLength(1); // search runs on the opened text
  });

  it('seals a share’s note and a grant’s reason to the patient and the doctor, who each read them', async () => {
    const service = createTestLedgerService({ storage: createMemoryStorage() });
    await signInAs(service, SARAH);
    await service.upload(uploadOfSarah());
    await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 7, note: NOTE });
    await signInAs(service, WILSON);
    const grant = await service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: REASON,
      durationMinutes: 30,
      accessLevel: 'basic',
    });
    const view = await service.emergencyView(grant.id);
    expect(view.grant.reason).toBe(REASON);
    expect(view.records.map((entry) => entry.title)).toEqual([TITLE, 'Initial health assessment']);
    expect((await service.sharedWithMe())[0].share.note).toBe(NOTE);
    const all = await Promise.all(
      Array.from({ length: (await service.chainStatus()).height }, (_, i) => service.block(i).catch(() => null)),
    );
    expect(secretsIn(all.filter((block): block is Block => block !== null))).toEqual([]);
    await signInAs(service, SARAH);
    const history = await service.accessHistory();
    expect(history[0]).toMatchObject({ reason: REASON, reads: [{ what: 'profile, health overview and 2 records' }] });
    expect((await service.myShares())[0].share.note).toBe(NOTE);
  });
});

describe('another device of the ledger', () => {
  it('signed in as another patient verifies the chain and opens nothing of Sarah’s; Sarah’s own device opens all', async () => {
    const { a, b, storageA } = await twoDevices();
    await signInAs(a.service, SARAH);
    const { record } = await a.service.upload(uploadOfSarah());
    const wraps = await a.keySharing.wrapsToSend();
    await b.store.mergeRemote(a.store.current().blocks);
    const documentId = record.documentIds[0];
    await b.store.addRemoteContent(documentId, (await storageA.readContent(documentId)) as ArrayBuffer);

    await signInAs(b.service, MICHAEL);
    expect(await b.service.chainStatus()).toMatchObject({ valid: true, height: 2 });
    expect(await b.keySharing.acceptWraps(wraps)).toBe(0); // no wrap is his, and none opens with his key
    expect(b.store.current().summaryKeys.size).toBe(0);
    expect(b.store.current().keys.size).toBe(0);
    expect(secretsIn(b.store.current().blocks)).toEqual([]);

    await signInAs(b.service, SARAH);
    expect((await b.service.listRecords(SARAH.id)).records[0].title).toBe(SEALED_TITLE); // her key has not come yet
    expect(await b.keySharing.acceptWraps(wraps)).toBe(2); // the summary key and the file's key
    expect((await b.service.listRecords(SARAH.id)).records[0]).toMatchObject({ title: TITLE, fileName: FILE_NAME });
    expect(textOf((await b.service.readDocument(documentId)).bytes)).toBe('viral load');
  });

  it('takes no summary key that does not hash to the epoch it names, though anyone can wrap one to Sarah', async () => {
    const { a, b } = await twoDevices();
    await signInAs(a.service, SARAH);
    await a.service.upload(uploadOfSarah());
    await b.store.mergeRemote(a.store.current().blocks);
    const [genuine] = (await a.keySharing.wrapsToSend()).filter((wrap) => summaryWrapOf(wrap) && wrap.to === SARAH.id);
    const { wrapSummaryKey } = await import('../../workers/core/key-wraps');
    const named = summaryWrapOf(genuine)!;
    const sarahKey = b.store.state().enrolment?.encryption?.[SARAH.id] as string;
    const forged = await wrapSummaryKey(
      SARAH.id,
      named.epochId,
      'ab'.repeat(32),
      { id: SARAH.id, publicKey: sarahKey },
      WILSON.id,
    );
    await signInAs(b.service, SARAH);
    expect(await b.keySharing.acceptWraps([forged])).toBe(0);
    expect(b.store.current().summaryKeys.size).toBe(0);
    expect(await b.keySharing.acceptWraps([genuine])).toBe(1);
  });
});

describe('who gets a summary key', () => {
  it('wraps it to the patient, her doctor and a doctor she shares with at either level; after a revoke her next upload is sealed under a new key the revoked doctor gets no wrap of', async () => {
    const { a, clock } = await twoDevices();
    await signInAs(a.service, SARAH);
    const first = await a.service.upload(uploadOfSarah());
    const firstEpoch = ((await a.service.block(first.record.blockIndex)).data as ClinicalRecord).sealed?.key as string;
    expect(summaryAddressees(await a.keySharing.wrapsToSend()).get(firstEpoch)).toEqual([CARTER.id, SARAH.id]);

    const share = await a.service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 7 });
    expect(summaryAddressees(await a.keySharing.wrapsToSend()).get(firstEpoch)).toEqual([CARTER.id, WILSON.id, SARAH.id]);
    clock.advance(1000);
    await a.service.revokeShare(share.id);
    clock.advance(1000);
    const second = await a.service.upload(uploadOf('After the revoke'));
    const secondEpoch = ((await a.service.block(second.record.blockIndex)).data as ClinicalRecord).sealed?.key as string;
    expect(secondEpoch).not.toBe(firstEpoch);
    const after = summaryAddressees(await a.keySharing.wrapsToSend());
    expect(after.get(secondEpoch)).toEqual([CARTER.id, SARAH.id]);
    expect(after.get(firstEpoch)).toEqual([CARTER.id, SARAH.id]); // no longer sent to him: what he holds, he keeps

    clock.advance(1000);
    const third = await a.service.upload(uploadOf('Next week'));
    expect(((await a.service.block(third.record.blockIndex)).data as ClinicalRecord).sealed?.key).toBe(secondEpoch);
  });
});

describe('a backup', () => {
  it('carries the summary keys: restored into a new browser, the records open', async () => {
    const service = createTestLedgerService({ storage: createMemoryStorage() });
    await signInAs(service, SARAH);
    await service.upload(uploadOfSarah());
    const file = await service.downloadBackup(crypto.randomUUID(), 'backup password', 'browser');
    if (!file) throw new Error('the backup was cancelled');
    const bytes = new Uint8Array(file.parts.reduce((sum, part) => sum + part.byteLength, 0));
    let at = 0;
    for (const part of file.parts) {
      bytes.set(new Uint8Array(part), at);
      at += part.byteLength;
    }
    const target = createTestLedgerService({ storage: createMemoryStorage() });
    await signInAs(target, MICHAEL);
    await target.confirmRestore((await target.prepareRestore(bytes.buffer, 'backup password')).planId);
    await signInAs(target, SARAH);
    expect((await target.listRecords(SARAH.id)).records[0]).toMatchObject({
      title: TITLE,
      description: DESCRIPTION,
      fileName: FILE_NAME,
    });
  });
});

describe('records written in clear before sealing', () => {
  // A ledger of an earlier version: Sarah's upload stored with its text in clear (the store writes what it is given).
  async function ledgerWithClearUpload() {
    const { a, storageA, clock } = await twoDevices();
    await signInAs(a.service, SARAH);
    const upload = await writeClearUpload(
      a.store,
      SARAH,
      { title: TITLE, description: DESCRIPTION, fileName: FILE_NAME },
      clock.now(),
    );
    return { a, storageA, upload, clock };
  }

  it('are counted, sealed again on the patient’s consent in a block that names each, and named in the explorer', async () => {
    const { a, storageA, upload, clock } = await ledgerWithClearUpload();
    expect(await a.service.clearRecordCount()).toBe(1);
    clock.advance(1000);
    expect(await a.service.sealClearRecords()).toBe(1);
    const tip = a.store.current().blocks.at(-1)!;
    expect(tip.data).toMatchObject({ type: 'resealed', supersedes: upload.id, title: '', description: '' });
    expect(secretsIn([tip])).toEqual([]);
    expect(await a.service.clearRecordCount()).toBe(0);
    expect(await a.service.sealClearRecords()).toBe(0); // nothing left: no block written
    expect(a.store.current().blocks.at(-1)?.hash).toBe(tip.hash);
    const rows = (await a.service.blocksPage(0, 10)).blocks;
    expect(rows.find((row) => row.index === 1)).toMatchObject({ title: TITLE, writtenInClear: { resealedIn: 2 } });
    expect(rows.find((row) => row.index === 2)).toMatchObject({ type: 'resealed', title: TITLE });
    const reloaded = createTestLedgerService({ storage: await copyOf(storageA) }); // verified again from storage
    await signInAs(reloaded, SARAH);
    expect(await reloaded.chainStatus()).toMatchObject({ valid: true, height: 3 });
    // a new upload is sealed under the epoch the re-sealing announced
    clock.advance(1000);
    const next = await a.service.upload(uploadOf('After sealing'));
    expect(((await a.service.block(next.record.blockIndex)).data as ClinicalRecord).sealed?.key).toBe(
      (tip.data as { sealed: { key: string } }).sealed.key,
    );
  });

  it('refuse a second re-sealing of one upload', async () => {
    const { a, upload, clock } = await ledgerWithClearUpload();
    clock.advance(1000);
    await a.service.sealClearRecords();
    const resealed = a.store.current().blocks.at(-1)!.data;
    const again = { ...resealed, id: crypto.randomUUID() };
    await expect(a.store.write('x', () => ({ records: [again], result: () => undefined }))).rejects.toThrow(
      `upload ${upload.id} was already re-sealed`,
    );
  });
});
