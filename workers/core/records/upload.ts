// An upload: a prescription or a test report and its files. Its text, its own date and its files' names and types are
// sealed (docs/decisions/nothing-medical-in-clear.md); it keeps in clear only the fields listed here.
import { isDocumentDate, isLedgerTime } from '../ledger-time';
import { isSealedPart } from '../sealed-parts';
import { count, listOf, nonEmpty, optional, shaped, text, type SealedShape, type Shape } from './shape';

// What every record carries (types.ts RecordBase).
export const BASE: Shape = {
  id: nonEmpty,
  patientId: text,
  doctorId: text,
  title: text,
  description: text,
  timestamp: isLedgerTime,
};

// a sealed file's name is '' in clear (docs/decisions/nothing-medical-in-clear.md); a clear one's is checked by the rules
export const FILE: SealedShape = {
  shape: {
    documentId: nonEmpty,
    name: text,
    type: text,
    size: count,
    cid: nonEmpty,
    sealed: optional(isSealedPart),
  },
  clear: {
    documentId: 'names the file to its key, its bytes, deletions, reads and re-sealings',
    size: "the rules bound a file's size; the screens show it before the file is opened",
    cid: 'the IPFS content id of the encrypted bytes: storage and sync fetch and check them by it',
    sealed: 'the name and type, sealed under the file’s document key',
  },
};

// An upload's kind, with its files': a test passes one with a field added (tests/unit/sealed-by-default.test.ts).
export type UploadKind = SealedShape & { file: SealedShape };

export const UPLOAD: UploadKind = {
  file: FILE,
  shape: {
    ...BASE,
    type: text,
    files: listOf(shaped(FILE.shape)),
    documentDate: optional(isDocumentDate),
    sealed: optional(isSealedPart),
  },
  clear: {
    id: 'binds the sealed part to this record; re-sealings and reads name it',
    patientId: 'whose summary key seals it; access and the rules read it',
    doctorId: "the rules check it is the patient's doctor; access reads it",
    type: 'binds the sealed part to its kind; the rules and the FHIR export tell a prescription from a test report',
    timestamp: 'orders the record on the chain, and the first upload under a summary key starts its epoch',
    files: "each file's clear fields (an upload's file, below); the rest of a file is sealed under its own key",
    sealed: 'the sealed fields, under the patient’s summary key',
  },
  opens: { documentDate: text }, // sealed as the import gave it: a date, or a date and time
};
