// What a record kind's module holds: its shape and clear fields (sealing reads them), its rule against the state
// before it (chain-rules.ts dispatches to it) and its fold into the projection (projection.ts dispatches to it).
import type { LedgerState, RecordEntry } from '../ledger-state';
import type { ChainRecord } from '../types';
import type { SealedShape } from './shape';

export interface RuleContext {
  index: number; // the block's place in the ledger's order
  at: number; // the block's time, ms
}

// A record type's FHIR mapping: the LOINC document type of its DocumentReference (fhir-export.ts adds the system and
// the import reads it back) and its label.
export interface FhirDocumentType {
  loinc: string;
  display: string;
  label: string;
}

export interface RecordKind<R extends ChainRecord = ChainRecord> extends SealedShape {
  fhir?: Readonly<Partial<Record<R['type'], FhirDocumentType>>>; // the types exported as documents
  author(record: R): string; // who signs it: a user id, or LEDGER_AUTHOR for system blocks
  rule(state: LedgerState, record: R, context: RuleContext): string | null;
  fold(state: LedgerState, record: R, entry: RecordEntry): void; // in place: the fold owns its accumulator
}
