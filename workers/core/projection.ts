// The ledger's state is a fold over the verified chain: apply(state, block) for each block in order.
// Before a block is applied it must be legal given the state before it (the chain's rules, chain-rules.ts).
import { checkBlock } from './chain';
import { ruleProblem } from './chain-rules';
import type { LedgerState, RecordEntry } from './ledger-state';
import type { Block, EmergencyRecord, ShareRecord } from './types';

// The state's types and the rules stay importable from here, where the fold's callers find them.
export type { GrantRead, GrantState, LedgerState, RecordEntry, ShareState } from './ledger-state';
export { ruleProblem } from './chain-rules';

export interface VerifiedLedger {
  state: LedgerState; // the projection of the blocks before the first bad one
  firstInvalid?: { index: number; reason: string };
}

export function emptyState(): LedgerState {
  return {
    height: 0,
    lastTimestamp: '',
    records: new Map(),
    documents: new Map(),
    grants: new Map(),
    patientGrants: new Map(),
    newestGrant: new Map(),
    shares: new Map(),
    patientShares: new Map(),
    doctorShares: new Map(),
    enrolment: null,
  };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// Folds one legal block into `state` (in place: the fold owns its accumulator) and returns it.
export function apply(state: LedgerState, block: Block, index: number): LedgerState {
  const record = block.data;
  const entry = { index, hash: block.hash, record };
  state.height = index + 1;
  state.lastTimestamp = block.timestamp;
  switch (record.type) {
    case 'diagnosis':
    case 'prescription':
    case 'test_report':
      if (index === 0) state.enrolment = record.enrolment ?? null;
      push(state.records, record.patientId, entry);
      for (const file of record.files) {
        state.documents.set(file.documentId, {
          id: file.documentId,
          fileName: file.name,
          fileType: file.type,
          fileSize: file.size,
          uploadDate: record.timestamp,
          ipfsHash: file.cid,
          patientId: record.patientId,
          doctorId: record.doctorId,
          isEncrypted: true,
          blockIndex: index,
        });
      }
      break;
    case 'emergency_access':
      applyEmergency(state, record, entry);
      break;
    case 'document_deleted': {
      const document = state.documents.get(record.documentId);
      if (document) state.documents.set(document.id, { ...document, deletedAt: record.timestamp });
      break;
    }
    case 'access_acknowledged':
      for (const id of record.grantIds) {
        const known = state.grants.get(id);
        if (known) known.acknowledged = true;
      }
      break;
    case 'access_shared':
      applyShare(state, record);
      break;
  }
  return state;
}

function applyShare(state: LedgerState, record: ShareRecord): void {
  const details = record.share;
  if (details.event === 'shared') {
    push(state.patientShares, record.patientId, details.shareId);
    push(state.doctorShares, record.doctorId, details.shareId);
    state.shares.set(details.shareId, {
      share: {
        id: details.shareId,
        patientId: record.patientId,
        doctorId: record.doctorId,
        accessLevel: details.accessLevel,
        durationDays: details.durationDays,
        note: details.note,
        createdAt: record.timestamp,
        expiresAt: details.expiresAt === '' ? null : details.expiresAt,
      },
      reads: [],
    });
    return;
  }
  const known = state.shares.get(details.shareId);
  if (!known) return;
  if (details.event === 'revoked') known.share = { ...known.share, revokedAt: record.timestamp };
  else
    known.reads.push({
      at: record.timestamp,
      what: details.read ?? '',
      ...(details.documentId ? { documentId: details.documentId } : {}),
    });
}

function applyEmergency(state: LedgerState, record: EmergencyRecord, entry: RecordEntry): void {
  const details = record.emergency;
  if (details.event === 'granted') {
    push(state.records, record.patientId, entry); // a grant start is listed with the patient's records
    push(state.patientGrants, record.patientId, details.grantId);
    state.newestGrant.set(`${record.patientId}|${record.doctorId}`, details.grantId);
    state.grants.set(details.grantId, {
      grant: {
        id: details.grantId,
        patientId: record.patientId,
        doctorId: record.doctorId,
        accessLevel: details.accessLevel,
        reason: details.reason,
        durationMinutes: details.durationMinutes,
        expiresAt: record.emergencyAccessExpiry,
        createdAt: record.timestamp,
        isActive: true,
      },
      reads: [],
      acknowledged: false,
    });
    return;
  }
  const known = state.grants.get(details.grantId);
  if (!known) return;
  if (details.event === 'read') {
    known.reads.push({
      at: record.timestamp,
      what: details.read ?? '',
      ...(details.documentId ? { documentId: details.documentId } : {}),
    });
    return;
  }
  known.closedBy = details.event;
  if (details.event === 'ended') known.endedBy = details.endedBy === 'patient' ? record.patientId : record.doctorId;
  known.grant = { ...known.grant, isActive: false, ...(details.event === 'ended' ? { endedAt: record.timestamp } : {}) };
}

// project(blocks): the state of legal blocks, in order; `blocks` must already be verified.
export function project(blocks: readonly Block[]): LedgerState {
  return blocks.reduce((state, block, index) => apply(state, block, index), emptyState());
}

// Hash, link, data hash and difficulty of each block, then its legality given the state before it; stops at
// the first failure and returns the projection of the blocks before it. Never throws on stored data. Resumes
// from `from` (blocks already verified), and stops before `until` so a long chain can be checked in slices.
export function verifyLedger(
  blocks: readonly Block[],
  difficulty: number,
  from?: VerifiedLedger,
  until = blocks.length,
): VerifiedLedger {
  const state = from?.state ?? emptyState();
  if (from?.firstInvalid) return from;
  if (blocks.length === 0) return { state, firstInvalid: { index: 0, reason: 'the stored chain has no blocks' } };
  for (let index = state.height; index < Math.min(until, blocks.length); index++) {
    const block = blocks[index];
    const reason = checkBlock(block, index, blocks[index - 1], difficulty) ?? ruleProblem(state, block, index);
    if (reason !== null) return { state, firstInvalid: { index, reason } };
    apply(state, block, index);
  }
  return { state };
}
