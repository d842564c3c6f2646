// The chain's rules on sealed records (docs/decisions/nothing-medical-in-clear.md, "The chain's rules on what is in
// clear"): from clear fields alone, once a patient announced a summary epoch, nothing of theirs travels in clear.
// Chains here are mined and signed in workers/core, as a device or the sync server verifies them.
import { beforeAll, describe, expect, it } from 'vitest';
import { mineBlock, createGenesisBlock } from '../../workers/core/chain';
import { accessScope, readText, sentRecords, titledReadText } from '../../workers/core/access';
import { DIFFICULTY, MAX_FILES_PER_UPLOAD } from '../../workers/core/constants';
import { USERS } from '../../workers/core/directory';
import { bytesToHex } from '../../workers/core/ids';
import { createEncryptionKeyPair, exportEncryptionPublicKey, type Recipient } from '../../workers/core/key-wraps';
import {
  deletionRecord,
  emergencyRecord,
  genesisRecord,
  grantExpiresAt,
  iso,
  shareExpiresAt,
  shareRecord,
} from '../../workers/core/ledger-records';
import { emptyState, project, verifyLedger, type LedgerState } from '../../workers/core/projection';
import { recordProblem } from '../../workers/core/record-format';
import {
  MAX_SEALED_DATA,
  createSummaryKey,
  sealClinicalRecord,
  sealToReaders,
  type ReaderSealed,
  type SealedClinicalRecord,
  type SummaryKey,
} from '../../workers/core/sealed-fields';
import { LEDGER_AUTHOR, SIGNATURE_ALGORITHM, firstSignatureFailure, signBlock, toBase64 } from '../../workers/core/signatures';
import type {
  Block,
  ChainRecord,
  ClinicalRecord,
  EmergencyGrant,
  EmergencyRecord,
  KeyEnrolment,
  Share,
  ShareRecord,
} from '../../workers/core/types';
import { CARTER, MICHAEL, MINUTE, SARAH, START, WILSON } from '../support/ledger-fixtures';

const CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';
const REASON = 'Unconscious in the ER, suspected overdose';
const NOTE = 'Second opinion on the HIV treatment';

const randomKey = () => bytesToHex(crypto.getRandomValues(new Uint8Array(32)));

interface Keys {
  enrolment: KeyEnrolment;
  signing: Map<string, CryptoKey>; // author -> private Ed25519 key
  readers: Map<string, Recipient>; // user id -> enrolled encryption key
}

let keys: Keys;
beforeAll(async () => {
  const signing = new Map<string, CryptoKey>();
  const publicKeys = new Map<string, string>();
  for (const id of [LEDGER_AUTHOR, ...USERS.map((user) => user.id)]) {
    const pair = (await crypto.subtle.generateKey(SIGNATURE_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
    signing.set(id, pair.privateKey);
    publicKeys.set(id, toBase64(await crypto.subtle.exportKey('raw', pair.publicKey)));
  }
  const readers = new Map<string, Recipient>();
  for (const user of USERS) {
    readers.set(user.id, {
      id: user.id,
      publicKey: await exportEncryptionPublicKey((await createEncryptionKeyPair()).publicKey),
    });
  }
  const users = Object.fromEntries(USERS.map((user) => [user.id, publicKeys.get(user.id) as string]));
  const encryption = Object.fromEntries([...readers].map(([id, reader]) => [id, reader.publicKey]));
  keys = {
    enrolment: { algorithm: 'Ed25519', ledger: publicKeys.get(LEDGER_AUTHOR) as string, users, encryption },
    signing,
    readers,
  };
});

// A chain growing one signed block a minute: `add` keeps a block only when the whole chain verifies with it.
async function createChain() {
  const blocks: Block[] = [];
  let ids = 0;
  const chain = {
    blocks,
    id: (kind: string) => `${kind}-${++ids}`,
    at: () => START + blocks.length * MINUTE, // the next block's time (ms)
    now: () => iso(chain.at()),
    state: (): LedgerState => project(blocks),
    // the rule the record breaks as the next block, or null (then it is on the chain)
    async add(record: ChainRecord): Promise<string | null> {
      const previous = blocks.at(-1);
      const mined = previous ? mineBlock(previous, record, record.timestamp) : createGenesisBlock(record, record.timestamp);
      const block = await signBlock(mined, keys.signing.get(mined.author) as CryptoKey);
      const verified = verifyLedger([...blocks, block], DIFFICULTY);
      if (verified.firstInvalid) return verified.firstInvalid.reason;
      blocks.push(block);
      return null;
    },
    async mustAdd(record: ChainRecord): Promise<void> {
      expect(await chain.add(record)).toBeNull();
    },
  };
  await chain.mustAdd(genesisRecord(chain.id('genesis'), chain.now(), keys.enrolment));
  return chain;
}

type Chain = Awaited<ReturnType<typeof createChain>>;

function clearUpload(chain: Chain, patient = SARAH, files = 1): ClinicalRecord {
  const id = chain.id('upload');
  return {
    id,
    patientId: patient.id,
    doctorId: patient.doctorId ?? '',
    type: 'test_report',
    title: 'HIV test, positive',
    description: 'Viral load 12,400 copies/mL',
    timestamp: chain.now(),
    files: Array.from({ length: files }, (_, i) => ({
      documentId: `${id}-doc-${i + 1}`,
      name: `hiv-viral-load-${i + 1}.pdf`,
      type: 'application/pdf',
      size: 48_213,
      cid: CID,
    })),
  };
}

async function sealedUpload(chain: Chain, summary: SummaryKey, files = 1): Promise<SealedClinicalRecord> {
  const record = clearUpload(chain, summary.patientId === MICHAEL.id ? MICHAEL : SARAH, files);
  return sealClinicalRecord(record, summary, new Map(record.files.map((file) => [file.documentId, randomKey()])));
}

// A chain where Sarah announced an epoch (her first sealed upload): what she writes next is sealed.
async function sealedChain() {
  const chain = await createChain();
  const summary = await createSummaryKey(SARAH.id);
  await chain.mustAdd(await sealedUpload(chain, summary));
  return { chain, summary };
}

// A sealed chain and a record made on it by `seal` (not yet added): the start of the grant and share tests.
async function sealedChainWith<T>(seal: (chain: Chain) => Promise<T>): Promise<T & { chain: Chain }> {
  const { chain } = await sealedChain();
  return { chain, ...(await seal(chain)) };
}

const readers = (...ids: string[]) => ids.map((id) => keys.readers.get(id) as Recipient);

function grantOf(chain: Chain, reason: string, doctorId = WILSON.id): EmergencyGrant {
  const at = chain.at();
  return {
    id: chain.id('grant'),
    patientId: SARAH.id,
    doctorId,
    accessLevel: 'basic',
    reason,
    durationMinutes: 60,
    expiresAt: grantExpiresAt(at, 60),
    createdAt: iso(at),
    isActive: true,
  };
}

// Dr. Wilson's grant on Sarah with its reason sealed to `to` (the patient and him, unless a test says otherwise).
async function sealedGrant(
  chain: Chain,
  to = [SARAH.id, WILSON.id],
): Promise<{ grant: EmergencyGrant; record: EmergencyRecord }> {
  const grant = grantOf(chain, '');
  const record = emergencyRecord(chain.id('record'), grant, 'granted', chain.now());
  const binding = { recordId: record.id, patientId: SARAH.id, type: record.type };
  const sealedReason = await sealToReaders(binding, { reason: REASON }, readers(...to), WILSON.id);
  return { grant, record: { ...record, emergency: { ...record.emergency, sealedReason } } };
}

function shareOf(chain: Chain, note: string): Share {
  const at = chain.at();
  return {
    id: chain.id('share'),
    patientId: SARAH.id,
    doctorId: WILSON.id,
    accessLevel: 'basic',
    durationDays: 7,
    note,
    createdAt: iso(at),
    expiresAt: shareExpiresAt(at, 7),
  };
}

async function sealedShare(chain: Chain, to = [SARAH.id, WILSON.id]): Promise<{ share: Share; record: ShareRecord }> {
  const share = shareOf(chain, '');
  const record = shareRecord(chain.id('record'), share, 'shared', chain.now());
  const binding = { recordId: record.id, patientId: SARAH.id, type: record.type };
  const sealedNote = await sealToReaders(binding, { note: NOTE }, readers(...to), SARAH.id);
  return { share, record: { ...record, share: { ...record.share, sealedNote } } };
}

describe('the shape of sealed records', () => {
  it('takes a sealed upload whose files are named "" with their parts, and a grant and a share with text sealed to readers', async () => {
    const chain = await createChain();
    const summary = await createSummaryKey(SARAH.id);
    expect(recordProblem(await sealedUpload(chain, summary))).toBeNull();
    expect(recordProblem((await sealedGrant(chain)).record)).toBeNull();
    expect(recordProblem((await sealedShare(chain)).record)).toBeNull();
  });

  it('refuses a sealed part longer than its bound, and text sealed to more than two readers', async () => {
    const chain = await createChain();
    const upload = await sealedUpload(chain, await createSummaryKey(SARAH.id));
    const long = { ...upload.sealed, data: 'A'.repeat(MAX_SEALED_DATA + 4) };
    expect(recordProblem({ ...upload, sealed: long })).toBe('record is malformed (it has a malformed "sealed")');
    const file = { ...upload.files[0], sealed: long };
    expect(recordProblem({ ...upload, files: [file] })).toBe('record is malformed (it has a malformed "files")');
    const { record } = await sealedGrant(chain, [SARAH.id, WILSON.id, CARTER.id]);
    expect(recordProblem(record)).toBe('record is malformed (it has a malformed "emergency")');
  });

  it('keeps the genesis in clear: a diagnosis carries no sealed part', async () => {
    const chain = await createChain();
    const upload = await sealedUpload(chain, await createSummaryKey(SARAH.id));
    const genesis = genesisRecord('g', chain.now(), keys.enrolment);
    expect(recordProblem({ ...genesis, sealed: upload.sealed })).toBe('record is malformed (it has an unknown field "sealed")');
  });
});

describe('an upload once its patient sealed', () => {
  it('is legal sealed under an epoch she announced, and its files are projected without name or type', async () => {
    const { chain, summary } = await sealedChain();
    const upload = await sealedUpload(chain, summary, 2);
    await chain.mustAdd(upload);
    for (const file of upload.files) {
      expect(chain.state().documents.get(file.documentId)).toMatchObject({ fileName: '', fileType: '', fileSize: 48_213 });
    }
  });

  it('announces a new epoch with the first upload sealed under it, which starts the epoch', async () => {
    const { chain, summary } = await sealedChain();
    const later = await createSummaryKey(SARAH.id);
    await chain.mustAdd(await sealedUpload(chain, later));
    await chain.mustAdd(await sealedUpload(chain, later)); // once announced, the same epoch may be named again
    await chain.mustAdd(await sealedUpload(chain, summary)); // and an earlier one of hers too
    expect(
      chain
        .state()
        .summaryEpochs.get(SARAH.id)
        ?.map((epoch) => epoch.epochId),
    ).toEqual([summary.epochId, later.epochId]);
  });

  it("refuses a part under another patient's epoch", async () => {
    const { chain } = await sealedChain();
    const michaels = await createSummaryKey(MICHAEL.id);
    await chain.mustAdd(await sealedUpload(chain, michaels));
    const upload = await sealedUpload(chain, await createSummaryKey(SARAH.id));
    const underMichaels = { ...upload, sealed: { ...upload.sealed, key: michaels.epochId } };
    expect(await chain.add(underMichaels)).toBe('an upload is sealed under an epoch its patient did not announce');
  });

  it('refuses an upload in clear: "an upload after sealing holds text in clear"', async () => {
    const { chain } = await sealedChain();
    expect(await chain.add(clearUpload(chain))).toBe('an upload after sealing holds text in clear');
  });

  it('refuses a sealed upload that still holds its title or a file name in clear', async () => {
    const { chain, summary } = await sealedChain();
    const upload = await sealedUpload(chain, summary);
    expect(await chain.add({ ...upload, title: 'HIV test, positive' })).toBe('an upload after sealing holds text in clear');
    const named = { ...upload.files[0], name: 'hiv-viral-load.pdf' };
    expect(await chain.add({ ...upload, files: [named] })).toBe('an upload after sealing holds text in clear');
  });

  it("refuses a sealed upload with a file that is not sealed under its document's key", async () => {
    const { chain, summary } = await sealedChain();
    const upload = await sealedUpload(chain, summary);
    const { sealed: _part, ...unsealed } = upload.files[0];
    expect(await chain.add({ ...upload, files: [unsealed] } as ChainRecord)).toBe(
      "a file of a sealed upload is not sealed under its document's key",
    );
  });

  it('still checks the clear fields of sealed files, naming the document instead of its sealed name', async () => {
    const { chain, summary } = await sealedChain();
    const upload = await sealedUpload(chain, summary);
    const [file] = upload.files;
    expect(await chain.add({ ...upload, files: [{ ...file, size: 0 }] })).toBe(
      `document ${file.documentId} has a size outside 1 byte to 10 MB`,
    );
    expect(await chain.add({ ...upload, files: [{ ...file, size: 10 * 1024 * 1024 + 1 }] })).toBe(
      `document ${file.documentId} has a size outside 1 byte to 10 MB`,
    );
    expect(await chain.add({ ...upload, files: [{ ...file, cid: 'QmNotAContentId' }] })).toBe(
      `document ${file.documentId} has no valid content id`,
    );
    expect(await chain.add({ ...upload, files: [file, file] })).toBe(
      `document ${file.documentId} is already named by another record`,
    );
    expect(await chain.add({ ...upload, files: [] })).toBe(`an upload must hold 1 to ${MAX_FILES_PER_UPLOAD} files`);
    const many = await sealedUpload(chain, summary, MAX_FILES_PER_UPLOAD + 1);
    expect(await chain.add(many)).toBe(`an upload must hold 1 to ${MAX_FILES_PER_UPLOAD} files`);
  });
});

describe('an upload before its patient sealed', () => {
  it("keeps today's checks in clear, and another patient's epoch changes nothing for her", async () => {
    const chain = await createChain();
    await chain.mustAdd(await sealedUpload(chain, await createSummaryKey(MICHAEL.id)));
    expect(await chain.add({ ...clearUpload(chain), title: '' })).toBe('an upload has no valid title');
    const unnamed = clearUpload(chain);
    expect(await chain.add({ ...unnamed, files: [{ ...unnamed.files[0], name: '' }] })).toBe(
      'A file without a name cannot be uploaded',
    );
    const upload = clearUpload(chain);
    expect(await chain.add({ ...upload, files: [{ ...upload.files[0], size: 0 }] })).toBe(
      '"hiv-viral-load-1.pdf" has a size outside 1 byte to 10 MB',
    );
    await chain.mustAdd(clearUpload(chain));
  });
});

describe('a grant once its patient sealed', () => {
  it('is legal with its reason sealed to the patient and the doctor; the state holds "" for it', async () => {
    const { chain, grant, record } = await sealedChainWith(sealedGrant);
    await chain.mustAdd(record);
    expect(chain.state().grants.get(grant.id)?.grant.reason).toBe('');
  });

  it('refuses a sealed grant whose reason or description is still in clear', async () => {
    const { chain, record } = await sealedChainWith(sealedGrant);
    const inReason = { ...record, emergency: { ...record.emergency, reason: REASON } };
    expect(await chain.add(inReason)).toBe('a sealed grant holds its reason in clear');
    expect(await chain.add({ ...record, description: REASON })).toBe('a sealed grant holds its reason in clear');
  });

  it('refuses a reason sealed to anyone but exactly the patient and the doctor', async () => {
    const { chain } = await sealedChain();
    for (const to of [[SARAH.id, CARTER.id], [WILSON.id], []]) {
      const { record } = await sealedGrant(chain, to);
      expect(await chain.add(record)).toBe("the record's text is not sealed to exactly its patient and its doctor");
    }
  });

  it('refuses a reason sealed for another record', async () => {
    const { chain, record } = await sealedChainWith(sealedGrant);
    const other = (await sealedGrant(chain)).record.emergency.sealedReason as ReaderSealed;
    const moved = { ...record, emergency: { ...record.emergency, sealedReason: other } };
    expect(await chain.add(moved)).toBe("the record's text is not sealed to exactly its patient and its doctor");
  });

  it('refuses a grant with its reason in clear: "a grant after sealing holds its reason in clear"', async () => {
    const { chain } = await sealedChain();
    const record = emergencyRecord(chain.id('record'), grantOf(chain, REASON), 'granted', chain.now());
    expect(await chain.add(record)).toBe('a grant after sealing holds its reason in clear');
  });

  it('takes its read and end carrying "" for the reason, and refuses a follow-up that carries the sealed reason', async () => {
    const { chain, grant, record } = await sealedChainWith(sealedGrant);
    await chain.mustAdd(record);
    const read = emergencyRecord(chain.id('record'), grant, 'read', chain.now(), {
      what: 'profile, health overview and 2 records',
    });
    const carrying = { ...read, emergency: { ...read.emergency, sealedReason: record.emergency.sealedReason } };
    expect(await chain.add(carrying)).toBe('read carries a sealed reason');
    const inClear = { ...read, emergency: { ...read.emergency, reason: REASON } };
    expect(await chain.add(inClear)).toBe(`read does not match grant ${grant.id} (doctor, patient, level, reason or expiry)`);
    await chain.mustAdd(read);
    await chain.mustAdd(emergencyRecord(chain.id('record'), grant, 'ended', chain.now()));
  });
});

describe('a grant before its patient sealed', () => {
  it("keeps today's check of the reason in clear", async () => {
    const chain = await createChain();
    expect(await chain.add(emergencyRecord(chain.id('record'), grantOf(chain, ''), 'granted', chain.now()))).toBe(
      'a grant has no valid reason',
    );
    await chain.mustAdd(emergencyRecord(chain.id('record'), grantOf(chain, REASON), 'granted', chain.now()));
  });
});

describe('a share once its patient sealed', () => {
  it('is legal with its note sealed to the patient and the doctor; the state holds "" for it', async () => {
    const { chain, share, record } = await sealedChainWith(sealedShare);
    await chain.mustAdd(record);
    expect(chain.state().shares.get(share.id)?.share.note).toBe('');
  });

  it('refuses a sealed share whose note or description is still in clear', async () => {
    const { chain, record } = await sealedChainWith(sealedShare);
    expect(await chain.add({ ...record, share: { ...record.share, note: NOTE } })).toBe('a sealed share holds its note in clear');
    expect(await chain.add({ ...record, description: NOTE })).toBe('a sealed share holds its note in clear');
  });

  it('refuses a note sealed to anyone but exactly the patient and the doctor', async () => {
    const { chain } = await sealedChain();
    const { record } = await sealedShare(chain, [SARAH.id, CARTER.id]);
    expect(await chain.add(record)).toBe("the record's text is not sealed to exactly its patient and its doctor");
  });

  it('refuses a share with its note in clear: "a share after sealing holds its note in clear"', async () => {
    const { chain } = await sealedChain();
    expect(await chain.add(shareRecord(chain.id('record'), shareOf(chain, NOTE), 'shared', chain.now()))).toBe(
      'a share after sealing holds its note in clear',
    );
    // an empty note in clear is text in clear all the same: a sealed ledger's shares carry a sealed part
    expect(await chain.add(shareRecord(chain.id('record'), shareOf(chain, ''), 'shared', chain.now()))).toBe(
      'a share after sealing holds its note in clear',
    );
  });

  it('takes its read and revoke carrying "" for the note, and refuses a follow-up that carries the sealed note', async () => {
    const { chain, share, record } = await sealedChainWith(sealedShare);
    await chain.mustAdd(record);
    const read = shareRecord(chain.id('record'), share, 'read', chain.now(), { what: 'profile, health overview and 2 records' });
    expect(await chain.add({ ...read, share: { ...read.share, sealedNote: record.share.sealedNote } })).toBe(
      'read carries a sealed note',
    );
    await chain.mustAdd(read);
    const revoke = shareRecord(chain.id('record'), share, 'revoked', chain.now());
    expect(await chain.add({ ...revoke, share: { ...revoke.share, note: NOTE } })).toBe(
      `revoked does not match share ${share.id} (doctor, patient, level, duration or note)`,
    );
    await chain.mustAdd(revoke);
  });
});

describe('a share before its patient sealed', () => {
  it("keeps today's check of the note in clear", async () => {
    const chain = await createChain();
    expect(await chain.add(shareRecord(chain.id('record'), shareOf(chain, ' padded '), 'shared', chain.now()))).toBe(
      'a share has no valid note',
    );
    await chain.mustAdd(shareRecord(chain.id('record'), shareOf(chain, NOTE), 'shared', chain.now()));
  });
});

describe('what a read records', () => {
  const entries = (...titles: string[]) => titles.map((title, index) => ({ index, hash: '', record: { title } as ChainRecord }));

  it('counts the records it sent under either level and names no title', () => {
    const sent = entries('HIV test, positive', 'Initial health assessment');
    expect(readText('basic', sent)).toBe('profile, health overview and 2 records');
    expect(readText('basic', sent.slice(1))).toBe('profile, health overview and 1 record');
    expect(readText('full', sent)).toBe('profile, health overview and the complete history (2 records)');
    expect(readText('basic', [])).toBe('profile and health overview (no records)');
    expect(titledReadText('basic', sent)).toBe(
      'profile, health overview and 2 records: "HIV test, positive", "Initial health assessment"',
    );
    expect(titledReadText('full', sent)).toBe(readText('full', sent));
  });

  it('is legal as a count, as the titled text of older chains, or as the fixed text of the oldest, and nothing else', async () => {
    const chain = await createChain();
    await chain.mustAdd(clearUpload(chain));
    const grant = grantOf(chain, REASON);
    await chain.mustAdd(emergencyRecord(chain.id('record'), grant, 'granted', chain.now()));
    const read = (what: string) => emergencyRecord(chain.id('record'), grant, 'read', chain.now(), { what });
    expect(await chain.add(read('profile, health overview and 2 records: "HIV test, positive", "Blood panel"'))).toBe(
      'a read names more than its level covers',
    );
    expect(await chain.add(read('profile, health overview and 3 records'))).toBe('a read names more than its level covers');
    await chain.mustAdd(read('profile, health overview and 2 records'));
    await chain.mustAdd(read('profile, health overview and 2 records: "HIV test, positive", "Initial health assessment"'));
    await chain.mustAdd(read(accessScope('basic').legacyRead));
  });
});

describe('a deletion of a sealed file', () => {
  it('is written and legal with no title; one that names the file in clear is refused', async () => {
    const { chain, summary } = await sealedChain();
    const upload = await sealedUpload(chain, summary);
    await chain.mustAdd(upload);
    const document = chain.state().documents.get(upload.files[0].documentId);
    if (!document) throw new Error('the sealed file is not projected');
    const deletion = deletionRecord(chain.id('record'), document, chain.now());
    expect(deletion).toMatchObject({ title: '', description: '', documentId: document.id });
    expect(await chain.add({ ...deletion, title: 'File deleted: hiv-viral-load-1.pdf' })).toBe(
      'a deletion names a sealed file in clear',
    );
    expect(await chain.add({ ...deletion, description: 'hiv-viral-load-1.pdf' })).toBe('a deletion names a sealed file in clear');
    await chain.mustAdd(deletion);
    expect(chain.state().documents.get(document.id)?.deletedAt).toBe(deletion.timestamp);
  });

  it('leaves the deletion of a file in clear as it was: its title names the file', async () => {
    const chain = await createChain();
    const upload = clearUpload(chain);
    await chain.mustAdd(upload);
    const document = chain.state().documents.get(upload.files[0].documentId);
    if (!document) throw new Error('the file is not projected');
    const deletion = deletionRecord(chain.id('record'), document, chain.now());
    expect(deletion.title).toBe('File deleted: hiv-viral-load-1.pdf');
    await chain.mustAdd(deletion);
  });
});

describe('a sealed ledger replayed', () => {
  it('verifies, in one pass or in slices, and projects the same state as it was written', async () => {
    const { chain, summary } = await sealedChain();
    await chain.mustAdd(await sealedUpload(chain, summary, 2));
    await chain.mustAdd(await sealedUpload(chain, summary));
    const { grant, record } = await sealedGrant(chain);
    await chain.mustAdd(record);
    const what = readText('basic', sentRecords(chain.state(), SARAH.id, 'basic'));
    expect(what).toBe('profile, health overview and 4 records');
    await chain.mustAdd(emergencyRecord(chain.id('record'), grant, 'read', chain.now(), { what }));
    const { share, record: shared } = await sealedShare(chain);
    await chain.mustAdd(shared);
    await chain.mustAdd(shareRecord(chain.id('record'), share, 'read', chain.now(), { what }));

    const stored: Block[] = JSON.parse(JSON.stringify(chain.blocks)); // as storage and the sync server hand them back
    const whole = verifyLedger(stored, DIFFICULTY);
    expect(whole.firstInvalid).toBeUndefined();
    expect(whole.state.height).toBe(stored.length);
    expect(whole.state).toEqual(project(chain.blocks));
    let sliced = verifyLedger(stored, DIFFICULTY, { state: emptyState() }, 3);
    sliced = verifyLedger(stored, DIFFICULTY, sliced, 6);
    sliced = verifyLedger(stored, DIFFICULTY, sliced);
    expect(sliced).toEqual(whole);
    expect(await firstSignatureFailure(stored, keys.enrolment, new Map())).toBeNull();

    const state = whole.state;
    expect(state.summaryEpochs.get(SARAH.id)?.map((epoch) => epoch.epochId)).toEqual([summary.epochId]);
    expect(state.grants.get(grant.id)).toMatchObject({ grant: { reason: '' }, reads: [{ what }] });
    expect(state.shares.get(share.id)).toMatchObject({ share: { note: '' }, reads: [{ what }] });
    // nothing medical is left in clear anywhere on the replayed chain
    const clear = JSON.stringify(stored);
    for (const secret of ['HIV test, positive', 'hiv-viral-load', 'Viral load', REASON, NOTE])
      expect(clear).not.toContain(secret);
  });
});
