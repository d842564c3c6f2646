import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime } from '../../src/components/format';

// The screens' dates are written by hand (src/components/format.ts keeps Intl, and ICU's start, off the first
// screens): they must read exactly as Intl.DateTimeFormat('en-US') writes them, in the local time zone.
const intl = {
  date: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }),
  dateTime: new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }),
  time: new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }),
};

// every month, both halves of the day, midnight and noon, single- and double-digit days, hours and minutes
const instants = [
  '2026-11-27T00:05:00',
  '2026-11-27T12:00:00',
  '2026-11-27T12:59:59',
  '2026-01-01T09:07:00',
  '2025-02-28T23:59:00',
  '2024-02-29T13:30:00',
  ...Array.from(
    { length: 12 },
    (_, month) => `2026-${String(month + 1).padStart(2, '0')}-15T${String(month * 2).padStart(2, '0')}:4${month % 10}:00`,
  ),
  '2026-03-08T10:15:30.000Z', // stored timestamps are UTC ISO strings: shown in local time
  '1988-04-12', // a date of birth: a date only, which Date reads as UTC midnight
];

describe('dates in US English, by hand', () => {
  it.each(instants)('%s reads as Intl writes it', (iso) => {
    const instant = new Date(iso);
    expect(formatDate(iso)).toBe(intl.date.format(instant));
    expect(formatDateTime(iso)).toBe(intl.dateTime.format(instant));
    expect(formatTime(iso)).toBe(intl.time.format(instant));
  });

  it('a time value that is not one throws, as Intl does', () => {
    expect(() => intl.date.format(new Date('not a date'))).toThrow(RangeError);
    expect(() => formatDate('not a date')).toThrow(RangeError);
    expect(() => formatDateTime('')).toThrow(RangeError);
    expect(() => formatTime('2026-13-45')).toThrow(RangeError);
  });
});
