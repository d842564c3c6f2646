// The product's constants, in one place for the worker and the UI.

export const DEMO_PASSWORD = 'demo123';
export const DIFFICULTY = 2; // leading zero hex digits of a records-chain block hash
export const SHORT_HASH_LENGTH = 8; // screens show the first 8 hex digits (docs/decisions/sha256-chain.md)

export const PATIENT_RECENT_RECORDS = 5;
export const DOCTOR_KEPT_RECORDS = 10;
export const DOCTOR_SHOWN_RECORDS = 5;
export const EMERGENCY_BASIC_RECORDS = 5;
export const RECORDS_PAGE_SIZE = 20; // records on one page of Medical Records and of a doctor's patient card

export const EMERGENCY_DURATIONS = [15, 30, 60, 120, 240] as const; // minutes
export const DEFAULT_EMERGENCY_DURATION = 60;

export const SHARE_DURATIONS_DAYS = [1, 7, 30, 0] as const; // 0: until revoked
export const MAX_SHARE_NOTE_LENGTH = 500; // characters of a share's note

export const UPLOAD_DELAY_MS = 1000;
export const GRANT_DELAY_MS = 1500;
export const SUCCESS_RESET_MS = 5000;

export const ACCEPTED_EXTENSIONS = ['.pdf', '.jpg', '.jpeg', '.png', '.doc', '.docx'] as const;
export const MAX_FILE_BYTES = 10 * 1024 * 1024; // 10 MB per file (docs/decisions/upload-checks.md)
export const MAX_FILES_PER_UPLOAD = 50; // files in one upload: one block, one IndexedDB write
export const MAX_TITLE_LENGTH = 200; // characters, after trimming
export const MAX_DESCRIPTION_LENGTH = 5000; // characters
export const MAX_REASON_LENGTH = 1000; // characters of an emergency access reason
export const MAX_FILE_NAME_LENGTH = 255; // characters of a file name, the usual file system limit
export const MAX_TAMPER_TITLE_LENGTH = MAX_TITLE_LENGTH; // characters of the explorer's tamper demo title
export const MAX_SEARCH_LENGTH = 200; // characters of a records or patient search

// The explorer's sandbox is held by three peers, each with its own copy of the chain.
export const SANDBOX_PEERS = ['A', 'B', 'C'] as const;
export type PeerName = (typeof SANDBOX_PEERS)[number];

// An anchor of the records chain: its tip and a short fingerprint of every block (docs/decisions/chain-anchor.md).
export const ANCHOR_FORMAT = 'medledger-anchor';
export const ANCHOR_VERSION = 1;
export const ANCHOR_FINGERPRINT_DIGITS = 8; // the last hex digits of each block hash
export const MAX_ANCHOR_CHARS = 2_000_000; // characters of an anchor's JSON: about 240,000 blocks

// Fixed sample dashboard figures (docs/decisions/true-dashboard-figures.md)
export const NEXT_APPOINTMENT = 'Feb 15';
export const HEALTH_SCORE = '92%';
export const APPOINTMENTS_TODAY = 8;
export const EMERGENCY_ALERTS = 2;
// Sample patients, named so that nobody takes them for an account of the ledger or a real person.
export const TODAYS_SCHEDULE = [
  { time: '09:00 AM', patient: 'Sample patient A', purpose: 'Follow-up consultation' },
  { time: '10:30 AM', patient: 'Sample patient B', purpose: 'Lab results review' },
  { time: '01:00 PM', patient: 'Sample patient C', purpose: 'Annual check-up' },
  { time: '03:30 PM', patient: 'Sample patient D', purpose: 'Post-operative review' },
] as const;

// Backups (docs/decisions/backup-file.md): the password's key is PBKDF2-SHA-256 with at least OWASP's 2023 count.
export const BACKUP_FORMAT = 'medledger-backup';
export const BACKUP_VERSION = 1;
export const BACKUP_ITERATIONS = 600_000;
export const MAX_BACKUP_ITERATIONS = 10_000_000; // a file asking for more is refused, not derived for minutes
export const MIN_BACKUP_PASSWORD_LENGTH = 8; // characters

export const MAX_CLOCK_AHEAD_MS = 5 * 60_000; // a block dated further after the verifier's clock is refused by the server and every device
export const FUTURE_TIP_TOLERANCE_MS = 10 * 60_000; // a newest block dated further ahead of the device clock is named, and writes wait
export const LEDGER_DB_NAME = 'medledger'; // the IndexedDB database of the ledger: the failure screen can delete it when the worker cannot
// `ipfs add`'s defaults (ipfs-add.ts): content ids and the backup's CAR size estimate (backup-file.ts) follow them
export const IPFS_CHUNK_BYTES = 262_144; // bytes of a leaf
export const IPFS_MAX_CHILDREN = 174; // links of a node
export const LEDGER_AUTHOR = 'ledger'; // system blocks (genesis, expiries) are signed by the ledger key
