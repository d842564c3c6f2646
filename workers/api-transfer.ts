// The worker API's types of records that leave with the patient (docs/decisions/fhir-portability.md,
// backup-file.md, restore-merges.md), kept beside workers/api.ts, which re-exports them.
import type { UploadRecordType } from './core/types';

export interface ExportOptions {
  withFiles: boolean; // false: attachments carry name, type, size and date, not the bytes
}

// A file made in the worker, in parts (each transferred): the page joins them into one Blob to download.
export interface ExportedFile {
  fileName: string;
  mimeType: string;
  parts: ArrayBuffer[];
  size: number; // bytes, all parts together
}

export interface TransferProgress {
  jobId: string;
  done: number; // files (or records) handled
  total: number;
  bytes: number; // bytes of files handled so far
}

export interface ImportResult {
  imported: { title: string; type: UploadRecordType; files: number; blockIndex: number }[];
  skipped: { entry: number; resourceType: string; reason: string; title?: string }[]; // never dropped silently: the screen lists them
  healthOverview?: ImportedOverview; // when the Bundle holds any of it
  needsConfirmation?: true; // nothing stored: the Bundle is about otherPatient, and the patient has not confirmed importing it
  otherPatient?: { name: string; birthDate?: string }; // with needsConfirmation: the Bundle's Patient (birthDate as FHIR gives it)
}

// The Health Overview a Bundle carries. The profile is the clinic's (the user directory): an import reads it, never changes it.
export interface ImportedOverview {
  allergies: string[];
  bloodType?: string;
  emergencyContact?: string; // one line: "Mark Johnson (spouse) +1 555 0142"
  matchesProfile: boolean; // every value the file gives is the profile's
}

export interface ImportOptions {
  otherPatientConfirmed?: boolean; // the patient confirmed the warning naming the Bundle's other patient
}

export interface LedgerCounts {
  blocks: number;
  records: number; // medical records of every patient
  files: number; // stored (not deleted) files
  accessEvents: number; // emergency accesses and shares, with their reads
}

// 'mine': every block's header, and the records, files and key its maker may read; 'browser': everything
// this browser holds (patients only). docs/decisions/restore-merges.md
export type BackupScope = 'mine' | 'browser';

// What a checked backup would do: nothing is written until confirmRestore.
export interface RestorePlan {
  planId: string;
  createdAt: string; // when the backup was made
  scope: BackupScope;
  mode: 'merge' | 'replace'; // merge: adds the backup's later blocks of this ledger; replace: a new browser's untouched ledger gives way
  adds: LedgerCounts; // what this browser gains (files: whose bytes the backup brings)
  deletesFiles: number; // files this browser holds whose deletion the added blocks record
  current: LedgerCounts;
}
