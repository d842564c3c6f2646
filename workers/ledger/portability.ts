// Records that leave with the patient (docs/decisions/fhir-portability.md): the FHIR export and import of the
// signed-in patient's records. The FHIR code is imported only when one of these runs, so the worker starts without it.
// The encrypted backup and its restore are workers/ledger/backup-restore.ts.
import type { ImportedOverview, LedgerService } from '../api';
import { requireRole } from '../core/access';
import { bytesToBase64 } from '../core/base64'; // static: the signatures already need it at start
import { partsSink } from '../core/byte-parts';
import { DOCTORS } from '../core/directory';
import { decryptDocument, encryptDocument, type EncryptedDocument } from '../core/documents';
import type { BundleOverview, ImportCandidate } from '../core/fhir-import';
import { ledgerError } from '../core/errors';
import { iso } from '../core/ledger-records';
import type { ClinicalRecord, Patient, User } from '../core/types';
import { isArrayBuffer, validateUpload } from '../core/upload-request';
import { fail, sleep, type LedgerDeps } from './deps';
import type { Sealing } from './sealing';
import type { LedgerStore } from './store';
import { fileOf, type TransferJobs } from './transfer-jobs';
import { accessHistoryOf, isClinical, patientById } from './views';

const MAX_IMPORT_BYTES = 512 * 1024 * 1024; // a Bundle of 200 MB of files is about 270 MB of base64 JSON

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

// The Bundle's health overview beside the profile's: the profile is the clinic's, so an import only reports it.
function overviewAgainstProfile(overview: BundleOverview, patient: Patient): { healthOverview?: ImportedOverview } {
  const { allergies, bloodType, emergencyContact } = overview;
  if (allergies.length === 0 && bloodType === undefined && emergencyContact === undefined) return {};
  const fold = (value: string) => value.replace(/\s+/g, ' ').trim().toLowerCase();
  const sameAllergies =
    allergies.length === 0 ||
    (allergies.length === patient.allergies.length &&
      allergies.every((allergy) => patient.allergies.some((own) => fold(own) === fold(allergy))));
  const matchesProfile =
    sameAllergies &&
    (bloodType === undefined || fold(bloodType) === fold(patient.bloodType)) &&
    (emergencyContact === undefined || fold(emergencyContact) === fold(patient.emergencyContact));
  return { healthOverview: { ...overview, allergies: [...allergies], matchesProfile } };
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

export function createPortability(
  deps: LedgerDeps,
  store: LedgerStore,
  enter: () => Promise<User>,
  transfers: TransferJobs,
  sealing: Sealing,
) {
  const { jobs, startJob, progressOf } = transfers;

  async function decrypted(documentId: string, cid: string): Promise<Uint8Array> {
    const key = store.current().keys.get(documentId);
    const stored = await deps.storage.readContent(documentId);
    if (!key || !stored)
      fail('IntegrityError', `The stored bytes of document ${cid} are missing; try again after the page reloads.`);
    return new Uint8Array(await decryptDocument(stored, key, cid));
  }

  const api: Pick<LedgerService, 'exportFhir' | 'importFhir'> = {
    async exportFhir(jobId, options, onProgress) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      startJob(jobId);
      try {
        const fhir = await import('../core/fhir-export');
        const state = await sealing.readable(signedIn); // the export is the patient's: their text opened
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
        for (const allergy of fhir.allergyIntolerances(patient)) add(allergy);
        if (patient.bloodType) add(fhir.bloodTypeObservation(patient));
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
      const { records, skipped, patients, overview } = readBundle(json, recordBlocks(store.state(), signedIn.id));
      const healthOverview = overviewAgainstProfile(overview, patientById(signedIn.id));
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
      if (prepared.length === 0) return { imported: [], skipped, ...healthOverview };
      const keys = new Map(
        prepared.flatMap(({ encrypted, ids }) => ids.map((id, i) => [id, encrypted[i].encryptionKey] as const)),
      );
      return store.write('The import was not saved', async (snapshot, at) => {
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
        const sealed = await sealing.sealUploads(snapshot, signedIn.id, written, keys, at);
        return {
          records: sealed.records,
          summaryKeys: sealed.summaryKeys,
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
            ...healthOverview,
          }),
        };
      });
    },
  };

  return api;
}
