// The ledger's state is a fold over the verified chain: apply(state, block) for each block in order.
// Before a block is applied it must be legal given the state before it (the chain's rules, chain-rules.ts).
import { checkBlock } from './chain';
import { fixedRuleProblem, stateRuleProblem } from './chain-rules';
import { parentsOf } from './dag';
import type { GrantRead, LedgerState, RecordEntry } from './ledger-state';
import { SharedMap } from './shared-map';
import type { Block, EmergencyRecord, ShareRecord } from './types';

// The state's types and the rules stay importable from here, where the fold's callers find them.
export type { GrantRead, GrantState, LedgerState, NotApplied, RecordEntry, ShareState } from './ledger-state';
export { ruleProblem } from './chain-rules';

export interface VerifiedLedger {
  state: LedgerState; // the projection of the blocks before the first bad one
  firstInvalid?: { index: number; reason: string };
}

export function emptyState(): LedgerState {
  return {
    height: 0,
    lastTimestamp: '',
    tips: [],
    placed: new SharedMap(),
    notApplied: new SharedMap(),
    records: new SharedMap(),
    medicalRecords: new SharedMap(),
    uploads: new SharedMap(),
    documents: new SharedMap(),
    grants: new SharedMap(),
    patientGrants: new SharedMap(),
    newestGrant: new SharedMap(),
    shares: new SharedMap(),
    patientShares: new SharedMap(),
    doctorShares: new SharedMap(),
    careConsent: new SharedMap(),
    summaryEpochs: new SharedMap(),
    resealed: new SharedMap(),
    enrolment: null,
  };
}

// Appends to a list of the state: in place when this state made it, else to a copy (a snapshot's list stays as it was).
function push<T>(map: SharedMap<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list && map.owns(key)) list.push(value);
  else map.set(key, list ? [...list, value] : [value]);
}

// The grant or share at `id` that this state may change in place: its own, or a copy of the snapshot's.
function own<T extends { reads: GrantRead[] }>(map: SharedMap<string, T>, id: string): T | undefined {
  const known = map.get(id);
  if (!known || map.owns(id)) return known;
  const copy = { ...known, reads: known.reads.slice() };
  map.set(id, copy);
  return copy;
}

// Puts a block in its place: height, time, heads. Every block of the order is placed, applied or not.
function place(state: LedgerState, block: Block, index: number): void {
  state.height = index + 1;
  state.lastTimestamp = block.timestamp;
  const parents = parentsOf(block);
  // a block that follows the one tip alone (most blocks) becomes the one tip: no list to filter and sort
  if (parents.length === 1 && state.tips.length === 1 && state.tips[0] === parents[0]) state.tips = [block.hash];
  else {
    const tips = state.tips.filter((tip) => !parents.includes(tip));
    tips.push(block.hash);
    state.tips = tips.sort();
  }
  state.placed.set(block.hash, index);
}

// Whether the block's author saw every block before it: its heads are exactly the tips so far.
export function sawEverything(state: LedgerState, block: Block): boolean {
  const parents = parentsOf(block);
  return parents.length === state.tips.length && parents.every((parent) => state.tips.includes(parent));
}

// The first upload sealed under an epoch announces it: its time starts the epoch (core/sealed-fields.ts rotationDue).
function announceEpoch(state: LedgerState, patientId: string, epochId: string, entry: RecordEntry): void {
  const epochs = state.summaryEpochs.get(patientId) ?? [];
  if (!epochs.some((epoch) => epoch.epochId === epochId))
    push(state.summaryEpochs, patientId, { epochId, at: entry.record.timestamp, blockIndex: entry.index });
}

// Folds one legal block into `state` (in place: the fold owns its accumulator) and returns it.
export function apply(state: LedgerState, block: Block, index: number): LedgerState {
  const record = block.data;
  const entry = { index, hash: block.hash, record };
  place(state, block, index);
  switch (record.type) {
    case 'diagnosis':
    case 'prescription':
    case 'test_report':
      if (index === 0) {
        state.enrolment = record.enrolment ?? null;
        for (const [patientId, on] of Object.entries(record.setupConsents ?? {}))
          state.careConsent.set(patientId, { on, at: record.timestamp, bySetup: true });
      }
      push(state.records, record.patientId, entry);
      push(state.medicalRecords, record.patientId, entry);
      state.uploads.set(record.id, entry);
      if (record.sealed) announceEpoch(state, record.patientId, record.sealed.key, entry);
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
        const known = own(state.grants, id);
        if (known) known.acknowledged = true;
      }
      break;
    case 'access_shared':
      applyShare(state, record, entry);
      break;
    case 'care_consent':
      state.careConsent.set(record.patientId, { on: record.careNetwork, at: record.timestamp, bySetup: false });
      break;
    case 'resealed':
      state.resealed.set(record.supersedes, index);
      announceEpoch(state, record.patientId, record.sealed.key, entry);
      break;
  }
  return state;
}

function applyShare(state: LedgerState, record: ShareRecord, entry: RecordEntry): void {
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
      ...(details.sealedNote ? { sealedNote: details.sealedNote } : {}),
    });
    return;
  }
  const known = own(state.shares, details.shareId);
  if (!known) return;
  if (details.event === 'revoked') known.share = { ...known.share, revokedAt: record.timestamp };
  else
    known.reads.push({
      at: record.timestamp,
      what: details.read ?? '',
      ...(details.documentId ? { documentId: details.documentId } : {}),
      block: entry.hash,
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
      ...(details.sealedReason ? { sealedReason: details.sealedReason } : {}),
    });
    return;
  }
  const known = own(state.grants, details.grantId);
  if (!known) return;
  if (details.event === 'read') {
    known.reads.push({
      at: record.timestamp,
      what: details.read ?? '',
      ...(details.documentId ? { documentId: details.documentId } : {}),
      block: entry.hash,
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
// A block written concurrently with one before it (its author did not see every block before it) that breaks a
// rule is kept but not applied (docs/decisions/one-ledger-across-devices.md); hash, heads, time, author and
// record shape are never relaxed. Blocks before `checkedBefore` had their hashes checked already.
export function verifyLedger(
  blocks: readonly Block[],
  difficulty: number,
  from?: VerifiedLedger,
  until = blocks.length,
  checkedBefore = 0,
): VerifiedLedger {
  const state = from?.state ?? emptyState();
  if (from?.firstInvalid) return from;
  if (blocks.length === 0) return { state, firstInvalid: { index: 0, reason: 'the stored chain has no blocks' } };
  for (let index = state.height; index < Math.min(until, blocks.length); index++) {
    const block = blocks[index];
    const reason =
      (index < checkedBefore ? null : checkBlock(block, index, blocks[index - 1], difficulty)) ?? orderProblem(state, block);
    if (reason !== null) return { state, firstInvalid: { index, reason } };
    const fixed = fixedRuleProblem(state, block);
    if (fixed !== null) return { state, firstInvalid: { index, reason: fixed } };
    const rule = stateRuleProblem(state, block, index);
    if (rule === null) apply(state, block, index);
    else if (sawEverything(state, block)) return { state, firstInvalid: { index, reason: rule } };
    else {
      state.notApplied.set(block.hash, { index, hash: block.hash, reason: rule });
      place(state, block, index);
    }
  }
  return { state };
}

// Its heads come before it, and it is not placed twice.
function orderProblem(state: LedgerState, block: Block): string | null {
  if (state.placed.has(block.hash)) return 'the block is already in the ledger';
  for (const parent of parentsOf(block)) if (!state.placed.has(parent)) return `head ${parent.slice(0, 8)} is not before it`;
  return null;
}
