// The state every screen reads: what the fold of the verified chain (projection.ts) holds, and what the
// chain's rules (chain-rules.ts) judge a new block against.
import type { SharedMap } from './shared-map';
import type { ChainRecord, DocumentInfo, EmergencyGrant, KeyEnrolment, ReaderSealed, Share } from './types';

export interface RecordEntry {
  index: number;
  hash: string;
  record: ChainRecord;
}

export interface GrantRead {
  at: string;
  what: string;
  documentId?: string;
  block: string; // the hash of the read's block: the sync server releases a key only against it
}

export interface GrantState {
  grant: EmergencyGrant;
  reads: GrantRead[]; // oldest first
  closedBy?: 'ended' | 'expired';
  endedBy?: string; // the user id of who ended it (the doctor, or the patient)
  acknowledged: boolean; // the patient dismissed the alert about it
  sealedReason?: ReaderSealed; // the reason, when sealed to the patient and the doctor (grant.reason is then '')
}

export interface ShareState {
  share: Share;
  reads: GrantRead[]; // oldest first
  sealedNote?: ReaderSealed; // the note, when sealed to the patient and the doctor (share.note is then '')
}

// A block kept in the order but not folded in: written concurrently with a block before it, it broke a rule only
// because of that block (docs/decisions/one-ledger-across-devices.md). Every device decides it the same way.
export interface NotApplied {
  index: number;
  hash: string;
  reason: string; // the rule it broke, e.g. 'read names share s1, which was revoked'
}

// A summary key's epoch as the first upload sealed under it announced it: rotation is decided from `at` on.
export interface SummaryEpoch {
  epochId: string;
  at: string; // ISO 8601, the announcing block's time
  blockIndex: number;
}

export interface LedgerState {
  careConsent: SharedMap<string, CareChoice>; // patient id -> the newest care-network choice on the chain
  summaryEpochs: SharedMap<string, SummaryEpoch[]>; // patient id -> their announced epochs, oldest first; none: their records are in clear
  resealed: SharedMap<string, number>; // id of an upload written in clear -> index of the block that re-sealed it
  height: number;
  lastTimestamp: string; // of the last block in the order: a new block's time never goes back before it
  tips: string[]; // the heads of the blocks so far, sorted: a new block names them
  placed: SharedMap<string, number>; // hash -> index of the blocks so far: a block's heads must be among them
  notApplied: SharedMap<string, NotApplied>; // by block hash
  records: SharedMap<string, RecordEntry[]>; // per patient, oldest first: uploads, the genesis and grant starts
  medicalRecords: SharedMap<string, RecordEntry[]>; // per patient, oldest first: uploads and the genesis (what a read sends)
  uploads: SharedMap<string, RecordEntry>; // uploads and the genesis by record id: what a re-sealing names
  documents: SharedMap<string, DocumentInfo & { blockIndex: number }>;
  grants: SharedMap<string, GrantState>;
  patientGrants: SharedMap<string, string[]>; // grant ids per patient, oldest first
  newestGrant: SharedMap<string, string>; // 'patient|doctor' -> that pair's newest grant: the one that may still be open
  shares: SharedMap<string, ShareState>;
  patientShares: SharedMap<string, string[]>; // share ids per patient, oldest first
  doctorShares: SharedMap<string, string[]>; // share ids per doctor, oldest first
  enrolment: KeyEnrolment | null; // the public keys the genesis enrolled: signatures are checked against them
}

// A patient's care-network choice as the chain holds it: on or off, when, and whether the ledger's setup recorded it.
export interface CareChoice {
  on: boolean;
  at: string; // ISO 8601
  bySetup: boolean;
}
