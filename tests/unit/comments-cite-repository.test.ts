// Comments point at files of the repository: none cites a document kept elsewhere (the product spec, its list of
// decisions, or a decision number), so a reader can follow every reason the code gives.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs|js|css)$/.test(name) ? [path] : [];
  });
}

// Line and block comments: a `//` after a quote or a colon (a URL) is not counted.
const COMMENT = /(?:^|[^:'"`\\])\/\/(.*)$|\/\*([\s\S]*?)\*\//gm;
const CITES_OUTSIDE_DOCUMENT = /\bSEED\b|\bDECISIONS\b|\bD\d{1,3}\b/;

describe('comments', () => {
  it('cite no document outside the repository (the spec, its decisions or a decision number) in src, workers and tests', () => {
    const citing = ['src', 'workers', 'tests'].flatMap((dir) =>
      sourceFiles(join(ROOT, dir)).flatMap((path) => {
        if (path === import.meta.filename) return []; // its own sample below cites on purpose
        const text = readFileSync(path, 'utf8');
        return [...text.matchAll(COMMENT)]
          .map((match) => (match[1] ?? match[2] ?? '').trim())
          .filter((comment) => CITES_OUTSIDE_DOCUMENT.test(comment))
          .map((comment) => `${relative(ROOT, path)}: ${comment}`);
      }),
    );
    expect(citing).toEqual([]);
  });

  it('are found by the check when they do cite one', () => {
    // the citations are spelled in parts so this file's own lines cite nothing
    const [spec, decision] = ['SE' + 'ED', 'D' + '21'];
    const sample = `const a = 1; // as ${spec}'s countdown\n/* ${decision}: sync */\nconst url = 'https://example.com'; // fine`;
    const found = [...sample.matchAll(COMMENT)].map((m) => (m[1] ?? m[2] ?? '').trim());
    expect(found.filter((comment) => CITES_OUTSIDE_DOCUMENT.test(comment))).toEqual([
      `as ${spec}'s countdown`,
      `${decision}: sync`,
    ]);
  });
});
