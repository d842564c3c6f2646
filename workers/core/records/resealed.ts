// A re-sealing: the patient sealed an upload written in clear before sealing (docs/decisions/nothing-medical-in-clear.md);
// its text and live files' names travel sealed as a sealed upload holds them. The clear block stays: this erases nothing.
import type { LedgerState } from '../ledger-state';
import { DOCUMENT_KEY, isSealedPart } from '../sealed-parts';
import type { ResealedRecord } from '../types';
import type { RecordKind } from './kind';
import { BASE, listOf, nonEmpty, shaped, text } from './shape';
import { announceEpoch, epochsOpenTo } from './state-lists';

const BLOCK_HASH = /^[0-9a-f]{64}$/;

// A re-sealing: the patient's own upload written in clear, named by id and block, sealed once, with its text under
// an epoch the patient may name and exactly its live files' names under their document keys.
function resealProblem(state: LedgerState, record: ResealedRecord): string | null {
  const entry = state.uploads.get(record.supersedes);
  const upload = entry?.record.patientId === record.patientId ? entry.record : undefined;
  if (!entry || !upload || (upload.type !== 'prescription' && upload.type !== 'test_report'))
    return "a re-sealing names no upload of the patient's";
  if (upload.sealed) return 'a re-sealing names an upload that was sealed when written';
  if (entry.hash !== record.supersedesBlock) return "a re-sealing names another block than the upload's";
  if (state.resealed.has(upload.id)) return `upload ${upload.id} was already re-sealed`;
  if (record.doctorId !== upload.doctorId || record.title !== '' || record.description !== '')
    return 'a re-sealing holds text in clear';
  const epochs = epochsOpenTo(state, record.patientId, record.sealed.key);
  if (!epochs.has(record.sealed.key)) return 'a re-sealing is sealed under an epoch its patient did not announce';
  const live = upload.files.filter((file) => !state.documents.get(file.documentId)?.deletedAt).map((file) => file.documentId);
  const named = record.fileParts.map((part) => part.documentId);
  const parts = record.fileParts.every((part) => part.sealed.key === DOCUMENT_KEY);
  return parts && named.join('|') === live.join('|') ? null : "a re-sealing does not seal exactly the upload's live files";
}

export const RESEALED: RecordKind<ResealedRecord> = {
  shape: {
    ...BASE,
    type: text,
    supersedes: nonEmpty,
    supersedesBlock: (value) => typeof value === 'string' && BLOCK_HASH.test(value),
    sealed: isSealedPart,
    fileParts: listOf(shaped({ documentId: nonEmpty, sealed: isSealedPart })),
  },
  clear: {
    id: 'names the record',
    patientId: 'whose upload it seals, under their summary key',
    doctorId: "the upload's doctor, which the rules check",
    type: 'tells the rules and the fold what the record is',
    title: "''",
    description: "''",
    timestamp: 'orders it; a first re-sealing under a summary key starts its epoch',
    supersedes: 'the id of the upload written in clear',
    supersedesBlock: "that upload's block hash",
    sealed: 'its text, under the patient’s summary key',
    fileParts: "each live file's id and its name and type sealed under its document key",
  },
  author: (record) => record.patientId,
  rule: (state, record) => resealProblem(state, record),
  fold: (state, record, entry) => {
    state.resealed.set(record.supersedes, entry.index);
    announceEpoch(state, record.patientId, record.sealed.key, entry);
  },
};
