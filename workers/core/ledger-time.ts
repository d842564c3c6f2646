// The ledger's times: ISO 8601 text in UTC, as every block stores them, and the ends of grants and shares.
// Pure, and imported by both the record builders (ledger-records.ts) and the chain's rules (chain-rules.ts).

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

// When a grant started at `at` (ms) ends: the service writes it, the chain's rules check it.
export function grantExpiresAt(at: number, durationMinutes: number): string {
  return iso(at + durationMinutes * MINUTE_MS);
}

// When a share made at `at` (ms) ends; null: until revoked (0 days).
export function shareExpiresAt(at: number, durationDays: number): string | null {
  return durationDays === 0 ? null : iso(at + durationDays * DAY_MS);
}

const LAST_YEAR = 9999; // every time up to here is 24 characters of ISO 8601 and stays a Date after any duration is added
const FIRST_LEDGER_YEAR = 2000; // no block of MedLedger was written before
const ISO_LENGTH = 24; // YYYY-MM-DDTHH:mm:ss.sssZ

// True when `value` is a time as iso() writes it, in years `firstYear` to 9999: it reads back to the same text,
// so every date operation on it is safe. Read digit by digit (the same answer as Date.parse and toISOString, which
// cost about a microsecond per time: every block checks one or two).
function isIsoTime(value: unknown, firstYear: number): value is string {
  if (typeof value !== 'string' || value.length !== ISO_LENGTH) return false;
  for (let i = 0; i < ISO_LENGTH; i++) {
    const code = value.charCodeAt(i);
    if (code !== ISO_SHAPE.charCodeAt(i) && !(ISO_SHAPE[i] === '9' && code >= 48 && code <= 57)) return false;
  }
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  return (
    year >= firstYear &&
    year <= LAST_YEAR &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    digitsAt(value, 11, 2) <= 23 &&
    digitsAt(value, 14, 2) <= 59 &&
    digitsAt(value, 17, 2) <= 59
  );
}

const ISO_SHAPE = '9999-99-99T99:99:99.999Z'; // 9: any digit, else that very character

function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// The proleptic Gregorian calendar, as Date keeps it.
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return MONTH_DAYS[month - 1];
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

// A block's time, a grant's or a share's end.
export function isLedgerTime(value: unknown): value is string {
  return isIsoTime(value, FIRST_LEDGER_YEAR);
}

// A document's own date, from before it reached the chain (an imported record's).
export function isDocumentDate(value: unknown): value is string {
  return isIsoTime(value, 1);
}
