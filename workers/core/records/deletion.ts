// A deletion: the patient deleted one file of an upload. The upload stays on the chain; the file's bytes and key go.
import type { LedgerState } from '../ledger-state';
import type { DeletionRecord } from '../types';
import type { RecordKind } from './kind';
import { BASE, nonEmpty, text } from './shape';

function deletionProblem(state: LedgerState, record: DeletionRecord): string | null {
  const document = state.documents.get(record.documentId);
  if (!document || document.patientId !== record.patientId || document.doctorId !== record.doctorId) {
    return "a deletion names a document that is not one of the patient's";
  }
  if (document.deletedAt) return 'a deletion names a document that was already deleted';
  // a sealed file's name is '' on the chain (projection.ts): its deletion names only the document id
  return document.fileName === '' && (record.title !== '' || record.description !== '')
    ? 'a deletion names a sealed file in clear'
    : null;
}

export const DELETION: RecordKind<DeletionRecord> = {
  shape: { ...BASE, type: text, documentId: nonEmpty },
  clear: {
    id: 'names the record',
    patientId: 'whose file it was: only they may delete it',
    doctorId: "the upload's doctor, which the rules check",
    type: 'tells the rules and the fold what the record is',
    title: "the file's name only where its upload held it in clear already; '' for a sealed file",
    description: "''",
    timestamp: 'when the file was deleted, as the screens show it',
    documentId: 'the file deleted: its bytes and key are dropped on every device',
  },
  author: (record) => record.patientId,
  rule: (state, record) => deletionProblem(state, record),
  fold: (state, record) => {
    const document = state.documents.get(record.documentId);
    if (document) state.documents.set(document.id, { ...document, deletedAt: record.timestamp });
  },
};
