// Stored uploads are sealed (docs/decisions/nothing-medical-in-clear.md): title, description and file names are ''
// on the chain. Once a patient has an epoch, an upload of theirs with text in clear breaks a rule before any hash or
// signature check, so tests that change a stored upload use one of these to reach the check they mean.
import { bytesToHex } from '../../workers/core/ids';
import {
  openClinicalRecord,
  sealClinicalRecord,
  summaryKeysOf,
  type SealedClinicalRecord,
} from '../../workers/core/sealed-fields';
import type { ChainRecord, ClinicalRecord } from '../../workers/core/types';
import { SUMMARY_KEYS_KEY } from '../../workers/ledger/snapshot';
import type { LedgerStorage, StoredState } from '../../workers/storage/ledger-storage';

// The upload `record` (sealed, as stored) opened with the summary and document keys `stored` holds (a storage, or
// what one loaded), with no sealed part left: the upload as a device wrote it before sealing, legal only as its
// patient's first upload. Throws when these keys cannot open it, so a test never goes on with a record it did not mean.
export async function uploadInClear(
  stored: LedgerStorage | Pick<StoredState, 'documents' | 'meta'>,
  record: ChainRecord,
): Promise<ClinicalRecord> {
  if (!('files' in record) || !record.sealed) throw new Error(`record ${record.id} is not a sealed upload`);
  const { documents, meta } = 'load' in stored ? await stored.load() : stored;
  const summaryKeys = new Map([...summaryKeysOf(meta[SUMMARY_KEYS_KEY]).values()].map((key) => [key.epochId, key.key]));
  const documentKeys = new Map(documents.map((document) => [document.id, document.encryptionKey]));
  const opened = await openClinicalRecord(record as SealedClinicalRecord, summaryKeys, documentKeys);
  if (!opened || !opened.filesOpened.every(Boolean)) throw new Error(`record ${record.id} does not open with the stored keys`);
  return opened.record;
}

// The upload `record` (in clear) sealed as its patient's device would seal it now: under the summary key of epoch
// `epochId` that `storage` holds, each file's name and type under a new document key of its own (a forger who holds
// the patient's keys writes blocks every rule accepts).
export async function sealedLike(storage: LedgerStorage, record: ClinicalRecord, epochId: string): Promise<ClinicalRecord> {
  const summary = summaryKeysOf((await storage.load()).meta[SUMMARY_KEYS_KEY]).get(epochId);
  if (!summary) throw new Error(`no summary key of epoch ${epochId} in this storage`);
  const documentKeys = new Map(
    record.files.map((file) => [file.documentId, bytesToHex(crypto.getRandomValues(new Uint8Array(32)))]),
  );
  return sealClinicalRecord(record, summary, documentKeys);
}
