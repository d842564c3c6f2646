// Records that leave with the patient (docs/decisions/fhir-portability.md, backup-file.md): the FHIR export and
// import of the signed-in patient's records, and the encrypted backup of this browser's whole ledger and its
// restore. The FHIR and CAR code is imported only when one of these runs, so the worker starts without it.
import { transfer } from 'comlink';
import type { ExportedFile, LedgerCounts, LedgerService, RestorePlan, TransferProgress, TransferProgressListener } from '../api';
import { requireRole } from '../core/access';
import { bytesToBase64 } from '../core/base64'; // static: the signatures already need it at start
import { BACKUP_ITERATIONS, MIN_BACKUP_PASSWORD_LENGTH } from '../core/constants';
import { partsSink } from '../core/byte-parts';
import { DOCTORS } from '../core/directory';
import { contentId, decryptDocument, encryptDocument, storedSize, type EncryptedDocument } from '../core/documents';
import type { ImportCandidate } from '../core/fhir-import';
import { ledgerError } from '../core/errors';
import { iso } from '../core/ledger-records';
import { verifyLedger, type LedgerState } from '../core/projection';
import { exportKeys, firstSignatureFailure, importKeys, type StoredKeys } from '../core/signatures';
import type { Block, ClinicalRecord, DocumentKey, User } from '../core/types';
import { isArrayBuffer, validateUpload } from '../core/upload-request';
import { fail, nextTask, sleep, type LedgerDeps } from './deps';
import { offChainProblem, type LedgerStore } from './store';
import { accessHistoryOf, isClinical, patientById } from './views';

const MAX_IMPORT_BYTES = 512 * 1024 * 1024; // a Bundle of 200 MB of files is about 270 MB of base64 JSON
const PROGRESS_EVERY_MS = 100;

function fileOf(fileName: string, mimeType: string, parts: ArrayBuffer[]): ExportedFile {
  const file = { fileName, mimeType, parts, size: parts.reduce((sum, part) => sum + part.byteLength, 0) };
  return transfer(file, parts); // moved to the page, not copied
}

function countsOf(state: LedgerState, height: number, liveFiles: number): LedgerCounts {
  let records = 0;
  for (const entries of state.records.values()) records += entries.filter(isClinical).length;
  let accessEvents = 0;
  for (const { reads } of state.grants.values()) accessEvents += 1 + reads.length;
  for (const { reads } of state.shares.values()) accessEvents += 1 + reads.length;
  return { blocks: height, records, files: liveFiles, accessEvents };
}

function liveDocuments(state: LedgerState) {
  return [...state.documents.values()].filter((document) => !document.deletedAt);
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

// A ValidationError of an imported entry names the entry.
function namingEntry<T>(entry: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof Error && error.name === 'ValidationError')
      throw ledgerError('ValidationError', `${entry}: ${error.message}`);
    throw error;
  }
}

interface VerifiedRestore {
  id: string;
  blocks: Block[];
  documents: DocumentKey[];
  contents: { id: string; bytes: ArrayBuffer }[];
  keys: StoredKeys; // the backup's signing keys, matched against its chain's enrolment
}

export function createPortability(
  deps: LedgerDeps,
  store: LedgerStore,
  enter: () => Promise<User>,
  signOut: () => Promise<void>,
) {
  const jobs = new Map<string, { cancelled: boolean }>();
  const iterations = deps.backupIterations ?? BACKUP_ITERATIONS;
  let pendingRestore: VerifiedRestore | null = null;

  function startJob(jobId: unknown): void {
    if (typeof jobId !== 'string' || jobId === '') fail('ValidationError', 'A job needs an id.');
    if (jobs.has(jobId)) fail('ValidationError', 'This job is already running.');
    jobs.set(jobId, { cancelled: false });
  }

  // Reports progress and yields after each file, so a cancel gets in; false once the job was cancelled.
  function progressOf(jobId: string, total: number, onProgress?: TransferProgressListener) {
    const progress: TransferProgress = { jobId, done: 0, total, bytes: 0 };
    let lastSent = -Infinity;
    return async (files: number, bytes: number): Promise<boolean> => {
      progress.done += files;
      progress.bytes += bytes;
      const now = deps.now();
      // a few updates a second: each one is a message and a render on the page's main thread
      if (onProgress && (now - lastSent >= PROGRESS_EVERY_MS || progress.done === total)) {
        lastSent = now;
        Promise.resolve(onProgress({ ...progress }) as unknown).catch(() => undefined); // a closed page's proxy may reject
      }
      await nextTask();
      return !jobs.get(jobId)?.cancelled;
    };
  }

  async function decrypted(documentId: string, cid: string): Promise<Uint8Array> {
    const key = store.current().keys.get(documentId);
    const stored = await deps.storage.readContent(documentId);
    if (!key || !stored)
      fail('IntegrityError', `The stored bytes of document ${cid} are missing; try again after the page reloads.`);
    return new Uint8Array(await decryptDocument(stored, key, cid));
  }

  const api: Pick<
    LedgerService,
    'exportFhir' | 'importFhir' | 'downloadBackup' | 'prepareRestore' | 'confirmRestore' | 'cancelTransfer'
  > = {
    async exportFhir(jobId, options, onProgress) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      startJob(jobId);
      try {
        const fhir = await import('../core/fhir-export');
        const state = store.state();
        const at = iso(store.clock());
        const patient = patientById(signedIn.id);
        const entries = (state.records.get(signedIn.id) ?? []).filter(isClinical);
        const history = accessHistoryOf(state, signedIn.id, store.clock()).reverse(); // oldest first
        const named = new Set([
          patient.doctorId,
          ...entries.map(({ record }) => record.doctorId),
          ...history.map((h) => h.doctorId),
        ]);
        const encoder = new TextEncoder();
        const sink = partsSink();
        let first = true;
        const add = (resource: Parameters<typeof fhir.entryOf>[0]) => {
          sink.push(encoder.encode(`${first ? '' : ',\n'}${JSON.stringify(fhir.entryOf(resource))}`));
          first = false;
        };
        const shell = JSON.stringify(fhir.bundleShell(deps.randomId(), at));
        sink.push(encoder.encode(`${shell.slice(0, -2)}\n`)); // the shell ends with its empty entry list: `[]}`
        add(fhir.patientResource(patient));
        for (const doctor of DOCTORS) if (named.has(doctor.id)) add(fhir.practitionerResource(doctor));
        const fileCount = entries.reduce((sum, { record }) => sum + record.files.length, 0);
        const step = progressOf(jobId, fileCount, onProgress);
        for (const { record: clinical, index, hash } of entries) {
          const files = [];
          for (const file of clinical.files) {
            const document = state.documents.get(file.documentId);
            const deleted = !document || document.deletedAt !== undefined;
            const data = options?.withFiles && !deleted ? bytesToBase64(await decrypted(file.documentId, file.cid)) : undefined;
            files.push({ file, uploadedAt: clinical.timestamp, deleted, ...(data !== undefined ? { data } : {}) });
            if (!(await step(1, data !== undefined ? file.size : 0))) return null;
          }
          const exported = { record: clinical, blockIndex: index, blockHash: hash, files };
          add(fhir.documentReference(exported));
          add(fhir.provenanceOf(exported));
        }
        for (const entry of history) {
          const base = { grantId: entry.grantId, doctorId: entry.doctorId, reason: entry.reason, accessLevel: entry.accessLevel };
          add(fhir.auditEventOf({ ...base, id: `${entry.grantId}-start`, event: 'granted', at: entry.startedAt }, signedIn.id));
          entry.reads.forEach((read, i) =>
            add(
              fhir.auditEventOf(
                { ...base, id: `${entry.grantId}-read-${i + 1}`, event: 'read', at: read.at, what: read.what },
                signedIn.id,
              ),
            ),
          );
          if (entry.endedAt && entry.status !== 'active') {
            const event = entry.status === 'ended' ? 'ended' : 'expired';
            add(fhir.auditEventOf({ ...base, id: `${entry.grantId}-${event}`, event, at: entry.endedAt }, signedIn.id));
          }
        }
        sink.push(encoder.encode('\n]}\n'));
        const name = `medledger-${slug(patient.name)}-${at.slice(0, 10)}${options?.withFiles ? '' : '-without-files'}.fhir.json`;
        return fileOf(name, 'application/fhir+json', sink.finish());
      } finally {
        jobs.delete(jobId);
      }
    },

    async importFhir(bundle, options) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      store.assertWritable();
      if (!isArrayBuffer(bundle)) fail('ValidationError', 'The file could not be read.');
      if (bundle.byteLength > MAX_IMPORT_BYTES)
        fail('ValidationError', `The file is larger than ${MAX_IMPORT_BYTES / (1024 * 1024)} MB.`);
      let json: string;
      try {
        json = new TextDecoder('utf-8', { fatal: true }).decode(bundle);
      } catch {
        fail('ValidationError', 'The file is not valid JSON: it is not text.');
      }
      const { otherPatientOf, readBundle, recordBlocks } = await import('../core/fhir-import');
      const { records, skipped, patients } = readBundle(json, recordBlocks(store.state(), signedIn.id));
      const checked = records.map((candidate) => ({
        candidate,
        upload: namingEntry(candidate.entry, () =>
          validateUpload({
            title: candidate.title,
            description: candidate.description,
            type: candidate.type,
            files: candidate.files,
          }),
        ),
      }));
      const otherPatient = otherPatientOf(patients, patientById(signedIn.id)); // someone else's records: only when confirmed
      if (otherPatient && options?.otherPatientConfirmed !== true)
        return { imported: [], skipped: [], needsConfirmation: true, otherPatient };
      await sleep(deps.uploadDelayMs);
      const prepared: {
        candidate: ImportCandidate;
        upload: ReturnType<typeof validateUpload>;
        encrypted: EncryptedDocument[];
        ids: string[];
      }[] = [];
      for (const { candidate, upload } of checked) {
        const encrypted = await Promise.all(upload.files.map((file) => encryptDocument(file.bytes)));
        prepared.push({ candidate, upload, encrypted, ids: upload.files.map(() => deps.randomId()) });
      }
      if (prepared.length === 0) return { imported: [], skipped };
      return store.write('The import was not saved', (_snapshot, at) => {
        const written: ClinicalRecord[] = prepared.map(({ candidate, upload, encrypted, ids }) => ({
          id: deps.randomId(),
          patientId: signedIn.id,
          doctorId: signedIn.doctorId ?? '',
          type: candidate.type,
          title: upload.title,
          description: upload.description,
          files: upload.files.map((file, i) => ({
            documentId: ids[i],
            name: file.name,
            type: file.type,
            size: file.bytes.byteLength,
            cid: encrypted[i].ipfsHash,
          })),
          timestamp: iso(at),
          ...(candidate.date ? { documentDate: candidate.date } : {}),
        }));
        return {
          records: written,
          documents: prepared.flatMap(({ encrypted, ids }) =>
            ids.map((id, i) => ({ id, encryptionKey: encrypted[i].encryptionKey })),
          ),
          contents: prepared.flatMap(({ encrypted, ids }) => ids.map((id, i) => ({ id, bytes: encrypted[i].stored }))),
          result: (blocks) => ({
            imported: written.map((record, i) => ({
              title: record.title,
              type: prepared[i].candidate.type,
              files: record.files.length,
              blockIndex: Number(blocks[i].id),
            })),
            skipped,
          }),
        };
      });
    },

    async downloadBackup(jobId, password, onProgress) {
      await enter();
      if (typeof password !== 'string' || [...password].length < MIN_BACKUP_PASSWORD_LENGTH) {
        fail('ValidationError', `Choose a backup password of at least ${MIN_BACKUP_PASSWORD_LENGTH} characters.`);
      }
      store.assertWritable(); // a ledger that failed verification would not restore
      startJob(jobId);
      try {
        const backup = await import('../core/backup-file');
        const snapshot = store.current();
        const state = snapshot.verified.state;
        const documents = liveDocuments(state);
        const keys = Object.fromEntries(documents.map((document) => [document.id, snapshot.keys.get(document.id) ?? '']));
        const createdAt = iso(store.clock());
        const storedKeys = store.storedKeys();
        if (!storedKeys) fail('IntegrityError', 'The signing keys of this browser are missing: the backup cannot carry them.');
        const signingKeys = await exportKeys(storedKeys);
        const header = await backup.sealContents(
          { blocks: snapshot.blocks.slice(), keys, signingKeys },
          password,
          iterations,
          createdAt,
        );
        const writer = backup.createBackupWriter(
          await backup.headerBlock(header),
          documents.map((document) => document.ipfsHash),
        );
        const step = progressOf(jobId, documents.length, onProgress);
        for (const document of documents) {
          const stored = await deps.storage.readContent(document.id);
          if (!stored) fail('IntegrityError', `The stored bytes of "${document.fileName}" are missing.`);
          await writer.addDocument(new Uint8Array(stored), document.ipfsHash);
          if (!(await step(1, stored.byteLength))) return null;
        }
        return fileOf(`medledger-backup-${createdAt.slice(0, 10)}.car`, 'application/vnd.ipld.car', await writer.finish());
      } finally {
        jobs.delete(jobId);
      }
    },

    async prepareRestore(file, password) {
      await enter();
      pendingRestore = null;
      if (!isArrayBuffer(file)) fail('ValidationError', 'The file could not be read.');
      if (typeof password !== 'string' || password === '') fail('ValidationError', 'Enter the password of the backup.');
      const backup = await import('../core/backup-file');
      const { header, blocks, documentIds } = await backup.readBackupFile(new Uint8Array(file));
      const contents = await backup.openContents(header, password);
      const verified = verifyLedger(contents.blocks, deps.difficulty);
      if (verified.firstInvalid || contents.blocks.length === 0) {
        const where = verified.firstInvalid
          ? `block ${verified.firstInvalid.index} (${verified.firstInvalid.reason})`
          : 'its start (it holds no blocks)';
        fail('ValidationError', `The backup's chain fails verification at ${where}. Nothing was replaced.`);
      }
      const state = verified.state;
      const enrolment = state.enrolment;
      if (!enrolment) fail('ValidationError', "The backup's chain enrols no signing keys. Nothing was replaced.");
      const badSignature = await firstSignatureFailure(contents.blocks, enrolment, new Map());
      if (badSignature) {
        fail(
          'ValidationError',
          `The backup's chain fails verification at block ${badSignature.offset} (${badSignature.reason}). Nothing was replaced.`,
        );
      }
      const signingKeys = await importKeys(contents.signingKeys, enrolment);
      if (!signingKeys) fail('ValidationError', "The backup's keys are not the ones its chain enrols. Nothing was replaced.");
      const liveFiles = liveDocuments(state);
      const live = liveFiles.map((document) => document.ipfsHash);
      if (documentIds.length !== live.length || [...documentIds].sort().join() !== live.sort().join()) {
        fail(
          'ValidationError',
          "The backup file is damaged or incomplete: its list of documents differs from its chain's. Nothing was replaced.",
        );
      }
      const restored: { id: string; bytes: ArrayBuffer }[] = [];
      for (const document of liveFiles) {
        const limit = { fileName: document.fileName, maxBytes: storedSize(document.fileSize), nextTask };
        const bytes = await backup.assembleDocument(document.ipfsHash, blocks, limit);
        if ((await contentId(bytes)) !== document.ipfsHash) {
          fail(
            'ValidationError',
            `The backup's bytes of "${document.fileName}" do not match its content id. Nothing was replaced.`,
          );
        }
        restored.push({ id: document.id, bytes: bytes.slice().buffer });
      }
      const keys = new Map(Object.entries(contents.keys).filter(([, key]) => typeof key === 'string'));
      const problem = offChainProblem(
        state,
        keys,
        restored.map(({ id }) => id),
      );
      if (problem)
        fail(
          'ValidationError',
          `The backup does not match its chain: ${problem.item ?? `block ${problem.index}`}, ${problem.reason}. Nothing was replaced.`,
        );
      pendingRestore = {
        id: deps.randomId(),
        blocks: contents.blocks,
        documents: [...keys].map(([id, encryptionKey]) => ({ id, encryptionKey })),
        contents: restored,
        keys: signingKeys,
      };
      const current = store.current();
      const plan: RestorePlan = {
        planId: pendingRestore.id,
        createdAt: header.createdAt,
        backup: countsOf(state, contents.blocks.length, restored.length),
        current: countsOf(current.verified.state, current.blocks.length, liveDocuments(current.verified.state).length),
      };
      return plan;
    },

    async confirmRestore(planId) {
      await enter();
      const plan = pendingRestore;
      if (!plan || plan.id !== planId) fail('NotFoundError', 'This restore is no longer waiting: choose the backup file again.');
      pendingRestore = null;
      await store.restore(plan);
      await signOut(); // the session's key was unlocked from the keys the backup's replaced
      return store.status();
    },

    async cancelTransfer(jobId) {
      await enter();
      const job = jobs.get(jobId);
      if (!job || job.cancelled) return false;
      job.cancelled = true;
      return true;
    },
  };

  // Another user (or none) now: a checked restore and running exports of the last one are dropped.
  function actorChanged(): void {
    pendingRestore = null;
    for (const job of jobs.values()) job.cancelled = true;
  }

  return { api, actorChanged };
}
