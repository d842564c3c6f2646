import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatNumber } from '../../src/components/format';

// The screens write dates and numbers in the browser's locale (tests/e2e/locale.test.ts shows German in Chromium);
// here Node's own locale, read the same way.
describe('display formats', () => {
  it("writes a date as the runtime's locale does, in local time", () => {
    const expected = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
    expect(formatDate('2026-11-27T12:00:00')).toBe(expected.format(new Date('2026-11-27T12:00:00')));
  });

  it('throws on a time value that is not one, as Intl does', () => {
    expect(() => formatDate('not a date')).toThrow(RangeError);
  });

  it('writes sizes with one decimal and counts with the locale grouping', () => {
    const number = new Intl.NumberFormat();
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe(`${new Intl.NumberFormat(undefined, { minimumFractionDigits: 1 }).format(1.5)} KB`);
    expect(formatNumber(1234567)).toBe(number.format(1234567));
  });
});
