import { formatDateTime } from './format';

// When a share ends: a date, or "Until revoked" for a share without one.
export function ShareExpiry({ expiresAt }: { expiresAt: string | null }) {
  return expiresAt === null ? <>Until revoked</> : <time dateTime={expiresAt}>{formatDateTime(expiresAt)}</time>;
}
