// The state every screen reads: what the fold of the verified chain (projection.ts) holds, and what the
// chain's rules (chain-rules.ts) judge a new block against.
import type { ChainRecord, DocumentInfo, EmergencyGrant, KeyEnrolment, Share } from './types';

export interface RecordEntry {
  index: number;
  hash: string;
  record: ChainRecord;
}

export interface GrantRead {
  at: string;
  what: string;
  documentId?: string;
}

export interface GrantState {
  grant: EmergencyGrant;
  reads: GrantRead[]; // oldest first
  closedBy?: 'ended' | 'expired';
  endedBy?: string; // the user id of who ended it (the doctor, or the patient)
  acknowledged: boolean; // the patient dismissed the alert about it
}

export interface ShareState {
  share: Share;
  reads: GrantRead[]; // oldest first
}

export interface LedgerState {
  height: number;
  lastTimestamp: string; // of the tip: a new block's time never goes back before it
  records: Map<string, RecordEntry[]>; // per patient, oldest first: uploads, the genesis and grant starts
  documents: Map<string, DocumentInfo & { blockIndex: number }>;
  grants: Map<string, GrantState>;
  patientGrants: Map<string, string[]>; // grant ids per patient, oldest first
  newestGrant: Map<string, string>; // 'patient|doctor' -> that pair's newest grant: the one that may still be open
  shares: Map<string, ShareState>;
  patientShares: Map<string, string[]>; // share ids per patient, oldest first
  doctorShares: Map<string, string[]>; // share ids per doctor, oldest first
  enrolment: KeyEnrolment | null; // the public keys the genesis enrolled: signatures are checked against them
}
