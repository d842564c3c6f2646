// The README's list of what stays in clear, and docs/security.md's with why, are the record kinds' own (workers/core/records/).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLEAR_KINDS } from '../../workers/core/records/kinds';
import { GRANT_DETAILS } from '../../workers/core/records/emergency';
import { SHARE_DETAILS } from '../../workers/core/records/share';
import { FILE, UPLOAD } from '../../workers/core/records/upload';

// the kinds sealing takes field by field: every field they do not list as clear is sealed
const SEALED_BY_DEFAULT = new Set([UPLOAD, FILE, GRANT_DETAILS, SHARE_DETAILS]);

const read = (path: string) => readFileSync(join(import.meta.dirname, '../..', path), 'utf8');
const START = '<!-- clear fields: from workers/core/records/, held equal by tests/unit/clear-fields-readme.test.ts -->';
const END = '<!-- end of clear fields -->';

// What a file says between its markers.
function listedIn(text: string): string {
  expect(text.indexOf(START)).toBeGreaterThan(0);
  return text.slice(text.indexOf(START) + START.length, text.indexOf(END)).trim();
}

describe('the docs on what stays in clear', () => {
  it('README: lists exactly the clear fields each record kind’s module lists, a line per kind', () => {
    const lines = CLEAR_KINDS.map(
      ({ name, kind }) =>
        `- ${name}: ${Object.keys(kind.clear)
          .map((field) => `\`${field}\``)
          .join(', ')}`,
    );
    expect(listedIn(read('README.md'))).toBe(lines.join('\n'));
  });

  it('docs/security.md: lists the same fields, each with the why its module gives', () => {
    const lines = CLEAR_KINDS.flatMap(({ name, kind }) => [
      `- ${name}:`,
      ...Object.entries(kind.clear).map(([field, why]) => `  - \`${field}\`: ${why}`),
    ]);
    expect(listedIn(read('docs/security.md'))).toBe(lines.join('\n'));
  });
});

describe('each record kind’s clear fields', () => {
  it('name only fields of its shape', () => {
    for (const { name, kind } of CLEAR_KINDS)
      expect({ name, stale: Object.keys(kind.clear).filter((field) => !Object.hasOwn(kind.shape, field)) }).toEqual({
        name,
        stale: [],
      });
  });

  // any other kind's new field must be listed as clear, with why, before a block can carry it
  it('cover every field of a kind whose sealing takes no field by default', () => {
    for (const { name, kind } of CLEAR_KINDS.filter(({ kind }) => !SEALED_BY_DEFAULT.has(kind)))
      expect({ name, unlisted: Object.keys(kind.shape).filter((field) => !Object.hasOwn(kind.clear, field)) }).toEqual({
        name,
        unlisted: [],
      });
  });
});
