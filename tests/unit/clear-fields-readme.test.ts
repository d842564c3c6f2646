// The README's list of what stays in clear is the record kinds' own (workers/core/records/): one line per field, with why.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLEAR_KINDS } from '../../workers/core/records/kinds';
import { GRANT_DETAILS } from '../../workers/core/records/emergency';
import { SHARE_DETAILS } from '../../workers/core/records/share';
import { FILE, UPLOAD } from '../../workers/core/records/upload';

// the kinds sealing takes field by field: every field they do not list as clear is sealed
const SEALED_BY_DEFAULT = new Set([UPLOAD, FILE, GRANT_DETAILS, SHARE_DETAILS]);

const README = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
const START = '<!-- clear fields: from workers/core/records/, held equal by tests/unit/clear-fields-readme.test.ts -->';
const END = '<!-- end of clear fields -->';

// What the README says between its markers, as the modules would write it.
function clearFieldsMarkdown(): string {
  return CLEAR_KINDS.flatMap(({ name, kind }) => [
    `- ${name}:`,
    ...Object.entries(kind.clear).map(([field, why]) => `  - \`${field}\`: ${why}`),
  ]).join('\n');
}

describe('the README on what stays in clear', () => {
  it('lists exactly the clear fields each record kind’s module lists, with why', () => {
    const listed = README.slice(README.indexOf(START) + START.length, README.indexOf(END)).trim();
    expect(README.indexOf(START)).toBeGreaterThan(0);
    expect(listed).toBe(clearFieldsMarkdown().trim());
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
