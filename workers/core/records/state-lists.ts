// Small pieces of the projection the record kinds' folds and rules share (projection.ts runs the fold).
import type { GrantRead, LedgerState, RecordEntry } from '../ledger-state';
import type { SharedMap } from '../shared-map';

// Appends to a list of the state: in place when this state made it, else to a copy (a snapshot's list stays as it was).
export function push<T>(map: SharedMap<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list && map.owns(key)) list.push(value);
  else map.set(key, list ? [...list, value] : [value]);
}

// The grant or share at `id` that this state may change in place: its own, or a copy of the snapshot's.
export function own<T extends { reads: GrantRead[] }>(map: SharedMap<string, T>, id: string): T | undefined {
  const known = map.get(id);
  if (!known || map.owns(id)) return known;
  const copy = { ...known, reads: known.reads.slice() };
  map.set(id, copy);
  return copy;
}

// The first upload sealed under an epoch announces it: its time starts the epoch (core/sealed-fields.ts rotationDue).
export function announceEpoch(state: LedgerState, patientId: string, epochId: string, entry: RecordEntry): void {
  const epochs = state.summaryEpochs.get(patientId) ?? [];
  if (!epochs.some((epoch) => epoch.epochId === epochId))
    push(state.summaryEpochs, patientId, { epochId, at: entry.record.timestamp, blockIndex: entry.index });
}

// The epochs an upload of `patientId` sealed under `epochId` may name: theirs so far, and `epochId` itself when no
// block named it before (the first upload sealed under an epoch announces it).
export function epochsOpenTo(state: LedgerState, patientId: string, epochId: string): Set<string> {
  const theirs = new Set((state.summaryEpochs.get(patientId) ?? []).map((epoch) => epoch.epochId));
  const anyones = [...state.summaryEpochs.values()].some((epochs) => epochs.some((epoch) => epoch.epochId === epochId));
  return anyones ? theirs : theirs.add(epochId);
}

export const hasSealed = (state: LedgerState, patientId: string) => (state.summaryEpochs.get(patientId) ?? []).length > 0;
