// An acknowledgement: the patient dismissed the alert about these emergency accesses.
import type { LedgerState } from '../ledger-state';
import type { AcknowledgementRecord } from '../types';
import type { RecordKind } from './kind';
import { BASE, listOf, nonEmpty, text } from './shape';
import { own } from './state-lists';

function acknowledgementProblem(state: LedgerState, record: AcknowledgementRecord): string | null {
  if (record.grantIds.length === 0 || new Set(record.grantIds).size !== record.grantIds.length) {
    return 'an acknowledgement must name distinct grants';
  }
  for (const id of record.grantIds) {
    const known = state.grants.get(id);
    if (!known || known.grant.patientId !== record.patientId)
      return "an acknowledgement names a grant that is not on the patient's records";
    if (known.acknowledged) return `grant ${id} was already acknowledged`;
  }
  return null;
}

export const ACKNOWLEDGEMENT: RecordKind<AcknowledgementRecord> = {
  shape: { ...BASE, type: text, grantIds: listOf(nonEmpty) },
  clear: {
    id: 'names the record',
    patientId: 'whose alert it was: the grants must be on their records',
    doctorId: "''",
    type: 'tells the rules and the fold what the record is',
    title: 'a fixed text of the app',
    description: "''",
    timestamp: 'when the alert was dismissed',
    grantIds: 'the grants acknowledged, each once',
  },
  author: (record) => record.patientId,
  rule: (state, record) => acknowledgementProblem(state, record),
  fold: (state, record) => {
    for (const id of record.grantIds) {
      const known = own(state.grants, id);
      if (known) known.acknowledged = true;
    }
  },
};
