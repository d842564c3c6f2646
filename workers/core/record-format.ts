// The shape check of every block record, each kind's shape from its module (records/): a stored block whose data has a missing field, a wrong type or
// a value JSON cannot hold is a bad block, named like any other failed check, never an exception. Every value
// a rule or a screen reads is checked here first: times are times iso() writes, numbers whole and in range,
// text bounded, so no date, number or string operation on stored data can throw.
import { KINDS } from './records/kinds';
import { shapeProblem } from './records/shape';

// null when `data` is a well-formed record of a known kind, else what is wrong with it.
export function recordProblem(data: unknown): string | null {
  const type = (data as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !Object.hasOwn(KINDS, type)) return 'record is malformed (unknown record type)';
  const problem = shapeProblem(data, KINDS[type as keyof typeof KINDS].shape);
  return problem === null ? null : `record is malformed (it ${problem})`;
}

const QUOTED_LENGTH = 60; // characters of a stored text a message quotes

// A stored value as a message quotes it, calling nothing of it (String() of {"toString": 1} throws).
export function storedValueText(value: unknown): string {
  if (typeof value === 'string') return value.length > QUOTED_LENGTH ? `${value.slice(0, QUOTED_LENGTH)}…` : value;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}
