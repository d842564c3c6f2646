// The entities of SEED.md section 3, as plain data (they cross the worker boundary as they are).

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

export type RecordType = 'diagnosis' | 'prescription' | 'test_report' | 'emergency_access';
export type UploadRecordType = 'prescription' | 'test_report';
export type AccessLevel = 'basic' | 'full';
export type EmergencyEvent = 'granted' | 'read' | 'ended' | 'expired';

// What an emergency_access record says about the grant it belongs to.
export interface EmergencyDetails {
  grantId: string;
  event: EmergencyEvent;
  accessLevel: AccessLevel;
  reason: string;
  durationMinutes: number;
  read?: string; // for 'read' events: what was read, e.g. 'health overview and 5 recent records'
}

// A medical record as stored in a block's data. blockchainHash is not part of the hashed data
// (it is the hash of the block that holds it); views add it, see MedicalRecord.
export interface ChainRecord {
  id: string;
  patientId: string;
  doctorId: string;
  type: RecordType;
  title: string;
  description: string;
  fileName: string; // first file's name ('' when none)
  fileUrl: string; // first file's document url: 'ipfs://<Qm…>' ('' when none)
  documentIds: string[]; // every stored file of this record (D6)
  timestamp: string; // ISO 8601
  isEmergencyAccess?: boolean;
  emergencyAccessExpiry?: string; // ISO 8601
  emergency?: EmergencyDetails;
}

export interface Block {
  id: string; // the chain index as text
  hash: string; // 64 hex digits (SHA-256 of the header)
  previousHash: string;
  timestamp: string; // ISO 8601
  dataHash: string; // SHA-256 hex of data's canonical JSON, part of the mined header: lets verification tell a changed record from a changed header
  data: ChainRecord;
  nonce: number;
}

// The stored document's metadata (SEED.md section 3). The encrypted bytes live beside it.
export interface StoredDocument {
  id: string;
  fileName: string;
  fileType: string;
  fileSize: number; // bytes of the original file
  uploadDate: string; // ISO 8601
  ipfsHash: string; // CIDv0 of the encrypted bytes (D5)
  encryptionKey: string; // 64 hex: the AES-256 key (D4)
  patientId: string;
  doctorId: string;
  isEncrypted: boolean;
  deletedAt?: string; // set when the owning patient deleted the file; the record stays on the chain
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
