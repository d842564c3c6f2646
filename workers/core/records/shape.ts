// The checks a record kind's shape is made of (record-format.ts runs them on every stored block), and what a kind
// declares about sealing: the fields it keeps in clear, each with why. Every other field of it is sealed.
import { MAX_DESCRIPTION_LENGTH } from '../constants';
import { isLedgerTime } from '../ledger-time';

export type Check = (value: unknown) => boolean;
export type Shape = Record<string, Check>;

// field -> why it stays in clear (what ordering, verification or access needs of it)
export type ClearFields = Readonly<Record<string, string>>;

// A kind of record, or of a part of one (an upload's file), as sealing reads it.
export interface SealedShape {
  shape: Shape; // every field it may have, each with its check
  clear: ClearFields; // the fields that stay in clear; sealing takes every other one
  opens?: Shape; // a sealed field's check as it opens, where it was sealed before its clear check held
}

// The longest text a rule reads: a description, which may be 10 times its limit before NFC (text-input.ts).
const MAX_STORED_TEXT = 10 * MAX_DESCRIPTION_LENGTH;

export const text: Check = (value) => typeof value === 'string' && value.length <= MAX_STORED_TEXT;
export const nonEmpty: Check = (value) => text(value) && value !== '';
// -0 is refused: canonical JSON writes it as 0, so it would hash like the 0 that was mined
export const count: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0 && !Object.is(value, -0);
export const oneOf =
  (...values: string[]): Check =>
  (value) =>
    typeof value === 'string' && values.includes(value);
export const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
export const listOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every((item) => check(item));
export const shaped =
  (shape: Shape): Check =>
  (value) =>
    shapeProblem(value, shape) === null;

// What every record carries (types.ts RecordBase).
export const BASE: Shape = {
  id: nonEmpty,
  patientId: text,
  doctorId: text,
  title: text,
  description: text,
  timestamp: isLedgerTime,
};

// Each shape's checks listed once: every block's record is checked against one or more shapes.
const shapeEntries = new WeakMap<Shape, [string, Check][]>();
function entriesOf(shape: Shape): [string, Check][] {
  let entries = shapeEntries.get(shape);
  if (!entries) shapeEntries.set(shape, (entries = Object.entries(shape)));
  return entries;
}

// Exactly the shape's keys (optional ones may be absent), each passing its check.
export function shapeProblem(value: unknown, shape: Shape): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'is not an object';
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!Object.hasOwn(shape, key)) return `has an unknown field "${key}"`;
  for (const [key, check] of entriesOf(shape)) {
    if (!check(record[key])) return record[key] === undefined ? `has no "${key}"` : `has a malformed "${key}"`;
  }
  return null;
}

// A field every record of the kind carries (its check refuses it absent): sealed, it stays in clear as ''.
export const requiredBy = (kind: SealedShape, key: string): boolean =>
  Object.hasOwn(kind.shape, key) && !kind.shape[key](undefined);

// The fields of `value` that stay in clear, and those sealing takes: every field `kind` does not list as clear.
export function splitSealed(
  kind: SealedShape,
  value: object,
): { clear: Record<string, unknown>; sealed: Record<string, unknown> } {
  const clear: Record<string, unknown> = {};
  const sealed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (Object.hasOwn(kind.clear, key)) clear[key] = item;
    else {
      sealed[key] = item;
      if (requiredBy(kind, key)) clear[key] = '';
    }
  }
  return { clear, sealed };
}

// The clear fields of `value` with the opened `fields` in place of the sealed ones, or null when a field every record
// of the kind carries did not open; a sealed field that fails its check is left out.
export function joinOpened(kind: SealedShape, value: object, fields: Record<string, unknown>): Record<string, unknown> | null {
  const joined: Record<string, unknown> = { ...value };
  delete joined.sealed;
  for (const [key, check] of entriesOf(kind.shape)) {
    if (Object.hasOwn(kind.clear, key)) continue;
    const opens = kind.opens?.[key] ?? check;
    if (fields[key] !== undefined && opens(fields[key])) joined[key] = fields[key];
    else if (requiredBy(kind, key)) return null;
    else delete joined[key];
  }
  return joined;
}

// Why a record said to be sealed is not: a field it does not list as clear holds something ('' where it must be carried).
export function clearTextIn(kind: SealedShape, value: object): boolean {
  return Object.entries(value).some(([key, item]) => !Object.hasOwn(kind.clear, key) && !(requiredBy(kind, key) && item === ''));
}
