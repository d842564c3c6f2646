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
