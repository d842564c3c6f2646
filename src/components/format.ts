// Display formats shared by the screens: dates and numbers in the browser's own locale (Intl).

// Formatters are made once: toLocaleString with options builds a new one on every call (slow in a list of 1,000).
const DATE = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const TIME = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const NUMBER = new Intl.NumberFormat();
const ONE_DECIMAL = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function formatDate(iso: string): string {
  return DATE.format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}

const UTC_DATE = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

// An imported document's own date: a date without a time (stored as midnight UTC) is shown as that day, anywhere.
export function formatDocumentDate(iso: string): string {
  return iso.endsWith('T00:00:00.000Z') ? UTC_DATE.format(new Date(iso)) : DATE_TIME.format(new Date(iso));
}

export function formatTime(iso: string): string {
  return TIME.format(new Date(iso));
}

export function formatNumber(value: number): string {
  return NUMBER.format(value);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${NUMBER.format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${ONE_DECIMAL.format(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${ONE_DECIMAL.format(bytes / (1024 * 1024))} MB`;
  return `${ONE_DECIMAL.format(bytes / (1024 * 1024 * 1024))} GB`;
}

const HOUR_S = 3600;

const twoDigits = (value: number) => String(value).padStart(2, '0');

// mm:ss up to an hour (60:00, the countdown's minutes and seconds), h:mm:ss over it (3:59:59, not 239:59);
// rounded up so 00:00 shows only once the time is really over.
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  if (total > HOUR_S)
    return `${Math.floor(total / HOUR_S)}:${twoDigits(Math.floor((total % HOUR_S) / 60))}:${twoDigits(total % 60)}`;
  return `${twoDigits(Math.floor(total / 60))}:${twoDigits(total % 60)}`;
}

// What the countdown's digits mean at this time left.
export function remainingUnits(ms: number): string {
  return ms > HOUR_S * 1000 ? 'hours:minutes:seconds' : 'minutes:seconds';
}

// A session's length in words: "45 min", "2 h", "1 h 5 min", "less than a minute"; whole minutes, never rounded up
// (40 s is not "1 min").
export function formatDuration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
