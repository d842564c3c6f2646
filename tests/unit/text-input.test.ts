// Issue 12 item 7: one rule per text input (NFC, trimmed, no hidden control or direction characters, a
// stated limit), the same words in the worker and on screen.
import { describe, expect, it, vi } from 'vitest';
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_FILE_NAME_LENGTH,
  MAX_REASON_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_TAMPER_TITLE_LENGTH,
  MAX_TITLE_LENGTH,
} from '../../workers/core/constants';
import { validateUploadFile } from '../../workers/core/documents';
import { checkFileName, checkText, foldForSearch, storedFileType, type TextField } from '../../workers/core/text-input';
import { checkFile, rejectionMessage } from '../../src/features/upload/check-file';

const NFD_CAFE = 'Cafe\u0301 visit'; // "Café visit" with a combining accent
const NFC_CAFE = 'Caf\u00E9 visit';

describe('every text field', () => {
  const fields: [TextField, string, number][] = [
    ['title', 'title', MAX_TITLE_LENGTH],
    ['description', 'description', MAX_DESCRIPTION_LENGTH],
    ['reason', 'reason', MAX_REASON_LENGTH],
    ['tamperTitle', 'new title', MAX_TAMPER_TITLE_LENGTH],
    ['search', 'search', MAX_SEARCH_LENGTH],
  ];

  it.each(fields)('%s: is NFC-normalised and trimmed, and accepted at exactly its limit', (field, _what, max) => {
    expect(checkText(field, `  ${NFD_CAFE}\t `)).toEqual({ text: NFC_CAFE, problem: null, blank: false });
    expect(checkText(field, 'x'.repeat(max)).problem).toBeNull();
  });

  it.each(fields)(
    '%s: counts its limit after normalising, and refuses one character more naming the field',
    (field, what, max) => {
      expect(checkText(field, 'e\u0301'.repeat(max)).problem).toBeNull(); // max NFD pairs are max characters once composed
      expect(checkText(field, ` ${'x'.repeat(max + 1)} `).problem).toBe(`The ${what} is longer than ${max} characters.`);
    },
  );

  it.each(fields)(
    '%s: refuses a right-to-left override, an isolate and a bell, naming the field and the character',
    (field, what) => {
      expect(checkText(field, 'Blood\u202Etest').problem).toBe(
        `The ${what} contains a hidden control or text-direction character (U+202E).`,
      );
      expect(checkText(field, 'a\u2066b\u2069').problem).toBe(
        `The ${what} contains a hidden control or text-direction character (U+2066).`,
      );
      expect(checkText(field, 'ring\u0007').problem).toBe(
        `The ${what} contains a hidden control or text-direction character (U+0007).`,
      );
      expect(checkText(field, 'c1\u0085').problem).toBe(
        `The ${what} contains a hidden control or text-direction character (U+0085).`,
      );
    },
  );

  it('keeps right-to-left text, emoji with joiners and left-to-right marks: they are not controls', () => {
    for (const text of ['تقرير الدم – בדיקת דם', '👩🏽‍⚕️ check', 'abc\u200Fdef', '<b>Bold</b> & "quotes"']) {
      expect(checkText('title', text)).toEqual({ text, problem: null, blank: false });
    }
  });

  it('lets the description and the reason (both text areas) keep line breaks and tabs, and reads CR LF as one line break', () => {
    expect(checkText('description', 'line one\r\n\tline two')).toEqual({
      text: 'line one\n\tline two',
      problem: null,
      blank: false,
    });
    expect(checkText('reason', 'Unconscious\nallergy check').problem).toBeNull();
    expect(checkText('title', 'line one\nline two').problem).toBe(
      'The title contains a hidden control or text-direction character (U+000A).',
    );
    expect(checkText('search', 'a\tb').problem).toBe(
      'The search contains a hidden control or text-direction character (U+0009).',
    );
  });

  it('refuses a title, reason or new title that is empty once zero-width characters and spaces are gone; an empty description or search is fine', () => {
    const invisible = ' \u200B\u200C\u200D\uFEFF\u2060 \u00A0';
    expect(checkText('title', invisible)).toMatchObject({ problem: 'Enter a title.', blank: true });
    expect(checkText('reason', invisible)).toMatchObject({ problem: 'Enter a reason for emergency access.', blank: true });
    expect(checkText('tamperTitle', invisible)).toMatchObject({ problem: 'Enter a new title.', blank: true });
    expect(checkText('description', '')).toEqual({ text: '', problem: null, blank: true });
    expect(checkText('search', '   ')).toEqual({ text: '', problem: null, blank: true });
    expect(checkText('title', '\u200Bx').problem).toBeNull(); // one visible character is enough
  });

  it('refuses a 20-million-character text without normalising it (the cost stays with the limit)', () => {
    const normalize = vi.spyOn(String.prototype, 'normalize');
    try {
      expect(checkText('tamperTitle', 'x'.repeat(20_000_000)).problem).toBe('The new title is longer than 200 characters.');
      expect(normalize).not.toHaveBeenCalled();
    } finally {
      normalize.mockRestore();
    }
  });
});

describe('a file name', () => {
  it('is NFC-normalised and trimmed', () => {
    expect(checkFileName('  Re\u0301sume\u0301.pdf ')).toEqual({ name: 'R\u00E9sum\u00E9.pdf', problem: null });
  });

  it(`is accepted at ${MAX_FILE_NAME_LENGTH} characters and refused at one more, quoted cut short`, () => {
    const exact = `${'n'.repeat(MAX_FILE_NAME_LENGTH - 4)}.pdf`;
    expect(checkFileName(exact).problem).toBeNull();
    const over = `${'n'.repeat(MAX_FILE_NAME_LENGTH - 3)}.pdf`;
    expect(checkFileName(over).problem).toEqual({
      name: `${'n'.repeat(60)}…`,
      reason: `has a name longer than ${MAX_FILE_NAME_LENGTH} characters`,
    });
  });

  it('with a right-to-left override is refused, the hidden character shown in the quoted name', () => {
    expect(checkFileName('invoice\u202Efdp.exe').problem).toEqual({
      name: 'invoice[U+202E]fdp.exe',
      reason: 'has a hidden control or text-direction character in its name',
    });
    expect(checkFileName('scan\u0000.pdf').problem?.name).toBe('scan[U+0000].pdf');
  });

  it('of only spaces or zero-width characters counts as no name', () => {
    expect(checkFileName('\u200B\u200B ').problem).toEqual({ name: '', reason: 'A file without a name cannot be uploaded' });
  });

  const cases: { name: string; type: string; size: number }[] = [
    { name: 'invoice\u202Efdp.exe', type: '', size: 10 },
    { name: 'scan\u202E.pdf', type: 'application/pdf', size: 10 },
    { name: `${'n'.repeat(MAX_FILE_NAME_LENGTH)}.pdf`, type: 'application/pdf', size: 10 },
    { name: '\u200B', type: 'application/pdf', size: 10 },
    { name: '  spaced.pdf  ', type: 'application/pdf', size: 10 },
    { name: 'Re\u0301sume\u0301.exe', type: '', size: 10 },
    { name: 'shout.pdf', type: 'APPLICATION/PDF; x=<b>', size: 10 },
  ];

  it.each(cases)('gets the same words from the screen and the worker: $name', (file) => {
    const early = checkFile(file);
    const worker = validateUploadFile({ name: file.name, type: file.type, bytes: new ArrayBuffer(file.size) });
    expect(early && rejectionMessage(early)).toBe(worker);
  });
});

describe("a file's MIME type", () => {
  it('is stored as its lower-case essence, without parameters', () => {
    expect(storedFileType('scan.pdf', 'APPLICATION/PDF; x=<b>')).toBe('application/pdf');
    expect(storedFileType('photo.JPG', ' Image/JPEG ')).toBe('image/jpeg');
  });

  it("is the extension's usual type when the browser gives none or a generic one", () => {
    expect(storedFileType('scan.pdf', '')).toBe('application/pdf');
    expect(storedFileType('photo.png', 'application/octet-stream')).toBe('image/png');
  });
});

describe('search text', () => {
  it('folds NFD and NFC, upper and lower case to the same text', () => {
    expect(foldForSearch(NFD_CAFE.toUpperCase())).toBe(foldForSearch(NFC_CAFE));
    expect(foldForSearch(NFC_CAFE)).toBe('caf\u00E9 visit');
  });
});
