// Sealing before a write (docs/decisions/nothing-medical-in-clear.md): an upload's text under the patient's current
// summary key, the re-sealing of uploads written in clear, a grant's reason or a share's note to the pair alone. It
// reads only the snapshot it is given; opening for a reader is in ./sealing.ts.
import { iso } from '../core/ledger-records';
import type { LedgerState, RecordEntry } from '../core/ledger-state';
import {
  createSummaryKey,
  rotationDue,
  sealClinicalRecord,
  sealToReaders,
  type ReaderSealed,
  type SealBinding,
  type SummaryKey,
} from '../core/sealed-fields';
import type { ChainRecord, ClinicalRecord, ResealedRecord } from '../core/types';
import type { Snapshot } from './snapshot';

// The summary key an upload of `patientId` is sealed under at `now`: their newest epoch, when this device holds its
// key and no reader lost access since it began; else null, and a new epoch is announced first.
function currentSummaryKey(s: Snapshot, patientId: string, now: number): SummaryKey | null {
  const state = s.verified.state;
  const newest = state.summaryEpochs.get(patientId)?.at(-1);
  const held = newest && s.summaryKeys.get(newest.epochId);
  return held && !rotationDue(state, patientId, Date.parse(newest.at), now) ? held : null;
}

// `records` (uploads of `patientId`) with their text sealed under the patient's current summary key, or under a new
// one when none this device holds is current (the first upload sealed under it announces it); the new key is
// stored with them. A ledger made before keys travelled keeps its uploads in clear (no reader could get the key).
export async function sealUploads(
  s: Snapshot,
  patientId: string,
  records: readonly ClinicalRecord[],
  documentKeys: ReadonlyMap<string, string>,
  at: number,
): Promise<{ records: ChainRecord[]; summaryKeys: SummaryKey[] }> {
  if (!s.verified.state.enrolment?.encryption) return { records: [...records], summaryKeys: [] };
  const held = currentSummaryKey(s, patientId, at);
  const summary = held ?? (await createSummaryKey(patientId));
  const sealed = await Promise.all(records.map((record) => sealClinicalRecord(record, summary, documentKeys)));
  return { records: sealed, summaryKeys: held ? [] : [summary] };
}

// `patientId`'s uploads written in clear before sealing that this device can re-seal (it holds every live file's
// key), oldest first.
export function clearUploads(s: Snapshot, patientId: string): RecordEntry[] {
  const state = s.verified.state;
  if (!state.enrolment?.encryption) return []; // no reader could be given a key: sealing would lock them out
  return (state.records.get(patientId) ?? []).filter(({ record }) => {
    if (record.type !== 'prescription' && record.type !== 'test_report') return false;
    if (record.sealed || state.resealed.has(record.id)) return false;
    return record.files.every((file) => state.documents.get(file.documentId)?.deletedAt || s.keys.has(file.documentId));
  });
}

// The re-sealings of `patientId`'s clear uploads on `s`, under their current summary key (or a new one, stored
// with them). Each names the clear block it re-seals; the clear block stays on the chain.
export async function resealings(
  s: Snapshot,
  patientId: string,
  at: number,
  newId: () => string,
): Promise<{ records: ResealedRecord[]; summaryKeys: SummaryKey[] }> {
  const clear = clearUploads(s, patientId);
  if (clear.length === 0) return { records: [], summaryKeys: [] };
  const held = currentSummaryKey(s, patientId, at);
  const summary = held ?? (await createSummaryKey(patientId));
  const state = s.verified.state;
  const records = await Promise.all(
    clear.map(async ({ record, hash }): Promise<ResealedRecord> => {
      const upload = record as ClinicalRecord;
      const live = upload.files.filter((file) => !state.documents.get(file.documentId)?.deletedAt); // a deleted name goes
      const sealed = await sealClinicalRecord({ ...upload, files: live }, summary, s.keys);
      return {
        id: newId(),
        type: 'resealed',
        patientId,
        doctorId: upload.doctorId,
        title: '',
        description: '',
        timestamp: iso(at),
        supersedes: upload.id,
        supersedesBlock: hash,
        sealed: sealed.sealed,
        fileParts: sealed.files.map((file) => ({ documentId: file.documentId, sealed: file.sealed })),
      };
    }),
  );
  return { records, summaryKeys: held ? [] : [summary] };
}

// A grant's reason or a share's note sealed to the patient and the doctor alone; null on a ledger that enrols no
// encryption keys (it stays in clear there).
export async function sealForPair(
  state: LedgerState,
  binding: SealBinding,
  fields: object,
  doctorId: string,
  from: string,
): Promise<ReaderSealed | null> {
  const enrolled = state.enrolment?.encryption;
  const patientKey = enrolled?.[binding.patientId];
  const doctorKey = enrolled?.[doctorId];
  if (!patientKey || !doctorKey) return null;
  const readers = [
    { id: binding.patientId, publicKey: patientKey },
    { id: doctorId, publicKey: doctorKey },
  ];
  return sealToReaders(binding, fields, readers, from);
}
