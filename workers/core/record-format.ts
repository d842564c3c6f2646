// The shape of every kind of block record: a stored block whose data has a missing field, a wrong type or
// a value JSON cannot hold is a bad block, named like any other failed check, never an exception. Every value
// a rule or a screen reads is checked here first: times are times iso() writes, numbers whole and in range,
// text bounded, so no date, number or string operation on stored data can throw.
import { isEncryptionPublicKey } from './key-wraps';
import { isLedgerTime } from './ledger-time';
import { BASE, FILE, UPLOAD } from './records/upload';
import { count, listOf, nonEmpty, oneOf, optional, shapeProblem, shaped, text, type Shape } from './records/shape';
import { isReaderSealed, isSealedPart } from './sealed-parts';
import type { ChainRecord } from './types';

const ED25519_PUBLIC_KEY = /^[A-Za-z0-9+/]{43}=$/; // 32 bytes in base64
const BLOCK_HASH = /^[0-9a-f]{64}$/;

const publicKey = (value: unknown) => typeof value === 'string' && ED25519_PUBLIC_KEY.test(value);

const EMERGENCY: Shape = {
  grantId: nonEmpty,
  event: oneOf('granted', 'read', 'ended', 'expired'),
  accessLevel: oneOf('basic', 'full'),
  reason: text,
  durationMinutes: count,
  read: optional(text),
  documentId: optional(nonEmpty),
  endedBy: optional(oneOf('patient')),
  sealedReason: optional(isReaderSealed),
};

const SHARE: Shape = {
  shareId: nonEmpty,
  event: oneOf('shared', 'revoked', 'read'),
  accessLevel: oneOf('basic', 'full'),
  durationDays: count,
  expiresAt: (value) => value === '' || isLedgerTime(value),
  note: text,
  read: optional(text),
  documentId: optional(nonEmpty),
  sealedNote: optional(isReaderSealed),
};

const keyTable = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(publicKey);

const encryptionTable = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(isEncryptionPublicKey);

const booleanTable = (value: unknown) =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every((on) => typeof on === 'boolean');
const ENROLMENT: Shape = {
  algorithm: oneOf('Ed25519'),
  ledger: publicKey,
  users: keyTable,
  encryption: optional(encryptionTable),
};

const SHAPES: Record<ChainRecord['type'], Shape> = {
  diagnosis: {
    ...BASE,
    type: text,
    files: listOf(shaped(FILE.shape)),
    enrolment: optional(shaped(ENROLMENT)),
    setupConsents: optional(booleanTable),
  },
  prescription: UPLOAD.shape,
  test_report: UPLOAD.shape,
  emergency_access: {
    ...BASE,
    type: text,
    isEmergencyAccess: (value) => value === true,
    emergencyAccessExpiry: isLedgerTime,
    emergency: shaped(EMERGENCY),
  },
  document_deleted: { ...BASE, type: text, documentId: nonEmpty },
  access_acknowledged: { ...BASE, type: text, grantIds: listOf(nonEmpty) },
  access_shared: { ...BASE, type: text, share: shaped(SHARE) },
  care_consent: { ...BASE, type: text, careNetwork: (value) => typeof value === 'boolean' },
  resealed: {
    ...BASE,
    type: text,
    supersedes: nonEmpty,
    supersedesBlock: (value) => typeof value === 'string' && BLOCK_HASH.test(value),
    sealed: isSealedPart,
    fileParts: listOf(shaped({ documentId: nonEmpty, sealed: isSealedPart })),
  },
};

// null when `data` is a well-formed record of a known kind, else what is wrong with it.
export function recordProblem(data: unknown): string | null {
  const type = (data as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !Object.hasOwn(SHAPES, type)) return 'record is malformed (unknown record type)';
  const problem = shapeProblem(data, SHAPES[type as ChainRecord['type']]);
  return problem === null ? null : `record is malformed (it ${problem})`;
}

const QUOTED_LENGTH = 60; // characters of a stored text a message quotes

// A stored value as a message quotes it, calling nothing of it (String() of {"toString": 1} throws).
export function storedValueText(value: unknown): string {
  if (typeof value === 'string') return value.length > QUOTED_LENGTH ? `${value.slice(0, QUOTED_LENGTH)}…` : value;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}
