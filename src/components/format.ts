// Display formats shared by the screens (US English, the product's language).

// US English dates by hand, in local time, as Intl.DateTimeFormat('en-US') writes them ("Nov 27, 2026",
// "Nov 27, 2026, 3:05 PM", "3:05 PM"; tests/unit/format.test.ts holds them to it): a page's first use of Intl
// starts ICU, 15-19 ms on the main thread unthrottled (Chromium 150): it ran in the login's longest task after its
// first paint, and on every dashboard.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function localDate(iso: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid time value: ${iso}`); // as Intl's format
  return date;
}

const day = (date: Date) => `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
const clock = (date: Date) =>
  `${date.getHours() % 12 || 12}:${String(date.getMinutes()).padStart(2, '0')} ${date.getHours() < 12 ? 'AM' : 'PM'}`;

export function formatDate(iso: string): string {
  return day(localDate(iso));
}

export function formatDateTime(iso: string): string {
  const date = localDate(iso);
  return `${day(date)}, ${clock(date)}`;
}

export function formatTime(iso: string): string {
  return clock(localDate(iso));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
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
