// The shape of every kind of block record: a stored block whose data has a missing field, a wrong type or
// a value JSON cannot hold is a bad block, named like any other failed check, never an exception. Every value
// a rule or a screen reads is checked here first: times are times iso() writes, numbers whole and in range,
// text bounded, so no date, number or string operation on stored data can throw.
import { MAX_DESCRIPTION_LENGTH } from './constants';
import { isEncryptionPublicKey } from './key-wraps';
import { isDocumentDate, isLedgerTime } from './ledger-time';
import { isReaderSealed, isSealedPart } from './sealed-fields';
import type { ChainRecord } from './types';

type Shape = Record<string, (value: unknown) => boolean>;

// The longest text a rule reads: a description, which may be 10 times its limit before NFC (text-input.ts).
const MAX_STORED_TEXT = 10 * MAX_DESCRIPTION_LENGTH;
const ED25519_PUBLIC_KEY = /^[A-Za-z0-9+/]{43}=$/; // 32 bytes in base64
const BLOCK_HASH = /^[0-9a-f]{64}$/;

const text = (value: unknown) => typeof value === 'string' && value.length <= MAX_STORED_TEXT;
const nonEmpty = (value: unknown) => text(value) && value !== '';
// -0 is refused: canonical JSON writes it as 0, so it would hash like the 0 that was mined
const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0 && !Object.is(value, -0);
const publicKey = (value: unknown) => typeof value === 'string' && ED25519_PUBLIC_KEY.test(value);
const oneOf =
  (...values: string[]) =>
  (value: unknown) =>
    typeof value === 'string' && values.includes(value);
const optional = (check: (value: unknown) => boolean) => (value: unknown) => value === undefined || check(value);
const listOf = (check: (value: unknown) => boolean) => (value: unknown) =>
  Array.isArray(value) && value.every((item) => check(item));
const shaped = (shape: Shape) => (value: unknown) => shapeProblem(value, shape) === null;

const BASE: Shape = {
  id: nonEmpty,
  patientId: text,
  doctorId: text,
  title: text,
  description: text,
  timestamp: isLedgerTime,
};

// a sealed file's name is '' in clear (docs/decisions/nothing-medical-in-clear.md); a clear one's is checked by the rules
const FILE: Shape = {
  documentId: nonEmpty,
  name: text,
  type: text,
  size: count,
  cid: nonEmpty,
  sealed: optional(isSealedPart),
};

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

// the genesis stays in clear (sealClinicalRecord refuses it): only uploads carry a sealed part
const UPLOAD: Shape = {
  ...BASE,
  type: text,
  files: listOf(shaped(FILE)),
  documentDate: optional(isDocumentDate),
  sealed: optional(isSealedPart),
};

const SHAPES: Record<ChainRecord['type'], Shape> = {
  diagnosis: {
    ...BASE,
    type: text,
    files: listOf(shaped(FILE)),
    enrolment: optional(shaped(ENROLMENT)),
    setupConsents: optional(booleanTable),
  },
  prescription: UPLOAD,
  test_report: UPLOAD,
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

// Each shape's checks listed once: every block's record is checked against one or more shapes.
const shapeEntries = new WeakMap<Shape, [string, (value: unknown) => boolean][]>();
function entriesOf(shape: Shape): [string, (value: unknown) => boolean][] {
  let entries = shapeEntries.get(shape);
  if (!entries) shapeEntries.set(shape, (entries = Object.entries(shape)));
  return entries;
}

// Exactly the shape's keys (optional ones may be absent), each passing its check.
function shapeProblem(value: unknown, shape: Shape): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'is not an object';
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!Object.hasOwn(shape, key)) return `has an unknown field "${key}"`;
  for (const [key, check] of entriesOf(shape)) {
    if (!check(record[key])) return record[key] === undefined ? `has no "${key}"` : `has a malformed "${key}"`;
  }
  return null;
}

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
