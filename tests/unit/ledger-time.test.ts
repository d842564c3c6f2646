import { describe, expect, it } from 'vitest';
import { isDocumentDate, isLedgerTime } from '../../workers/core/ledger-time';

// What the digit-by-digit check stands for: the text is a Date's ISO 8601 text, read back unchanged.
function readsBackUnchanged(value: string, firstYear: number): boolean {
  if (value.length !== 24) return false;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return false;
  const date = new Date(ms);
  return date.getUTCFullYear() >= firstYear && date.getUTCFullYear() <= 9999 && date.toISOString() === value;
}

const EDGES = [
  '2024-02-29T12:00:00.000Z',
  '2023-02-29T12:00:00.000Z',
  '2000-02-29T00:00:00.000Z',
  '2100-02-29T00:00:00.000Z',
  '1900-02-29T00:00:00.000Z',
  '2025-04-31T00:00:00.000Z',
  '2025-12-31T23:59:59.999Z',
  '2025-13-01T00:00:00.000Z',
  '2025-00-10T00:00:00.000Z',
  '2025-01-00T00:00:00.000Z',
  '2025-01-01T24:00:00.000Z',
  '2025-01-01T23:60:00.000Z',
  '2025-01-01T23:00:60.000Z',
  '1999-12-31T23:59:59.999Z',
  '0000-01-01T00:00:00.000Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '2025-01-01T00:00:00.000+',
  '2025-01-01 00:00:00.000Z',
  '2025-01-01T00:00:00,000Z',
  '+02025-01-01T00:00:00.00Z',
  '2025-1-01T00:00:00.0000Z',
  '２０２５-01-01T00:00:00.000Z',
];

describe('ledger times', () => {
  it('accepts exactly the texts a Date writes and reads back, at the edges of the calendar', () => {
    for (const value of EDGES) {
      expect(isLedgerTime(value), value).toBe(readsBackUnchanged(value, 2000));
      expect(isDocumentDate(value), value).toBe(readsBackUnchanged(value, 1));
    }
  });

  it('accepts exactly the texts a Date writes and reads back, for times with one character changed', () => {
    let seed = 44;
    const random = (below: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % below;
    const characters = '0123456789-:.TZ+ ';
    for (let i = 0; i < 20_000; i++) {
      const time = new Date(Date.UTC(1990, 0, 1) + random(2 ** 31) * 60_000 + random(86_400_000)).toISOString();
      const at = random(24);
      const value = time.slice(0, at) + characters[random(characters.length)] + time.slice(at + 1);
      expect(isLedgerTime(value), value).toBe(readsBackUnchanged(value, 2000));
      expect(isDocumentDate(value), value).toBe(readsBackUnchanged(value, 1));
    }
  });

  it('refuses what is not text', () => {
    for (const value of [undefined, null, 0, Date.UTC(2025, 0, 1), ['2025-01-01T00:00:00.000Z'], {}]) {
      expect(isLedgerTime(value)).toBe(false);
      expect(isDocumentDate(value)).toBe(false);
    }
  });
});
