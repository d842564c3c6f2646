import { CarReader } from '@ipld/car';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import type { BackupScope, LedgerChange, LedgerService } from '../../workers/api';
import type { LedgerBroadcast } from '../../workers/ledger/deps';
import { assembleDocument, openContents, readBackupFile, type BackupHeader } from '../../workers/core/backup-file';
import { contentId, storedSize } from '../../workers/core/documents';
import type { Block } from '../../workers/core/types';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import {
  CARTER,
  DENIED,
  MICHAEL,
  SARAH,
  WILSON,
  errorOf,
  fileInput,
  signInAs,
  textOf,
  uploadOf,
} from '../support/ledger-fixtures';
import { joined, ledgerWithHistory, recordsWithFileHashes } from '../support/portability-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

const PASSWORD = 'correct horse battery';

async function backupOf(
  service: LedgerService,
  scope: BackupScope = 'browser',
  password = PASSWORD,
): Promise<Uint8Array<ArrayBuffer>> {
  const file = await service.downloadBackup(crypto.randomUUID(), password, scope);
  if (!file) throw new Error('the backup was cancelled');
  expect(file.mimeType).toBe('application/vnd.ipld.car');
  return joined(file);
}

// A second browser profile: its own storage, its own chain, with one upload of Michael's to be replaced.
async function otherBrowser() {
  const service = createTestLedgerService({ storage: createMemoryStorage() });
  await signInAs(service, MICHAEL);
  await service.upload(uploadOf('Knee MRI', [fileInput('knee.pdf', 'knee')]));
  return service;
}

// A new browser: nothing but the untouched demo ledger (its genesis block), Michael signed in.
async function freshBrowser(overrides: Parameters<typeof createTestLedgerService>[0] = {}) {
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage, ...overrides });
  await signInAs(service, MICHAEL);
  return { service, storage };
}

// Two browsers of one ledger: A made it, B restored A's whole-browser backup; Sarah signed in on both.
async function sameLedgerPair() {
  const { service: a } = await ledgerWithHistory();
  const { service: b, storage } = await freshBrowser();
  await b.confirmRestore((await b.prepareRestore((await backupOf(a)).buffer, PASSWORD)).planId);
  await signInAs(b, SARAH);
  return { a, b, storage, height: (await a.chainStatus()).height };
}

// The sealed contents of a backup, opened as a restore would.
async function contentsOf(backup: Uint8Array) {
  const { header, documentIds } = await readBackupFile(backup);
  return { ...(await openContents(header, PASSWORD)), documentIds };
}

async function everything(service: LedgerService) {
  await signInAs(service, SARAH);
  const sarah = { records: await recordsWithFileHashes(service, SARAH.id), history: await service.accessHistory() };
  await signInAs(service, MICHAEL);
  const michael = await recordsWithFileHashes(service, MICHAEL.id);
  return { sarah, michael, status: await service.chainStatus() };
}

describe('backup and restore', () => {
  it('restores every record, file (by SHA-256) and access-history entry into a new browser, with a valid chain', async () => {
    const { service } = await ledgerWithHistory();
    await signInAs(service, MICHAEL);
    await service.upload(uploadOf('Allergy panel', [fileInput('latex.pdf', 'latex')]));
    const before = await everything(service);
    await signInAs(service, SARAH);
    const backup = await backupOf(service);

    const { service: target } = await freshBrowser();
    const plan = await target.prepareRestore(backup.buffer.slice(0), PASSWORD);
    expect(plan).toMatchObject({ mode: 'replace', scope: 'browser' });
    expect(plan.adds).toEqual({ blocks: before.status.height, records: 5, files: 4, accessEvents: 2 });
    expect(plan.current).toEqual({ blocks: 1, records: 1, files: 0, accessEvents: 0 });
    expect(await target.chainStatus()).toMatchObject({ height: 1 }); // nothing replaced yet
    const status = await target.confirmRestore(plan.planId);
    expect(status).toMatchObject({ valid: true, height: before.status.height });
    const restored = await everything(target);
    // a sealed file's name was under its key, which the deletion dropped
    expect(restored.sarah.records.find((record) => record.title === 'Old scan')?.files).toEqual(['Deleted file: deleted']);
    expect(restored).toEqual(before);
    expect(before.sarah.history[0]).toMatchObject({ reason: 'Unconscious in the ER', status: 'ended' });
  });

  it('is a CAR file whose every block matches its CID, rooted at the header and at every document id', async () => {
    const { service } = await ledgerWithHistory();
    const backup = await backupOf(service);
    const reader = await CarReader.fromBytes(backup);
    const roots = (await reader.getRoots()).map((root) => root.toString());
    const blocks = new Map<string, Uint8Array>();
    for await (const { cid, bytes } of reader.blocks()) {
      expect(CID.create(cid.version, cid.code, await sha256.digest(bytes)).equals(cid)).toBe(true);
      blocks.set(cid.toString(), bytes);
    }
    const header = JSON.parse(textOf(blocks.get(roots[0])?.slice().buffer as ArrayBuffer)) as BackupHeader;
    expect(header).toMatchObject({
      format: 'medledger-backup',
      version: 1, // the header's shape is unchanged; the sealed contents say their scope
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 1_000 },
    });
    expect(header.kdf.salt).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 16 random bytes
    const documents = (await service.listRecords(SARAH.id)).records
      .flatMap((record) => record.documents)
      .filter((document) => !document.deletedAt);
    expect(roots.slice(1).sort()).toEqual(documents.map((document) => document.ipfsHash).sort());
    for (const document of documents) {
      expect(blocks.has(document.ipfsHash)).toBe(true); // `ipfs dag import` resolves the id to the encrypted bytes
      const limit = { fileName: document.fileName, maxBytes: storedSize(document.fileSize), nextTask: () => Promise.resolve() };
      expect(await contentId(await assembleDocument(document.ipfsHash, blocks, limit))).toBe(document.ipfsHash);
    }
    const large = documents.find((document) => document.fileName === 'rx.png');
    expect(large && CID.parse(large.ipfsHash).version).toBe(0); // 300 KB: a root over two 256 KiB-chunk leaves, as `ipfs add` makes
  });

  it('keeps the chain and the keys sealed: no title or key is readable in the file', async () => {
    const { service, storage } = await ledgerWithHistory();
    const text = textOf((await backupOf(service)).buffer);
    expect(text).not.toContain('Blood panel');
    expect(text).not.toContain('Unconscious in the ER');
    for (const { encryptionKey } of (await storage.load()).documents) expect(text).not.toContain(encryptionKey);
  });

  it('refuses a backup password shorter than 8 characters', async () => {
    const { service } = await ledgerWithHistory();
    expect(await errorOf(service.downloadBackup('b', 'short', 'mine'))).toEqual({
      name: 'ValidationError',
      message: 'Choose a backup password of at least 8 characters.',
    });
  });

  it('stops when cancelled and resolves null', async () => {
    const { service } = await ledgerWithHistory();
    const file = await service.downloadBackup(
      'backup-1',
      PASSWORD,
      'browser',
      (() => void service.cancelTransfer('backup-1')) as never,
    );
    expect(file).toBeNull();
  });

  describe('refuses, replacing nothing,', () => {
    async function refusal(file: Uint8Array, password = PASSWORD, target?: LedgerService) {
      target ??= await otherBrowser();
      const before = await everything(target);
      const error = await errorOf(target.prepareRestore(file.slice().buffer, password));
      expect(await everything(target)).toEqual(before);
      return error;
    }

    it('a wrong password', async () => {
      const backup = await backupOf((await ledgerWithHistory()).service);
      expect(await refusal(backup, 'not the password')).toEqual({
        name: 'ValidationError',
        message: 'The password is wrong: this backup cannot be opened with it. Nothing was replaced.',
      });
    });

    it('a truncated file', async () => {
      const backup = await backupOf((await ledgerWithHistory()).service);
      for (const length of [10, Math.floor(backup.length / 2), backup.length - 1]) {
        expect(await refusal(backup.subarray(0, length))).toMatchObject({
          name: 'ValidationError',
          message: expect.stringMatching(/^The backup file is damaged or incomplete: .+\. Nothing was replaced\.$/),
        });
      }
    });

    it('one changed byte anywhere in the file (40 places, header and roots included)', async () => {
      const backup = await backupOf((await ledgerWithHistory()).service);
      for (let at = 0; at < backup.length; at += Math.floor(backup.length / 40)) {
        const changed = backup.slice();
        changed[at] ^= 0x01;
        expect((await refusal(changed)).message).toMatch(
          /^(The backup file is damaged or incomplete|This file is not a MedLedger backup).*Nothing was replaced\.$/,
        );
      }
    });

    it('a file from something else: a FHIR export, a PDF, an empty file', async () => {
      const { service } = await ledgerWithHistory();
      const fhir = await service.exportFhir('e', { withFiles: false });
      for (const file of [fhir ? joined(fhir) : new Uint8Array(), new TextEncoder().encode('%PDF-1.4 ...'), new Uint8Array()]) {
        expect((await refusal(file)).message).toMatch(
          /^(This file is not a MedLedger backup\.|The backup file is damaged or incomplete: it is not a whole CAR file\.) Nothing was replaced\.$/,
        );
      }
      expect((await refusal(joined(fhir!))).message).toBe('This file is not a MedLedger backup. Nothing was replaced.');
    });

    it('a chain that fails verification, named with its block', async () => {
      const { service } = await ledgerWithHistory({ backupIterations: 1_000 });
      const backup = await backupOf(service);
      // A backup made of an edited chain: sealed with the right password, so only the chain's own checks catch it.
      const { readBackupFile, openContents, sealContents, headerBlock, createBackupWriter } =
        await import('../../workers/core/backup-file');
      const { header } = await readBackupFile(backup);
      const contents = await openContents(header, PASSWORD);
      (contents.blocks[2] as Block).data.title = 'Edited title';
      const resealed = await sealContents(contents, PASSWORD, 1_000, header.createdAt);
      // restored into a new browser, the one place a backup of another ledger may go
      const writer = createBackupWriter(await headerBlock(resealed), []);
      const parts = await writer.finish();
      const edited = new Uint8Array(await new Blob(parts).arrayBuffer());
      expect(await refusal(edited, PASSWORD, (await freshBrowser()).service)).toEqual({
        name: 'ValidationError',
        message:
          "The backup's chain fails verification at block 2 (record data was changed (data hash mismatch)). Nothing was replaced.",
      });
    });
  });

  it('tells this tab and the other tabs that everything changed, as a reset does', async () => {
    const backup = await backupOf((await ledgerWithHistory()).service);
    const broadcasts: LedgerBroadcast[] = [];
    const target = createTestLedgerService({
      storage: createMemoryStorage(),
      notifyOthers: (message) => broadcasts.push(message),
    });
    await signInAs(target, SARAH);
    const heard: LedgerChange[] = [];
    await target.onChange(((change: LedgerChange) => heard.push(change)) as never);
    const plan = await target.prepareRestore(backup.slice().buffer, PASSWORD);
    expect(heard).toEqual([]); // checking replaces and announces nothing
    await target.confirmRestore(plan.planId);
    expect(heard.at(-1)?.kinds).toContain('reset');
    expect(broadcasts.at(-1)).toMatchObject({ type: 'changed', kinds: expect.arrayContaining(['reset']) });
  });

  it('asks for the file again when a restore is confirmed twice or never prepared', async () => {
    const backup = await backupOf((await ledgerWithHistory()).service);
    const { service: target } = await freshBrowser();
    const plan = await target.prepareRestore(backup.slice().buffer, PASSWORD);
    await target.confirmRestore(plan.planId);
    // signed out: the session's key came from the keys the backup's replaced
    expect((await errorOf(target.chainStatus())).name).toBe('AccessDeniedError');
    await signInAs(target, MICHAEL);
    expect(await errorOf(target.confirmRestore(plan.planId))).toEqual({
      name: 'NotFoundError',
      message: 'This restore is no longer waiting: choose the backup file again.',
    });
  });

  it('forgets a checked restore when its user signs out: the next user cannot confirm it', async () => {
    const backup = await backupOf((await ledgerWithHistory()).service);
    const { service: target } = await freshBrowser();
    const plan = await target.prepareRestore(backup.slice().buffer, PASSWORD);
    await target.signOut();
    await signInAs(target, MICHAEL);
    expect(await errorOf(target.confirmRestore(plan.planId))).toEqual({
      name: 'NotFoundError',
      message: 'This restore is no longer waiting: choose the backup file again.',
    });
  });
});

describe('a backup holds what its maker may read', () => {
  it("gives a doctor's own backup no data, document key or bytes of a patient who is not theirs", async () => {
    const { service } = await ledgerWithHistory();
    await signInAs(service, MICHAEL);
    await service.upload(uploadOf('HIV test', [fileInput('hiv.pdf', 'michael only')]));
    const michael = (await service.listRecords(MICHAEL.id)).records.flatMap((record) => record.documents);
    await signInAs(service, CARTER); // Sarah's doctor, not Michael's
    const contents = await contentsOf(await backupOf(service, 'mine'));
    expect(contents.scope).toBe('mine');
    const blocks = (await service.blocksPage(0, 100)).blocks.reverse(); // the page is newest first
    expect(contents.blocks.map((block) => block.hash)).toEqual(blocks.map((block) => block.hash)); // every header: the links verify
    const michaels = contents.blocks.filter((block) => 'data' in block && block.data.patientId === MICHAEL.id);
    expect(michaels).toEqual([]);
    expect(contents.blocks.filter((block) => !('data' in block)).every((block) => 'opaque' in block && block.opaque)).toBe(true);
    expect(JSON.stringify(contents)).not.toContain('HIV test');
    for (const document of michael) {
      expect(Object.keys(contents.keys)).not.toContain(document.id);
      expect(contents.documentIds).not.toContain(document.ipfsHash);
    }
    expect(Object.keys(contents.signingKeys.users)).toEqual([CARTER.id]);
    expect(contents.signingKeys).not.toHaveProperty('ledger');
  });

  it("gives a patient's own backup their records, files and access history, and only their own key", async () => {
    const { service } = await ledgerWithHistory();
    await signInAs(service, MICHAEL);
    await service.upload(uploadOf('Knee MRI', [fileInput('knee.pdf', 'knee')]));
    await signInAs(service, SARAH);
    const contents = await contentsOf(await backupOf(service, 'mine'));
    const seen = contents.blocks.flatMap((block) => ('data' in block ? [block.data] : []));
    expect(seen.some((record) => record.type === 'emergency_access' && record.emergency.event === 'read')).toBe(true);
    expect(seen.every((record) => record.patientId === SARAH.id)).toBe(true);
    const live = (await service.listRecords(SARAH.id)).records.flatMap((record) => record.documents).filter((d) => !d.deletedAt);
    expect(contents.documentIds.sort()).toEqual(live.map((document) => document.ipfsHash).sort());
    expect(Object.keys(contents.signingKeys.users)).toEqual([SARAH.id]);
  });

  it("refuses a doctor's backup of the whole browser with the catalogue message", async () => {
    const { service } = await ledgerWithHistory();
    await signInAs(service, WILSON);
    expect(await errorOf(service.downloadBackup('b', PASSWORD, 'browser'))).toEqual(DENIED);
  });
});

describe('a restore merges', () => {
  it("keeps Dr. Wilson's emergency access and its reads when Sarah restores her older backup, and keeps her signed in", async () => {
    const { service } = await ledgerWithHistory();
    const older = await backupOf(service, 'mine');
    await signInAs(service, WILSON);
    const grant = await service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'Chest pain, unresponsive',
      accessLevel: 'full',
      durationMinutes: 30,
    });
    await service.emergencyView(grant.id);
    const before = await everything(service);
    await signInAs(service, SARAH);
    const plan = await service.prepareRestore(older.slice().buffer, PASSWORD);
    expect(plan).toMatchObject({ mode: 'merge', scope: 'mine', adds: { blocks: 0, records: 0, files: 0, accessEvents: 0 } });
    expect(await service.confirmRestore(plan.planId)).toMatchObject({ valid: true, height: before.status.height });
    const history = await service.accessHistory(); // still signed in
    expect(history.find((entry) => entry.grantId === grant.id)?.reads).toHaveLength(1);
    expect(await everything(service)).toEqual(before);
  });

  it('adds the blocks and files of a newer backup of the same ledger, checked against this ledger, and keeps the session', async () => {
    const { a, b, storage } = await sameLedgerPair();
    await a.upload(uploadOf('Thyroid panel', [fileInput('tsh.pdf', 'tsh bytes')]));
    await a.deleteDocument((await a.listRecords(SARAH.id)).records.find((r) => r.title === 'Blood panel')!.documents[0].id);
    const newer = await backupOf(a, 'mine');
    const plan = await b.prepareRestore(newer.slice().buffer, PASSWORD);
    expect(plan).toMatchObject({ mode: 'merge', adds: { blocks: 2, records: 1, files: 1, accessEvents: 0 }, deletesFiles: 1 });
    await b.confirmRestore(plan.planId);
    const merged = await recordsWithFileHashes(b, SARAH.id);
    // a sealed file's name was under its key, which the deletion dropped
    expect(merged.find((record) => record.title === 'Blood panel')?.files).toEqual(['Deleted file: deleted']);
    expect(merged).toEqual(await recordsWithFileHashes(a, SARAH.id));
    expect(await b.chainStatus()).toMatchObject({ valid: true, height: (await a.chainStatus()).height });
    const reloaded = createTestLedgerService({ storage });
    await signInAs(reloaded, SARAH);
    expect(await reloaded.chainStatus()).toMatchObject({ valid: true, height: (await a.chainStatus()).height });
  });

  it('says a backup this browser already holds adds nothing, and changes nothing on confirm', async () => {
    const { b, height } = await sameLedgerPair();
    const own = await backupOf(b, 'mine');
    const plan = await b.prepareRestore(own.slice().buffer, PASSWORD);
    expect(plan.adds).toEqual({ blocks: 0, records: 0, files: 0, accessEvents: 0 });
    expect(await b.confirmRestore(plan.planId)).toMatchObject({ valid: true, height });
  });

  it('merges a backup that went separate ways from this browser: both sides kept, in one order, with their files', async () => {
    const { a, b, height } = await sameLedgerPair();
    await a.upload(uploadOf('Only in A', [fileInput('a.pdf', 'a')]));
    await b.upload(uploadOf('Only in B', [fileInput('b.pdf', 'b')]));
    const backup = await backupOf(a, 'mine');
    const plan = await b.prepareRestore(backup.slice().buffer, PASSWORD);
    expect(plan).toMatchObject({ mode: 'merge', adds: { blocks: 1, records: 1, files: 1 } });
    expect(await b.confirmRestore(plan.planId)).toMatchObject({ valid: true, height: height + 2 });
    const records = await recordsWithFileHashes(b, SARAH.id);
    expect(records.map((record) => record.title)).toEqual(expect.arrayContaining(['Only in A', 'Only in B']));
    // the other side ends with the same blocks in the same order once it takes this browser's backup
    await a.confirmRestore((await a.prepareRestore((await backupOf(b, 'mine')).buffer, PASSWORD)).planId);
    const page = async (service: LedgerService) => (await service.blocksPage(0, height + 2)).blocks.map((block) => block.hash);
    expect(await page(a)).toEqual(await page(b));
  });

  it('refuses a backup that leaves out a record this browser lacks', async () => {
    const { a, b, height } = await sameLedgerPair();
    await signInAs(a, MICHAEL);
    await a.upload(uploadOf('Knee MRI', [fileInput('knee.pdf', 'knee')]));
    await signInAs(a, CARTER);
    const backup = await backupOf(a, 'mine'); // Michael is not Dr. Carter's patient: his upload is left out
    expect(await errorOf(b.prepareRestore(backup.slice().buffer, PASSWORD))).toEqual({
      name: 'ValidationError',
      message: `This backup leaves out block ${height}, a record this browser lacks: it can only be restored in a browser that holds it. Nothing was changed.`,
    });
  });

  it('asks for the file again when the records changed after the check', async () => {
    const { a, b } = await sameLedgerPair();
    await a.upload(uploadOf('Thyroid panel', [fileInput('tsh.pdf', 'tsh bytes')]));
    const plan = await b.prepareRestore((await backupOf(a, 'mine')).buffer, PASSWORD);
    await b.acknowledgeEmergencyAccesses();
    const height = (await b.chainStatus()).height;
    expect(await errorOf(b.confirmRestore(plan.planId))).toEqual({
      name: 'ValidationError',
      message: 'The records changed since the backup was checked: choose the file again.',
    });
    expect(await b.chainStatus()).toMatchObject({ height });
  });

  it('refuses a backup of another ledger while this browser holds records of its own', async () => {
    const backup = await backupOf((await ledgerWithHistory()).service);
    const target = await otherBrowser();
    const before = await everything(target);
    expect(await errorOf(target.prepareRestore(backup.slice().buffer, PASSWORD))).toEqual({
      name: 'ValidationError',
      message:
        'This backup is of another MedLedger ledger. This browser holds records of its own, and a restore never replaces them: back up this browser, then reset it before restoring. Nothing was changed.',
    });
    expect(await everything(target)).toEqual(before);
  });

  it("refuses one person's backup in a new browser: it lacks the other accounts' keys and records", async () => {
    const backup = await backupOf((await ledgerWithHistory()).service, 'mine');
    const { service: target } = await freshBrowser();
    expect(await errorOf(target.prepareRestore(backup.slice().buffer, PASSWORD))).toEqual({
      name: 'ValidationError',
      message:
        "This backup holds one person's records and key, not the other accounts' keys and records a new ledger needs: only a backup of a whole browser can start this browser over. Nothing was changed.",
    });
  });

  it('refuses to weaken how a key is protected: keys wrapped with fewer PBKDF2 rounds than this browser uses', async () => {
    const backup = await backupOf((await ledgerWithHistory()).service); // keys wrapped with 10 rounds
    const { service: target } = await freshBrowser({ keyIterations: 20 });
    expect(await errorOf(target.prepareRestore(backup.slice().buffer, PASSWORD))).toEqual({
      name: 'ValidationError',
      message: `A restore never weakens how a key is protected: the backup's key of ${SARAH.name} is wrapped with 10 PBKDF2 rounds, fewer than the 20 this browser uses. Nothing was changed.`,
    });
  });

  it('reads a backup of the version before scopes as a backup of the whole browser', async () => {
    const backup = await backupOf((await ledgerWithHistory()).service);
    const {
      sealContents,
      headerBlock,
      createBackupWriter,
      readBackupFile: read,
    } = await import('../../workers/core/backup-file');
    const { header, documentIds, blocks } = await read(backup);
    const { scope: _scope, ...older } = await openContents(header, PASSWORD);
    const resealed = await sealContents(older as never, PASSWORD, 1_000, header.createdAt);
    const writer = createBackupWriter(await headerBlock(resealed), documentIds);
    const whole = { fileName: 'document', maxBytes: storedSize(10 * 1024 * 1024), nextTask: () => Promise.resolve() };
    for (const id of documentIds) await writer.addDocument(await assembleDocument(id, blocks, whole), id);
    const file = new Uint8Array(await new Blob(await writer.finish()).arrayBuffer());
    const { service: target } = await freshBrowser();
    expect(await target.prepareRestore(file.buffer, PASSWORD)).toMatchObject({ scope: 'browser', mode: 'replace' });
  });
});
