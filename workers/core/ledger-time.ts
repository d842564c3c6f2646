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
// so every date operation on it is safe.
function isIsoTime(value: unknown, firstYear: number): value is string {
  if (typeof value !== 'string' || value.length !== ISO_LENGTH) return false;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return false;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  return year >= firstYear && year <= LAST_YEAR && date.toISOString() === value;
}

// A block's time, a grant's or a share's end.
export function isLedgerTime(value: unknown): value is string {
  return isIsoTime(value, FIRST_LEDGER_YEAR);
}

// A document's own date, from before it reached the chain (an imported record's).
export function isDocumentDate(value: unknown): value is string {
  return isIsoTime(value, 1);
}
