// The entities of the ledger (users, records, blocks, documents, grants), as plain data (they cross the worker boundary as they are).
// Imports nothing: every module of the ledger imports these.

// Ciphertext as a record carries it (sealed-fields.ts): `key` names the key (a summary epoch id, DOCUMENT_KEY or RECORD_KEY), never holds it.
export interface SealedPart {
  key: string;
  iv: string; // base64, 12 bytes
  data: string; // base64: AES-256-GCM of the padded JSON of the fields, and the tag
}

// Text a doctor writes about a patient (an emergency grant's reason): the doctor holds no summary key of the patient's
// before the grant, so it is sealed under a key of its own, wrapped in the record to the patient and the doctor alone (sealed-fields.ts).
export interface ReaderSealed {
  part: SealedPart;
  wraps: KeyWrap[]; // one per reader; `documentId` is `record:<record id>`, so a document's wrap never opens it
}

// One document key wrapped to one reader (key-wraps.ts): only the holder of `to`'s private encryption key opens it.
export interface KeyWrap {
  documentId: string;
  cid: string; // content id of the encrypted bytes the key opens, as the chain names it
  to: string; // the recipient's user id, or CARE_NETWORK
  from: string; // who wrapped it (a user id, or CARE_NETWORK for a release): shown, not trusted
  ephemeralPublicKey: string; // base64 raw P-256 key of this wrap alone
  iv: string; // base64, 12 bytes
  wrapped: string; // base64: AES-256-GCM of the 32 key bytes and the tag
}

export type Role = 'patient' | 'doctor';

interface UserBase {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string; // ISO 8601
}

export interface Patient extends UserBase {
  role: 'patient';
  dateOfBirth: string; // YYYY-MM-DD
  gender: string;
  bloodType: string;
  allergies: string[];
  emergencyContact: string;
  doctorId?: string;
}

export interface Doctor extends UserBase {
  role: 'doctor';
  specialization: string;
  licenseNumber: string;
  hospital: string;
  patients: string[]; // patient ids
}

export type User = Patient | Doctor;

export type ClinicalRecordType = 'diagnosis' | 'prescription' | 'test_report';
export type RecordType =
  | ClinicalRecordType
  | 'emergency_access'
  | 'document_deleted'
  | 'access_acknowledged'
  | 'access_shared'
  | 'care_consent'
  | 'resealed';
export type UploadRecordType = 'prescription' | 'test_report';
export type AccessLevel = 'basic' | 'full';
export type EmergencyEvent = 'granted' | 'read' | 'ended' | 'expired';

// Every block's data is one of these records: every change to the ledger is a block (docs: the chain is
// the source of truth), and the worker's state is a projection of them (core/projection.ts).
interface RecordBase {
  id: string;
  patientId: string;
  doctorId: string; // the patient's doctor ('' when none); for emergency records, the doctor of the grant
  title: string;
  description: string;
  timestamp: string; // ISO 8601, the block's timestamp
}

// One stored file of an upload, as the chain vouches for it; its key and encrypted bytes live off the chain.
export interface ChainFile {
  documentId: string;
  name: string; // '' when sealed
  type: string; // MIME type; '' when sealed
  size: number; // bytes of the original file
  cid: string; // IPFS content id (Qm…) of the encrypted bytes
  sealed?: SealedPart; // name and type, under the file's document key (docs/decisions/nothing-medical-in-clear.md)
}

// The public keys the genesis block enrols (base64 raw keys): every signature is checked against them.
export interface KeyEnrolment {
  algorithm: 'Ed25519';
  ledger: string; // the key of system blocks (genesis, expiries)
  users: Record<string, string>; // user id -> public key
  // user id -> ECDH P-256 public key (base64 raw) that document keys are wrapped to; absent on ledgers made before
  // keys travelled (docs/decisions/document-keys-travel-wrapped.md): their document keys stay on their device
  encryption?: Record<string, string>;
}

// The genesis record (diagnosis, no files, the enrolled keys) and every upload.
export interface ClinicalRecord extends RecordBase {
  // genesis only: the care-network choices the ledger's setup records for demo accounts (patient id -> on)
  setupConsents?: Record<string, boolean>;
  type: ClinicalRecordType;
  files: ChainFile[];
  documentDate?: string; // ISO 8601: the document's own date when imported from elsewhere (FHIR), before it reached this chain
  enrolment?: KeyEnrolment; // only on the genesis block
  sealed?: SealedPart; // title, description and documentDate under the patient's summary key; those are then '' / absent in clear
}

// A stored file as a sealed record names it (sealed-fields.ts): name and type empty in clear, sealed under its document key.
export interface SealedChainFile extends ChainFile {
  sealed: SealedPart;
}

// An upload as it travels: title, description, its own date and its files' names and types are sealed.
export interface SealedClinicalRecord extends Omit<ClinicalRecord, 'files' | 'documentDate' | 'enrolment'> {
  files: SealedChainFile[];
  sealed: SealedPart;
}

// What an emergency_access record says about the grant it belongs to.
export interface EmergencyDetails {
  grantId: string;
  event: EmergencyEvent;
  accessLevel: AccessLevel;
  reason: string;
  durationMinutes: number;
  read?: string; // for 'read' events: what was read, e.g. 'health overview and 5 recent records'
  documentId?: string; // for a read of one document
  endedBy?: 'patient'; // on an 'ended' event the patient wrote; absent when the doctor ended it
  sealedReason?: ReaderSealed; // on a sealed 'granted' event: the reason ('' in clear), to the patient and the doctor alone
}

export interface EmergencyRecord extends RecordBase {
  type: 'emergency_access';
  isEmergencyAccess: true;
  emergencyAccessExpiry: string; // ISO 8601, the grant's expiry
  emergency: EmergencyDetails;
}

// The patient deleted one file of an upload: the upload stays on the chain, its bytes and key are dropped.
export interface DeletionRecord extends RecordBase {
  type: 'document_deleted';
  documentId: string;
}

// The patient dismissed the alert about these emergency accesses.
export interface AcknowledgementRecord extends RecordBase {
  type: 'access_acknowledged';
  grantIds: string[];
}

export type ShareEvent = 'shared' | 'revoked' | 'read';

// What a sharing record says about the share it belongs to: the patient shares with one listed doctor.
export interface ShareDetails {
  shareId: string;
  event: ShareEvent;
  accessLevel: AccessLevel;
  durationDays: number; // 0: until revoked
  expiresAt: string; // ISO 8601, '' when until revoked
  note: string;
  read?: string; // for 'read' events: what was read
  documentId?: string; // for a read of one document
  sealedNote?: ReaderSealed; // on a sealed 'shared' event: the note ('' in clear), to the patient and the doctor alone
}

export interface ShareRecord extends RecordBase {
  type: 'access_shared';
  share: ShareDetails;
}

// The patient lets the sync server's care network open their files under an emergency grant, or stops it
// (docs/decisions/document-keys-travel-wrapped.md). No block yet: on, for the demo accounts.
export interface CareConsentRecord extends RecordBase {
  type: 'care_consent';
  careNetwork: boolean;
}

// The patient re-sealed an upload written in clear before sealing (docs/decisions/nothing-medical-in-clear.md): its
// text and its live files' names sealed as a sealed upload holds them. The clear block stays: this erases nothing.
export interface ResealedRecord extends RecordBase {
  type: 'resealed';
  supersedes: string; // the id of the clear upload
  supersedesBlock: string; // its block's hash
  sealed: SealedPart; // its title, description and own date, under the patient's summary key
  fileParts: { documentId: string; sealed: SealedPart }[]; // each live file's name and type, under its document key
}

export type ChainRecord =
  ClinicalRecord | EmergencyRecord | DeletionRecord | AcknowledgementRecord | ShareRecord | CareConsentRecord | ResealedRecord;

export interface Block {
  id: string; // its place in the ledger's order, as text (hashed only on blocks without heads)
  hash: string; // 64 hex digits (SHA-256 of the header)
  previousHash: string; // the block before it; on a block with heads, its first head
  heads?: string[]; // hashes of the blocks nothing else its author held pointed to, sorted (docs/decisions/one-ledger-across-devices.md); absent on blocks written before devices synced
  timestamp: string; // ISO 8601
  dataHash: string; // SHA-256 hex of data's canonical JSON, part of the mined header: lets verification tell a changed record from a changed header
  data: ChainRecord;
  nonce: number;
  author: string; // the user id who wrote it, or 'ledger' for system blocks; checked by the chain's rules
  signature: string; // base64 Ed25519 signature of the author over author and hash ('' before it is signed)
}

// A stored file as the projection of the chain describes it (the seed's stored-document fields, keyless).
export interface DocumentInfo {
  id: string;
  fileName: string;
  fileType: string;
  fileSize: number; // bytes of the original file
  uploadDate: string; // ISO 8601
  ipfsHash: string; // IPFS content id of the encrypted bytes
  patientId: string;
  doctorId: string;
  isEncrypted: boolean;
  deletedAt?: string; // set when the owning patient deleted the file; the record stays on the chain
}

// What is stored beside the chain for one file: the AES-256 key (64 hex). The encrypted bytes are apart.
export interface DocumentKey {
  id: string;
  encryptionKey: string;
}

export interface EmergencyGrant {
  id: string;
  patientId: string;
  doctorId: string;
  accessLevel: AccessLevel;
  reason: string;
  durationMinutes: number;
  expiresAt: string; // ISO 8601
  createdAt: string; // ISO 8601
  endedAt?: string; // set by End Emergency Session
  isActive: boolean; // false once ended or expired
}

// A patient's share of their records with a doctor, as the projection of its blocks says.
export interface Share {
  id: string;
  patientId: string;
  doctorId: string;
  accessLevel: AccessLevel;
  durationDays: number; // 0: until revoked
  note: string;
  createdAt: string; // ISO 8601
  expiresAt: string | null; // null: until revoked
  revokedAt?: string;
}
