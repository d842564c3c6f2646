// The one object the UI talks to; the worker answers nothing else (docs/architecture.md, "The worker boundary").
// Every argument and result is plain data or an ArrayBuffer; errors cross as Error with a fixed `name`
// (see core/errors.ts). The service keeps its own signed-in actor: every call is checked against it.
import type { ProxyMarked } from 'comlink';
import type { PeerName } from './core/constants';
import type {
  AccessLevel,
  Block,
  DocumentInfo,
  EmergencyDetails,
  EmergencyGrant,
  Patient,
  RecordType,
  Role,
  Share,
  UploadRecordType,
  User,
} from './core/types';

// A stored file as the chain describes it (arriving: still on its way from another device). Keys never leave the worker.
export type DocumentView = DocumentInfo & { arriving?: FileArrival };

// A record as the screens show it (the seed's medical-record fields), built from its block.
export interface RecordView {
  id: string;
  patientId: string;
  doctorId: string;
  type: RecordType;
  title: string;
  description: string;
  fileName: string; // first file's name ('' when none)
  fileUrl: string; // first file's document url: 'ipfs://<Qm…>' ('' when none)
  documentIds: string[]; // every stored file of this record ([] when the reader's access withholds files)
  fileCount: number; // files of the record, counted even when withheld
  timestamp: string; // ISO 8601: when it was added to this chain
  documentDate?: string; // ISO 8601: an imported document's own date, from before it was added
  isEmergencyAccess?: boolean;
  emergencyAccessExpiry?: string; // ISO 8601
  emergency?: EmergencyDetails;
  blockchainHash: string; // hash of the block that holds it (64 hex)
  blockIndex: number;
  documents: DocumentView[]; // every file of the record, deleted ones included (deletedAt set)
}

// The loaded chain's verification, and each block's signature: workers/api-chain.ts.
import type { ChainStatus, SignatureState } from './api-chain';
export type { ChainStatus, SignatureState } from './api-chain';

export interface ReadableBlockSummary {
  restricted?: false;
  index: number;
  hash: string;
  previousHash: string;
  timestamp: string;
  nonce: number;
  type: RecordType;
  title: string;
  patientId: string;
  author: string; // who signed it: a user id, or 'ledger' for system blocks
  signature: SignatureState;
  problem?: string; // sandbox pages: the check this block fails by itself (its hash, data, difficulty or link to the block before)
  joins?: number; // the heads it names, when more than one: where branches written on different devices joined
  notApplied?: string; // kept but not applied: the rule it broke only because of a block written concurrently
  writtenInClear?: { resealedIn?: number }; // an upload whose text the block holds in clear (written before sealing)
}

// A block of a record the reader may not read: its place in the chain and its header, nothing of the record
// (no patient, author, type or title), so a row says only that a block is there and when it was added.
export interface RestrictedBlockSummary {
  restricted: true;
  index: number;
  hash: string;
  previousHash: string;
  timestamp: string;
  nonce: number;
  problem?: string;
  joins?: number;
  // never sent: a row may be read as `row.title` without narrowing, and is undefined here
  type?: never;
  title?: never;
  patientId?: never;
  author?: never;
  signature?: never;
  notApplied?: never;
}

export type BlockSummary = ReadableBlockSummary | RestrictedBlockSummary;

export interface BlocksPage {
  total: number;
  offset: number;
  blocks: BlockSummary[]; // newest first: offset 0 is the tip
}

export interface FileInput {
  name: string;
  type: string; // MIME type as the browser gave it ('' when unknown)
  bytes: ArrayBuffer;
}

export interface UploadRequest {
  title: string;
  description?: string;
  type: UploadRecordType;
  files: FileInput[];
}

export interface UploadResult {
  record: RecordView;
  block: BlockSummary;
}

export interface PatientOverview {
  patient: Patient;
  totalRecords: number; // all the patient's records (docs/decisions/true-dashboard-figures.md)
  lastUpload: string | null; // ISO date of the newest upload, null when none (docs/decisions/true-dashboard-figures.md)
  recent: RecordView[]; // the 5 newest
  newEmergencyAccesses: AccessHistoryEntry[]; // not yet acknowledged by the patient
}

export interface DoctorOverview {
  patients: Patient[]; // from the doctor's own list
  recentActivity: RecordView[]; // the 10 newest records of those patients
  recordsToday: number;
}

export interface RecordQuery {
  search?: string; // matches title or description, NFC and case-insensitive; refused over 200 characters (text-input.ts)
  type?: RecordType;
  page?: number; // from 1, RECORDS_PAGE_SIZE records each; one past the last answers the last
  recordId?: string; // answers the page that lists this record instead, when the query lists it
}

// One page of a patient's records, newest first, and how many the query lists in all.
export interface RecordListPage {
  records: RecordView[];
  total: number;
  page: number; // the page answered, from 1
  pageSize: number;
}

export interface EmergencyRequest {
  patientId: string;
  reason: string;
  accessLevel: AccessLevel;
  durationMinutes: number; // one of EMERGENCY_DURATIONS
}

// What a doctor sees under an active grant: basic = profile, health overview, 5 newest records;
// full = complete history, documents readable.
export interface EmergencyView {
  grant: EmergencyGrant;
  patient: Patient;
  records: RecordView[];
  documentsReadable: boolean;
}

export interface AccessHistoryEntry {
  grantId: string;
  doctorId: string;
  doctorName: string;
  reason: string;
  accessLevel: AccessLevel;
  startedAt: string;
  expiresAt: string;
  endedAt?: string; // ended by the doctor or the patient, or at expiry
  endedBy?: string; // the name of who ended it, when it was ended
  status: 'active' | 'ended' | 'expired';
  reads: { at: string; what: string }[];
}

export interface ShareRequest {
  doctorId: string;
  accessLevel: AccessLevel;
  durationDays: number; // one of SHARE_DURATIONS_DAYS; 0: until revoked
  note?: string;
}

// A patient's share as they see it, with what the doctor read under it.
export interface ShareEntry {
  share: Share;
  doctorName: string;
  status: 'active' | 'revoked' | 'expired';
  reads: { at: string; what: string }[];
}

// What a doctor sees of a patient who shared with them (the same scope as emergency access of that level).
export interface SharedView {
  share: Share;
  patient: Patient;
  records: RecordView[];
  documentsReadable: boolean;
}

export interface DocumentContent {
  document: DocumentView;
  bytes: ArrayBuffer; // decrypted, integrity checked against ipfsHash; transferred
}

export interface MiningProgress {
  jobId: string;
  blocksMined: number;
  blocksTotal: number;
  attempts: number;
  elapsedMs: number;
  hashRate: number; // hashes per second
}

export interface MiningResult extends MiningProgress {
  cancelled: boolean;
}

export type { PeerName };

// One live edit of a sandbox block, sent as the user types: only the fields given change. `seq` orders the
// edits of a block: one older than an edit already applied is answered stale, not computed.
export interface SandboxEdit {
  peer: PeerName;
  index: number;
  seq: number;
  title?: string;
  description?: string;
}

// A sandbox block as its editor shows it. A restricted one is a header only: it cannot be edited, only re-mined.
export type ReadableSandboxBlock = ReadableBlockSummary & { description: string; dataHash: string };
export type SandboxBlock = ReadableSandboxBlock | (RestrictedBlockSummary & { dataHash: string; description?: never });

export type SandboxEditResult =
  | { stale: true; seq: number }
  | { stale: false; seq: number; block: ReadableSandboxBlock; next?: BlockSummary; status: ChainStatus };

export interface RemineResult extends MiningResult {
  from: number; // the first block re-mined
  status: ChainStatus;
}

export interface PeerReport {
  peer: PeerName;
  status: ChainStatus; // the copy's own verification
  tipHash: string;
  differsFrom?: number; // the first block whose hash is not the one the majority holds (a missing or extra block counts)
}

export interface PeersReport {
  peers: PeerReport[];
  noMajorityFrom?: number; // from this block on, no two copies hold the same block
}

// The records chain's tip kept outside the device and its check: workers/api-anchor.ts.
import type { AnchorCheck, ChainAnchor } from './api-anchor';
export type { AnchorCheck, ChainAnchor, InvalidBlock } from './api-anchor';

// This device's link to a sync server (docs/decisions/one-ledger-across-devices.md): workers/api-sync.ts.
import type { FileArrival, SyncConnection, SyncRequest, SyncStatus } from './api-sync';
export type { FileArrival, SyncConnection, SyncDevice, SyncRequest, SyncState, SyncStatus } from './api-sync';

// Records that leave with the patient: the FHIR export and import, the backup and its restore.
export type {
  BackupScope,
  ExportOptions,
  ExportedFile,
  ImportOptions,
  ImportResult,
  ImportedOverview,
  LedgerCounts,
  RestorePlan,
  TransferProgress,
} from './api-transfer';
import type {
  ExportOptions,
  ExportedFile,
  ImportOptions,
  ImportResult,
  RestorePlan,
  TransferProgress,
  BackupScope,
} from './api-transfer';

// A patient's care-network choice: on or off, and who recorded it when (null: not chosen yet, so off).
export interface CareConsent {
  on: boolean;
  recorded: 'patient' | 'setup' | null; // 'setup': the demo ledger's setup chose it for this demo account
  at?: string; // ISO 8601, when recorded
}

// What a change touched, so a screen refetches only what it shows. Every change adds blocks ('chain').
export type ChangeKind =
  | 'chain' // blocks were added: height, tip, verification
  | 'records' // uploads and deletions: records and documents
  | 'grants' // emergency access granted, ended or expired
  | 'access' // emergency reads and the patient's acknowledgements: the access history and alerts
  | 'signatures' // more hashes or signatures of the loaded chain were checked: only the chain status
  | 'sync' // the link to the sync server changed: its state, pending blocks, the devices
  | 'signed-out' // the worker signed the user out: this device took the sync server's ledger
  | 'reset'; // the whole ledger was replaced (reset, or another tab's reset): everything
export interface LedgerChange {
  revision: number; // the stored revision after the change
  kinds: ChangeKind[];
}

export type ChangeListener = ((change: LedgerChange) => void) & ProxyMarked;
export type Unsubscribe = (() => void) & ProxyMarked;
export type ProgressListener = ((progress: MiningProgress) => void) & ProxyMarked;
export type TransferProgressListener = ((progress: TransferProgress) => void) & ProxyMarked;

// A share made with the signed-in doctor; `opened` once they have read under it (a read is a block the patient sees).
export interface SharedWithMe {
  share: Share;
  patient: Patient;
  opened: boolean;
}

export interface LedgerService {
  // session
  signIn(email: string, password: string, role: Role): Promise<User>;
  resumeSession(userId: string): Promise<User | null>; // null: unknown id, the caller signs out (docs/decisions/session-lookup.md)
  signOut(): Promise<void>;

  // chain
  chainStatus(): Promise<ChainStatus>;
  blocksPage(offset: number, limit: number): Promise<BlocksPage>;
  block(index: number): Promise<Block>;

  // patient
  patientOverview(): Promise<PatientOverview>;
  listRecords(patientId: string, query?: RecordQuery): Promise<RecordListPage>;
  upload(request: UploadRequest): Promise<UploadResult>;
  readDocument(documentId: string): Promise<DocumentContent>;
  deleteDocument(documentId: string): Promise<DocumentView>;
  clearRecordCount(): Promise<number>; // the patient's records written in clear before sealing, that this device can seal
  sealClearRecords(): Promise<number>; // seals them (one block each, the clear blocks stay); how many were sealed
  accessHistory(): Promise<AccessHistoryEntry[]>;
  acknowledgeEmergencyAccesses(): Promise<void>;

  // doctor
  doctorOverview(): Promise<DoctorOverview>;
  searchPatients(query: string): Promise<Patient[]>; // local filter on name or id, as the records search compares
  requestEmergencyAccess(request: EmergencyRequest): Promise<EmergencyGrant>;
  endEmergencyAccess(grantId: string): Promise<EmergencyGrant>;
  endEmergencyAccessAsPatient(grantId: string): Promise<EmergencyGrant>; // the patient ends a session open on them
  activeGrants(): Promise<EmergencyGrant[]>;
  emergencyView(grantId: string): Promise<EmergencyView>;

  // sharing: the patient shares with a listed doctor; the doctor reads under the share
  shareRecords(request: ShareRequest): Promise<Share>;
  revokeShare(shareId: string): Promise<Share>;
  myShares(): Promise<ShareEntry[]>; // the patient's shares, newest first
  sharedWithMe(): Promise<SharedWithMe[]>; // the doctor's active shares, newest first
  sharedView(shareId: string): Promise<SharedView>;

  // this browser's copy of the ledger: a reset never drops what someone else wrote (workers/ledger/policy.ts)
  resetAllowed(): Promise<{ allowed: boolean; reason?: string }>; // what the Reset dialog offers
  resetDemoData(): Promise<void>; // also without a session when the stored ledger cannot be loaded or verified
  onChange(listener: ChangeListener): Promise<Unsubscribe>; // called after any change, from this tab or another

  // sync: this device as one of the ledger's witnesses; off until the user connects it
  connectSync(request: SyncRequest): Promise<SyncConnection>; // resolves with the state after the join (refused: why)
  disconnectSync(): Promise<SyncStatus>;
  syncStatus(): Promise<SyncStatus>;
  removeSyncDevice(deviceId: string): Promise<SyncStatus>; // another device of this user leaves the server; its blocks stay
  // the signed-in patient's consent that the sync server's care network may open their files under an emergency grant
  careNetworkConsent(): Promise<CareConsent>;
  setCareNetworkConsent(on: boolean): Promise<boolean>;

  // anchor: the records chain's tip, kept elsewhere by the user and compared later (only reads the chain)
  saveAnchor(): Promise<ChainAnchor>;
  checkAnchor(anchor: string): Promise<AnchorCheck>; // the anchor's JSON as the user gave it

  // portability: a patient's FHIR export and import; the encrypted backup and its restore, which merges.
  // exportFhir and downloadBackup resolve null when cancelled (cancelTransfer).
  exportFhir(jobId: string, options: ExportOptions, onProgress?: TransferProgressListener): Promise<ExportedFile | null>;
  importFhir(bundle: ArrayBuffer, options?: ImportOptions): Promise<ImportResult>; // all entries it uses, or nothing
  downloadBackup(
    jobId: string,
    password: string,
    scope: BackupScope,
    onProgress?: TransferProgressListener,
  ): Promise<ExportedFile | null>;
  prepareRestore(backup: ArrayBuffer, password: string): Promise<RestorePlan>; // checks everything, writes nothing
  confirmRestore(planId: string): Promise<ChainStatus>; // writes the plan: adds its blocks, or replaces an untouched ledger
  cancelTransfer(jobId: string): Promise<boolean>;

  // sandbox (explorer and mining lab): three peers' copies of the chain, never the real records; peer A when none is named
  sandboxReset(blocks: number, onProgress?: ProgressListener): Promise<BlocksPage>; // a demo chain reports the blocks built
  sandboxPage(offset: number, limit: number, peer?: PeerName): Promise<BlocksPage & { status: ChainStatus }>;
  sandboxBlock(index: number, peer?: PeerName): Promise<SandboxBlock>;
  sandboxEdit(edit: SandboxEdit): Promise<SandboxEditResult>; // recomputes the block's data hash and hash with its nonce
  sandboxRemine(index: number, peer?: PeerName): Promise<ChainStatus>;
  sandboxRemineFrom(jobId: string, index: number, peer: PeerName, onProgress: ProgressListener): Promise<RemineResult>; // to the tip
  sandboxPeers(): Promise<PeersReport>;
  mineSandbox(jobId: string, difficulty: number, blocks: number, onProgress: ProgressListener): Promise<MiningResult>;
  cancelJob(jobId: string): Promise<boolean>;
}
