// A record's medical text sealed under the patient's summary key and its files' keys, bound to the record's clear
// fields, and the summary key's travel: wraps, the care network's release under a grant, rotation after a revoke
// (docs/decisions/nothing-medical-in-clear.md).
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { bytesToHex } from '../../workers/core/ids';
import {
  CARE_NETWORK,
  createCareNetworkKey,
  importCareNetworkKey,
  releaseForGrant,
  releaseSummaryForGrant,
  unwrapKey,
  type KeyWrap,
} from '../../workers/core/key-wraps';
import {
  createSummaryKey,
  openClinicalRecord,
  openPart,
  openFromReaders,
  readerSealedProblem,
  rotationDue,
  sealClinicalRecord,
  sealPart,
  sealToReaders,
  sealedUploadProblem,
  type SealedClinicalRecord,
  type SummaryKey,
} from '../../workers/core/sealed-fields';
import { openSummaryWrap, summaryRecipients, wrapSummaryKeyTo } from '../../workers/core/summary-wraps';
import { unlockUserKeys } from '../../workers/core/signatures';
import type { ClinicalRecord } from '../../workers/core/types';
import { createLedgerBackend } from '../../workers/service';
import { CARTER, MICHAEL, SARAH, WILSON, createClock, signInAs } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';

const TITLE = 'HIV test, positive';
const DESCRIPTION = 'Viral load 12,400 copies/mL; start antiretroviral therapy';
const FILE_NAME = 'hiv-viral-load-sarah.pdf';
const FILE_TYPE = 'application/pdf';
const SECOND_FILE = 'cd4-count.png';
const CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';

const randomKey = () => bytesToHex(crypto.getRandomValues(new Uint8Array(32)));

function upload(id = 'record-1', patientId = SARAH.id): ClinicalRecord {
  return {
    id,
    patientId,
    doctorId: CARTER.id,
    type: 'test_report',
    title: TITLE,
    description: DESCRIPTION,
    timestamp: '2026-03-02T10:00:00.000Z',
    documentDate: '2025-12-30',
    files: [
      { documentId: 'doc-1', name: FILE_NAME, type: FILE_TYPE, size: 48_213, cid: CID },
      { documentId: 'doc-2', name: SECOND_FILE, type: 'image/png', size: 9_120, cid: CID },
    ],
  };
}

async function sealedUpload(record = upload()) {
  const summary = await createSummaryKey(record.patientId);
  const documentKeys = new Map(record.files.map((file) => [file.documentId, randomKey()]));
  const sealed = await sealClinicalRecord(record, summary, documentKeys);
  return { record, summary, documentKeys, sealed, summaryKeys: new Map([[summary.epochId, summary.key]]) };
}

describe('a sealed upload', () => {
  it('opens with its epoch’s summary key and its files’ keys to exactly the record that was sealed', async () => {
    const { record, sealed, summaryKeys, documentKeys } = await sealedUpload();
    expect(sealed).toMatchObject({ title: '', description: '', id: record.id, patientId: SARAH.id, type: 'test_report' });
    expect(sealed.files.map((file) => [file.name, file.type, file.size, file.cid])).toEqual([
      ['', '', 48_213, CID],
      ['', '', 9_120, CID],
    ]);
    expect(await openClinicalRecord(sealed, summaryKeys, documentKeys)).toEqual({ record, filesOpened: [true, true] });
  });

  it('moved onto another record, patient, kind or file does not open', async () => {
    const { sealed, summaryKeys, documentKeys } = await sealedUpload();
    const other = (await sealedUpload(upload('record-2'))).sealed;
    for (const moved of [
      { ...other, sealed: sealed.sealed },
      { ...sealed, id: 'record-2' },
      { ...sealed, patientId: MICHAEL.id },
      { ...sealed, type: 'prescription' as const },
    ]) {
      expect(await openClinicalRecord(moved, summaryKeys, documentKeys)).toBeNull();
    }
    // the first file's part under the second file's id: the second file's name stays sealed, even with both keys
    const swapped = { ...sealed, files: [sealed.files[0], { ...sealed.files[1], sealed: sealed.files[0].sealed }] };
    const keysOfBoth = new Map([...documentKeys, ['doc-2', documentKeys.get('doc-1') as string]]);
    expect((await openClinicalRecord(swapped, summaryKeys, keysOfBoth))?.filesOpened).toEqual([true, false]);
  });

  it('does not open under a wrong key: another epoch’s, a document key, or a changed byte', async () => {
    const { sealed, summary, documentKeys } = await sealedUpload();
    const binding = { recordId: sealed.id, patientId: sealed.patientId, type: sealed.type };
    expect(await openPart(sealed.sealed, summary.key, binding)).toMatchObject({ title: TITLE });
    expect(await openPart(sealed.sealed, randomKey(), binding)).toBeNull();
    expect(await openPart(sealed.sealed, documentKeys.get('doc-1') as string, binding)).toBeNull();
    expect(await openClinicalRecord(sealed, new Map([[summary.epochId, randomKey()]]), documentKeys)).toBeNull();
    const bytes = atob(sealed.sealed.data);
    const flipped = btoa(String.fromCharCode(bytes.charCodeAt(0) ^ 1) + bytes.slice(1));
    expect(await openPart({ ...sealed.sealed, data: flipped }, summary.key, binding)).toBeNull();
    // a file's part under the summary key, or named as a summary part: neither opens
    const file = { ...binding, documentId: 'doc-1' };
    expect(await openPart(sealed.files[0].sealed, summary.key, file)).toBeNull();
    expect(
      await openPart({ ...sealed.files[0].sealed, key: summary.epochId }, documentKeys.get('doc-1') as string, file),
    ).toBeNull();
  });

  it('with the summary key alone gives the title and description, and no file’s name or type', async () => {
    const { sealed, summaryKeys } = await sealedUpload();
    const opened = await openClinicalRecord(sealed, summaryKeys, new Map());
    expect(opened?.record).toMatchObject({ title: TITLE, description: DESCRIPTION });
    expect(opened?.filesOpened).toEqual([false, false]);
    expect(JSON.stringify(opened)).not.toContain(FILE_NAME);
  });

  it('pads its text, so two titles of different lengths under 60 characters seal to parts of one length', async () => {
    const summary = await createSummaryKey(SARAH.id);
    const binding = { recordId: 'r', patientId: SARAH.id, type: 'test_report' };
    const short = await sealPart(summary.key, summary.epochId, binding, { title: 'Flu', description: '' });
    const long = await sealPart(summary.key, summary.epochId, binding, { title: 'HIV test, positive: refer', description: '' });
    expect(short.data.length).toBe(long.data.length);
  });
});

// Every way the sealed JSON could hold `text`: UTF-8, hex in either case, base64 at each of the 3 byte alignments.
function encodingsOf(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const hex = bytes.toString('hex');
  const base64 = [0, 1, 2].map((offset) => {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]);
    const whole = shifted.subarray(0, Math.floor(shifted.length / 3) * 3); // the last group mixes with what follows
    return whole.toString('base64').slice(Math.ceil((offset * 4) / 3));
  });
  return [text, hex, hex.toUpperCase(), ...base64, ...base64.map((value) => value.replace(/\+/g, '-').replace(/\//g, '_'))];
}

const SECRETS = [TITLE, DESCRIPTION, FILE_NAME, SECOND_FILE, '2025-12-30', 'Viral load', 'hiv-viral'];

describe('a sealed upload’s JSON', () => {
  it('holds none of the title, description, file names, types or date in UTF-8, base64 or hex; the clear one does', async () => {
    const { record, sealed, summary } = await sealedUpload();
    const care = await createCareNetworkKey();
    const wraps = await wrapSummaryKeyTo(summary, [{ id: CARE_NETWORK, publicKey: care.publicKey }], SARAH.id);
    const travelling = JSON.stringify({ sealed, wraps });
    const clear = JSON.stringify(record);
    for (const secret of [...SECRETS, FILE_TYPE, 'image/png']) {
      for (const encoding of encodingsOf(secret)) {
        expect(travelling).not.toContain(encoding);
        // the scan can fail: the clear record holds the UTF-8 text; base64 and hex of its bytes hold the others
        if (encoding === secret) expect(clear).toContain(encoding);
      }
    }
    const clearBytes = Buffer.from(clear, 'utf8');
    for (const offset of [0, 1, 2]) {
      const encoded = clearBytes.subarray(offset).toString('base64');
      expect(encodingsOf(TITLE).some((encoding) => encoded.includes(encoding))).toBe(true);
    }
    expect(encodingsOf(TITLE).some((encoding) => clearBytes.toString('hex').includes(encoding))).toBe(true);
    expect(travelling).not.toContain(summary.key);
  });
});

// A ledger with the four demo users, a settable clock, and each user's private encryption key.
async function ledger() {
  const clock = createClock();
  const backend = createLedgerBackend(testDeps({ now: clock.now }));
  await signInAs(backend.service, SARAH);
  const privateKey = async (id: string) =>
    (await unlockUserKeys(backend.store.storedKeys()!.users[id], DEMO_PASSWORD))?.encryptionKey as CryptoKey;
  const care = await createCareNetworkKey();
  return { ...backend, clock, privateKey, care, carePrivateKey: await importCareNetworkKey(care.privateKey) };
}

type Ledger = Awaited<ReturnType<typeof ledger>>;

async function wrapsOfEpoch(l: Ledger, summary: SummaryKey): Promise<KeyWrap[]> {
  const recipients = summaryRecipients(l.store.state(), summary.patientId, l.clock.now(), l.care.publicKey);
  return wrapSummaryKeyTo(summary, recipients, SARAH.id);
}

async function opensFor(wraps: KeyWrap[], privateKey: CryptoKey): Promise<SummaryKey[]> {
  const opened = await Promise.all(wraps.map((wrap) => openSummaryWrap(wrap, privateKey)));
  return opened.filter((key): key is SummaryKey => key !== null);
}

describe('who gets the summary key', () => {
  it('is the patient, the doctor they are listed with and the care network; then a doctor she shares with, of either level', async () => {
    const l = await ledger();
    const summary = await createSummaryKey(SARAH.id);
    const addressees = async () => (await wrapsOfEpoch(l, summary)).map((wrap) => wrap.to).sort();
    expect(await addressees()).toEqual([CARE_NETWORK, CARTER.id, SARAH.id].sort());
    await l.service.shareRecords({ doctorId: WILSON.id, accessLevel: 'basic', durationDays: 0 });
    expect(await addressees()).toEqual([CARE_NETWORK, CARTER.id, SARAH.id, WILSON.id].sort());
    const wraps = await wrapsOfEpoch(l, summary);
    expect(await opensFor(wraps, await l.privateKey(WILSON.id))).toEqual([summary]);
    expect(await l.service.setCareNetworkConsent(false)).toBeDefined();
    expect(await addressees()).toEqual([CARTER.id, SARAH.id, WILSON.id].sort());
  });

  it('for Sarah opens nothing of hers for Michael: no wrap, no record, and his own summary key opens none of hers', async () => {
    const l = await ledger();
    const { sealed, summary, documentKeys } = await sealedUpload();
    const wraps = await wrapsOfEpoch(l, summary);
    const michael = await l.privateKey(MICHAEL.id);
    expect(await opensFor(wraps, michael)).toEqual([]);
    // readdressed to him, a wrap still does not open: the recipient is bound to it
    expect(
      await opensFor(
        wraps.map((wrap) => ({ ...wrap, to: MICHAEL.id })),
        michael,
      ),
    ).toEqual([]);
    const his = await createSummaryKey(MICHAEL.id);
    expect(await openClinicalRecord(sealed, new Map([[his.epochId, his.key]]), new Map())).toBeNull();
    expect(await openClinicalRecord(sealed, new Map([[summary.epochId, his.key]]), documentKeys)).toBeNull();
  });

  it('a wrap whose key is not the one its epoch id names is refused, though it opens', async () => {
    const l = await ledger();
    const summary = await createSummaryKey(SARAH.id);
    const forged = { ...summary, key: randomKey() }; // anyone can wrap a key of their choosing to a public key
    const sarah = { id: SARAH.id, publicKey: l.store.state().enrolment!.encryption![SARAH.id] };
    const [wrap] = await wrapSummaryKeyTo(forged, [sarah], WILSON.id);
    expect(await openSummaryWrap(wrap, await l.privateKey(SARAH.id))).toBeNull();
    const [honest] = await wrapSummaryKeyTo(summary, [sarah], SARAH.id);
    expect(await openSummaryWrap(honest, await l.privateKey(SARAH.id))).toEqual(summary);
    // nor does a summary wrap pass for a document's wrap
    expect(await unwrapKey(honest, await l.privateKey(SARAH.id))).toBeNull();
  });
});

describe('a release of the summary key under an emergency grant', () => {
  const request = { patientId: SARAH.id, reason: 'Unconscious on arrival', durationMinutes: 30 };

  async function basicGrant() {
    const l = await ledger();
    const { sealed, summary, documentKeys } = await sealedUpload();
    const careWrap = (await wrapsOfEpoch(l, summary)).find((wrap) => wrap.to === CARE_NETWORK) as KeyWrap;
    await signInAs(l.service, WILSON);
    const grant = await l.service.requestEmergencyAccess({ ...request, accessLevel: 'basic' });
    const readBlock = () => l.store.state().grants.get(grant.id)?.reads.at(-1)?.block ?? 'no read';
    const release = (wrap: unknown = careWrap, epochId = summary.epochId) =>
      releaseSummaryForGrant(
        l.store.state(),
        { grantId: grant.id, epochId, readBlock: readBlock() },
        wrap,
        l.carePrivateKey,
        l.clock.now(),
      );
    return { l, grant, sealed, summary, documentKeys, careWrap, readBlock, release };
  }

  it('under a basic grant gives the doctor the summary key only, against his read block: titles open, files do not', async () => {
    const { l, grant, sealed, summary, careWrap, readBlock, release } = await basicGrant();
    expect(await release()).toMatch(/is not a read under grant/); // no read on the chain yet: no key
    await l.service.emergencyView(grant.id);
    const released = await release();
    expect(released).toMatchObject({ to: WILSON.id, from: CARE_NETWORK, cid: summary.epochId });
    expect(JSON.stringify(released)).not.toContain(summary.key);

    const wilson = await l.privateKey(WILSON.id);
    const opened = await openSummaryWrap(released, wilson);
    expect(opened).toEqual(summary);
    const record = await openClinicalRecord(sealed, new Map([[summary.epochId, opened!.key]]), new Map());
    expect(record?.record.title).toBe(TITLE);
    expect(record?.filesOpened).toEqual([false, false]);
    // the document keys stay with the care network under basic access
    const documentRelease = await releaseForGrant(
      l.store.state(),
      { grantId: grant.id, documentId: 'doc-1', readBlock: readBlock() },
      careWrap,
      l.carePrivateKey,
      l.clock.now(),
    );
    expect(documentRelease).toMatch(/basic access, which opens no files/);
    for (const other of [SARAH.id, MICHAEL.id, CARTER.id])
      expect(await openSummaryWrap(released, await l.privateKey(other))).toBeNull();
  });

  it('releases nothing for another epoch or patient, a wrap not to the care network, an ended grant, or without consent', async () => {
    const { l, grant, summary, release } = await basicGrant();
    await l.service.emergencyView(grant.id);
    const michaels = await createSummaryKey(MICHAEL.id);
    const [michaelWrap] = await wrapSummaryKeyTo(michaels, [{ id: CARE_NETWORK, publicKey: l.care.publicKey }], MICHAEL.id);
    expect(await release(michaelWrap, michaels.epochId)).toMatch(/not the care network's wrap of epoch/);
    expect(await release(undefined, (await createSummaryKey(SARAH.id)).epochId)).toMatch(/not the care network's wrap of epoch/);
    const [toSarah] = await wrapSummaryKeyTo(
      summary,
      summaryRecipients(l.store.state(), SARAH.id, l.clock.now(), null),
      SARAH.id,
    );
    expect(await release(toSarah)).toMatch(/not the care network's wrap/);

    await signInAs(l.service, SARAH);
    await l.service.setCareNetworkConsent(false);
    expect(await release()).toMatch(/does not let the care network/);
    await l.service.setCareNetworkConsent(true);
    expect(await release()).toMatchObject({ to: WILSON.id });
    await l.service.endEmergencyAccessAsPatient(grant.id);
    expect(await release()).toMatch(/is not active/);
  });
});

describe('rotation after a revoke', () => {
  it('seals what is written next under a new epoch the revoked doctor never gets: his old key opens none of it', async () => {
    const l = await ledger();
    const start = l.clock.now();
    const share = await l.service.shareRecords({ doctorId: WILSON.id, accessLevel: 'full', durationDays: 0 });
    const first = await createSummaryKey(SARAH.id);
    const wilson = await l.privateKey(WILSON.id);
    const before = await opensFor(await wrapsOfEpoch(l, first), wilson);
    expect(before).toEqual([first]);
    expect(rotationDue(l.store.state(), SARAH.id, start, l.clock.now())).toBe(false);

    l.clock.advance(60_000);
    await l.service.revokeShare(share.id);
    expect(rotationDue(l.store.state(), SARAH.id, start, l.clock.now())).toBe(true);
    const second = await createSummaryKey(SARAH.id);
    const wraps = await wrapsOfEpoch(l, second);
    expect(wraps.map((wrap) => wrap.to)).not.toContain(WILSON.id);
    expect(await opensFor(wraps, wilson)).toEqual([]);

    const afterRevoke: SealedClinicalRecord = await sealClinicalRecord(
      upload('record-after-revoke'),
      second,
      new Map([
        ['doc-1', randomKey()],
        ['doc-2', randomKey()],
      ]),
    );
    expect(afterRevoke.sealed.key).toBe(second.epochId);
    const keptByWilson = new Map(before.map((key) => [key.epochId, key.key]));
    expect(await openClinicalRecord(afterRevoke, keptByWilson, new Map())).toBeNull();
    // …even named as his old epoch: the new key is not his
    expect(
      await openClinicalRecord(
        { ...afterRevoke, sealed: { ...afterRevoke.sealed, key: first.epochId } },
        keptByWilson,
        new Map(),
      ),
    ).toBeNull();
    // Sarah's devices hold both epochs and open it
    const sarahs = new Map((await opensFor(wraps, await l.privateKey(SARAH.id))).map((key) => [key.epochId, key.key]));
    expect((await openClinicalRecord(afterRevoke, sarahs, new Map()))?.record.title).toBe(TITLE);
  });

  it('is due after a grant expires, and not for a grant still open', async () => {
    const l = await ledger();
    const start = l.clock.now();
    await signInAs(l.service, WILSON);
    await l.service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'Chest pain',
      accessLevel: 'basic',
      durationMinutes: 30,
    });
    expect(rotationDue(l.store.state(), SARAH.id, start, l.clock.now())).toBe(false);
    l.clock.advance(31 * 60_000);
    expect(rotationDue(l.store.state(), SARAH.id, start, l.clock.now())).toBe(true);
    expect(rotationDue(l.store.state(), MICHAEL.id, start, l.clock.now())).toBe(false);
  });
});

describe('a doctor’s text sealed to its readers', () => {
  it('opens for the patient and the doctor only, not moved to another record, and holds the reason in no encoding', async () => {
    const l = await ledger();
    const reason = 'Overdose suspected, unresponsive';
    const enrolled = l.store.state().enrolment!.encryption!;
    const binding = { recordId: 'grant-record-1', patientId: SARAH.id, type: 'emergency_access' };
    const readers = [SARAH.id, WILSON.id].map((id) => ({ id, publicKey: enrolled[id] }));
    const sealed = await sealToReaders(binding, { reason }, readers, WILSON.id);
    for (const id of [SARAH.id, WILSON.id])
      expect(await openFromReaders(sealed, id, await l.privateKey(id), binding)).toEqual({ reason });
    for (const id of [MICHAEL.id, CARTER.id]) {
      expect(await openFromReaders(sealed, id, await l.privateKey(id), binding)).toBeNull();
      const readdressed = { ...sealed, wraps: sealed.wraps.map((wrap) => ({ ...wrap, to: id })) };
      expect(await openFromReaders(readdressed, id, await l.privateKey(id), binding)).toBeNull();
    }
    const elsewhere = { ...binding, recordId: 'grant-record-2' };
    expect(await openFromReaders(sealed, SARAH.id, await l.privateKey(SARAH.id), elsewhere)).toBeNull();
    const json = JSON.stringify(sealed);
    for (const encoding of encodingsOf(reason)) expect(json).not.toContain(encoding);
  });
});

describe('the clear fields a rule can check', () => {
  it('pass for a sealed upload under an announced epoch, and name text left in clear, an unknown epoch or a file not sealed', async () => {
    const { sealed, summary } = await sealedUpload();
    const announced = new Set([summary.epochId]);
    expect(sealedUploadProblem(sealed, announced)).toBeNull();
    expect(sealedUploadProblem(sealed, new Set())).toMatch(/epoch its patient did not announce/);
    expect(sealedUploadProblem({ ...sealed, title: TITLE }, announced)).toMatch(/holds text in clear/);
    const named = { ...sealed, files: [{ ...sealed.files[0], name: FILE_NAME }, sealed.files[1]] };
    expect(sealedUploadProblem(named, announced)).toMatch(/holds text in clear/);
    const underSummary = { ...sealed, files: [{ ...sealed.files[0], sealed: sealed.sealed }, sealed.files[1]] };
    expect(sealedUploadProblem(underSummary, announced)).toMatch(/not sealed under its document's key/);
  });

  it('pass for a reason sealed to the grant’s patient and doctor, and not when another reader has a wrap', async () => {
    const l = await ledger();
    const enrolled = l.store.state().enrolment!.encryption!;
    const binding = { recordId: 'grant-record-1', patientId: SARAH.id, type: 'emergency_access' };
    const to = (...ids: string[]) => ids.map((id) => ({ id, publicKey: enrolled[id] }));
    const sealed = await sealToReaders(binding, { reason: 'Chest pain' }, to(SARAH.id, WILSON.id), WILSON.id);
    expect(readerSealedProblem(sealed, SARAH.id, WILSON.id, binding.recordId)).toBeNull();
    expect(readerSealedProblem(sealed, SARAH.id, WILSON.id, 'grant-record-2')).toMatch(/not sealed to exactly/);
    const wider = await sealToReaders(binding, { reason: 'Chest pain' }, to(SARAH.id, CARTER.id), WILSON.id);
    expect(readerSealedProblem(wider, SARAH.id, WILSON.id, binding.recordId)).toMatch(/not sealed to exactly/);
    expect(readerSealedProblem({ part: sealed.part, wraps: 'none' }, SARAH.id, WILSON.id, binding.recordId)).toMatch(
      /holds no text sealed/,
    );
  });
});
