import { CarReader } from '@ipld/car';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import type { LedgerChange, LedgerService } from '../../workers/api';
import type { LedgerBroadcast } from '../../workers/ledger/deps';
import { assembleDocument, type BackupHeader } from '../../workers/core/backup-file';
import { contentId, storedSize } from '../../workers/core/documents';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { MICHAEL, SARAH, errorOf, fileInput, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';
import { joined, ledgerWithHistory, recordsWithFileHashes } from '../support/portability-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

const PASSWORD = 'correct horse battery';

async function backupOf(service: LedgerService, password = PASSWORD): Promise<Uint8Array<ArrayBuffer>> {
  const file = await service.downloadBackup(crypto.randomUUID(), password);
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

async function everything(service: LedgerService) {
  await signInAs(service, SARAH);
  const sarah = { records: await recordsWithFileHashes(service, SARAH.id), history: await service.accessHistory() };
  await signInAs(service, MICHAEL);
  const michael = await recordsWithFileHashes(service, MICHAEL.id);
  return { sarah, michael, status: await service.chainStatus() };
}

describe('backup and restore', () => {
  it('restores every record, file (by SHA-256) and access-history entry into another browser, with a valid chain', async () => {
    const { service } = await ledgerWithHistory();
    await signInAs(service, MICHAEL);
    await service.upload(uploadOf('Allergy panel', [fileInput('latex.pdf', 'latex')]));
    const before = await everything(service);
    const backup = await backupOf(service);

    const target = await otherBrowser();
    const plan = await target.prepareRestore(backup.buffer.slice(0), PASSWORD);
    expect(plan.backup).toEqual({ blocks: before.status.height, records: 5, files: 4, accessEvents: 2 });
    expect(plan.current).toEqual({ blocks: 2, records: 2, files: 1, accessEvents: 0 });
    expect((await target.listRecords(MICHAEL.id)).map((record) => record.title)).toContain('Knee MRI'); // nothing replaced yet
    const status = await target.confirmRestore(plan.planId);
    expect(status).toMatchObject({ valid: true, height: before.status.height });
    expect(await everything(target)).toEqual(before);
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
      version: 1,
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 1_000 },
    });
    expect(header.kdf.salt).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 16 random bytes
    const documents = (await service.listRecords(SARAH.id))
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
    expect(await errorOf(service.downloadBackup('b', 'short'))).toEqual({
      name: 'ValidationError',
      message: 'Choose a backup password of at least 8 characters.',
    });
  });

  it('stops when cancelled and resolves null', async () => {
    const { service } = await ledgerWithHistory();
    const file = await service.downloadBackup('backup-1', PASSWORD, (() => void service.cancelTransfer('backup-1')) as never);
    expect(file).toBeNull();
  });

  describe('refuses, replacing nothing,', () => {
    async function refusal(file: Uint8Array, password = PASSWORD) {
      const target = await otherBrowser();
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
      contents.blocks[2].data.title = 'Edited title';
      const resealed = await sealContents(contents, PASSWORD, 1_000, header.createdAt);
      const writer = createBackupWriter(await headerBlock(resealed), []);
      const parts = await writer.finish();
      const edited = new Uint8Array(await new Blob(parts).arrayBuffer());
      expect(await refusal(edited)).toEqual({
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
    const target = await otherBrowser();
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
    const target = await otherBrowser();
    const plan = await target.prepareRestore(backup.slice().buffer, PASSWORD);
    await target.signOut();
    await signInAs(target, MICHAEL);
    expect(await errorOf(target.confirmRestore(plan.planId))).toEqual({
      name: 'NotFoundError',
      message: 'This restore is no longer waiting: choose the backup file again.',
    });
  });
});
