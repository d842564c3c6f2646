// What crosses to the UI, built from the projection: plain copies, never the state itself.
import type {
  AccessHistoryEntry,
  BlockSummary,
  BlocksPage,
  DocumentView,
  FileArrival,
  ReadableBlockSummary,
  RecordView,
  RestrictedBlockSummary,
  SignatureState,
} from '../api';
import { RECORDS_PAGE_SIZE } from '../core/constants';
import { PATIENTS, findUser } from '../core/directory';
import type { AccessRead } from '../core/ledger-records';
import type { GrantRead, GrantState, LedgerState, NotApplied, RecordEntry } from '../core/projection';
import type { Block, ClinicalRecord, DocumentInfo, EmergencyGrant, Patient, Share } from '../core/types';
import { isIndex } from '../core/ids';
import { fail } from './deps';

// What a reader sees of a file whose key has not reached this device, or whose key went with its deletion.
export const SEALED_FILE = 'Sealed file';
export const DELETED_FILE = 'Deleted file'; // its name was sealed under its key, which the deletion dropped

export const MAX_PAGE_SIZE = 500;
export const READ_REPEAT_MS = 60_000; // the same read under a grant or share is logged once a minute

// A repeat of the last read logged under the same grant or share, less than a minute ago by the device clock
// (moved back, a read is never a repeat of one logged "later"): one entry, since a re-render is not a new read.
export function readJustLogged(last: GrantRead | undefined, read: AccessRead, now: number): boolean {
  if (!last || last.what !== read.what || last.documentId !== read.documentId) return false;
  const age = now - Date.parse(last.at);
  return age >= 0 && age < READ_REPEAT_MS;
}

// A file as a message names it: by its name, or by its id where the name is sealed and not opened here (a deleted
// sealed file's name went with its key).
export function fileLabel(document: Pick<DocumentInfo, 'id' | 'fileName'>, unnamed = `document ${document.id}`): string {
  const named = document.fileName !== '' && document.fileName !== SEALED_FILE && document.fileName !== DELETED_FILE;
  return named ? `"${document.fileName}"` : unnamed;
}

// What a read of one document says on the chain: its name only where the chain holds it in clear already.
export const SEALED_DOCUMENT_READ = 'a document';

// Whether a file is still on its way from another device, and how far (workers/ledger/arrivals.ts).
export type ArrivalOf = (document: DocumentInfo) => FileArrival | undefined;

export function documentView(state: LedgerState, id: string, arrivalOf?: ArrivalOf): DocumentView | undefined {
  const info = state.documents.get(id);
  if (!info) return undefined;
  const { blockIndex: _index, ...view } = info;
  const arriving = arrivalOf?.(info);
  return arriving ? { ...view, arriving } : view;
}

// withFiles false (basic emergency access): no file names, ids, content ids or documents leave the worker,
// only how many files there are.
export function recordView(state: LedgerState, entry: RecordEntry, withFiles: boolean, arrivalOf?: ArrivalOf): RecordView {
  const { record, hash, index } = entry;
  const listed = 'files' in record ? record.files : [];
  const files = withFiles ? listed : [];
  return {
    id: record.id,
    patientId: record.patientId,
    doctorId: record.doctorId,
    type: record.type,
    title: record.title,
    description: record.description,
    fileName: files[0]?.name ?? '',
    fileUrl: files[0] ? `ipfs://${files[0].cid}` : '',
    documentIds: files.map((file) => file.documentId),
    fileCount: listed.length,
    timestamp: record.timestamp,
    ...('documentDate' in record && record.documentDate ? { documentDate: record.documentDate } : {}),
    ...(record.type === 'emergency_access'
      ? { isEmergencyAccess: true, emergencyAccessExpiry: record.emergencyAccessExpiry, emergency: { ...record.emergency } }
      : {}),
    blockchainHash: hash,
    blockIndex: index,
    documents: files.flatMap((file) => documentView(state, file.documentId, arrivalOf) ?? []),
  };
}

// One patient's `entries` as the readable state (workers/ledger/sealing.ts) holds them: opened where this device can.
export function openedEntries(readable: LedgerState, entries: readonly RecordEntry[]): RecordEntry[] {
  const patientId = entries[0]?.record.patientId ?? '';
  const byIndex = new Map((readable.records.get(patientId) ?? []).map((entry) => [entry.index, entry]));
  return entries.map((entry) => byIndex.get(entry.index) ?? entry);
}

export function grantsOf(state: LedgerState): EmergencyGrant[] {
  return [...state.grants.values()].map((known) => known.grant);
}

export function sharesOf(state: LedgerState): Share[] {
  return [...state.shares.values()].map((known) => known.share);
}

// The patient's listed records, newest first.
export function newestRecords(state: LedgerState, patientId: string): RecordEntry[] {
  return [...(state.records.get(patientId) ?? [])].reverse();
}

// A medical record of the patient's (an upload or the genesis diagnosis); the rest of their entries are grant starts.
export function isClinical(entry: RecordEntry): entry is RecordEntry & { record: ClinicalRecord } {
  return entry.record.type !== 'emergency_access';
}

export interface PageAsked {
  page: number;
  recordId?: string;
}

// The page a records query asks for, checked: it crosses the worker boundary.
export function pageAsked({ page = 1, recordId }: { page?: unknown; recordId?: unknown }): PageAsked {
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 1)
    fail('ValidationError', 'Ask for a page numbered 1 or more.');
  if (recordId !== undefined && typeof recordId !== 'string') fail('ValidationError', 'Ask for a record by its id.');
  return recordId === undefined ? { page } : { page, recordId };
}

// That page of `entries`: the one listing `recordId` when it is listed, and the last for one past it (a list can
// shrink under a screen, at a reset of the demo data).
export function recordsPageOf<T extends RecordEntry>(entries: readonly T[], { page, recordId }: PageAsked) {
  const last = Math.max(1, Math.ceil(entries.length / RECORDS_PAGE_SIZE));
  const at = recordId === undefined ? -1 : entries.findIndex((entry) => entry.record.id === recordId);
  const chosen = at >= 0 ? Math.floor(at / RECORDS_PAGE_SIZE) + 1 : Math.min(page, last);
  const start = (chosen - 1) * RECORDS_PAGE_SIZE;
  return { entries: entries.slice(start, start + RECORDS_PAGE_SIZE), total: entries.length, page: chosen };
}

export function patientById(id: string): Patient {
  return PATIENTS.find((candidate) => candidate.id === id) ?? fail('NotFoundError', 'No patient has this id.');
}

// A block the reader may not read: its header, nothing of its record (not even who wrote it or its type).
export function restrictedSummary(
  block: Pick<Block, 'hash' | 'previousHash' | 'timestamp' | 'nonce' | 'heads'>,
  index: number,
): RestrictedBlockSummary {
  return {
    restricted: true,
    index,
    hash: block.hash,
    previousHash: block.previousHash,
    timestamp: block.timestamp,
    nonce: block.nonce,
    ...joinsOf(block),
  };
}

// Where branches joined: a block naming more than one head.
function joinsOf(block: Pick<Block, 'heads'>): { joins?: number } {
  return Array.isArray(block.heads) && block.heads.length > 1 ? { joins: block.heads.length } : {};
}

export function readableSummary(block: Block, index: number, signature: SignatureState): ReadableBlockSummary {
  return {
    index,
    hash: block.hash,
    previousHash: block.previousHash,
    timestamp: block.timestamp,
    nonce: block.nonce,
    type: block.data.type,
    title: block.data.title,
    patientId: block.data.patientId,
    author: typeof block.author === 'string' ? block.author : '', // a stored block may lack it; its rules name that
    signature,
    ...joinsOf(block),
  };
}

// visible is false for a block without data too (only a tampered store has one, and verification reports it).
export function blockSummary(
  block: Block,
  index: number,
  visible: boolean,
  signature: SignatureState,
  notApplied?: NotApplied,
): BlockSummary {
  if (!visible || !block.data) return restrictedSummary(block, index);
  const summary = readableSummary(block, index, signature);
  return notApplied ? { ...summary, notApplied: notApplied.reason } : summary;
}

export function pageOf(
  blocks: readonly Block[],
  offset: number,
  limit: number,
  visible: (block: Block, index: number) => boolean,
  signatureOf: (index: number) => SignatureState,
  notApplied: ReadonlyMap<string, NotApplied> = new Map(),
): BlocksPage {
  return rowsPage(blocks.length, offset, limit, (i) =>
    blockSummary(blocks[i], i, visible(blocks[i], i), signatureOf(i), notApplied.get(blocks[i].hash)),
  );
}

// A page of a chain's rows, newest first: offset 0 is the tip.
export function rowsPage(total: number, offset: number, limit: number, rowOf: (index: number) => BlockSummary): BlocksPage {
  if (!isIndex(offset) || !Number.isInteger(limit) || limit < 1) {
    fail('ValidationError', 'Ask for a page with a whole offset of 0 or more and a limit of 1 or more.');
  }
  const size = Math.min(limit, MAX_PAGE_SIZE);
  const page: BlockSummary[] = [];
  for (let i = total - 1 - offset; i >= 0 && page.length < size; i--) page.push(rowOf(i));
  return { total, offset, blocks: page };
}

// A read as the patient's screens list it: a sealed document's read named by the name this device opened.
export function readEntry(state: LedgerState, { at, what, documentId }: GrantRead): { at: string; what: string } {
  const name = what === SEALED_DOCUMENT_READ && documentId ? state.documents.get(documentId)?.fileName : undefined;
  return { at, what: name ? `document "${name}"` : what };
}

// Newest grant first; a grant past its expiry that no block closed yet is shown expired: the clock decides.
export function accessHistoryOf(
  state: LedgerState,
  patientId: string,
  at: number,
  which: (known: GrantState) => boolean = () => true,
): AccessHistoryEntry[] {
  return (state.patientGrants.get(patientId) ?? [])
    .flatMap((id) => state.grants.get(id) ?? [])
    .filter(which) // before building entries: a long history is mostly acknowledged
    .reverse()
    .map(({ grant, reads, closedBy, endedBy }) => {
      const expired = closedBy === 'expired' || (!closedBy && at >= Date.parse(grant.expiresAt));
      return {
        grantId: grant.id,
        doctorId: grant.doctorId,
        doctorName: findUser(grant.doctorId)?.name ?? grant.doctorId,
        reason: grant.reason,
        accessLevel: grant.accessLevel,
        startedAt: grant.createdAt,
        expiresAt: grant.expiresAt,
        status: closedBy === 'ended' ? 'ended' : expired ? 'expired' : 'active',
        ...(closedBy === 'ended'
          ? { endedAt: grant.endedAt, endedBy: findUser(endedBy ?? grant.doctorId)?.name ?? grant.doctorId }
          : expired
            ? { endedAt: grant.expiresAt }
            : {}),
        reads: reads.map((read) => readEntry(state, read)),
      };
    });
}
