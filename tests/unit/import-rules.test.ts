import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../eslint.config.js';

const root = join(import.meta.dirname, '../..');
const fixtures = join(root, 'tests/lint-fixtures');

// The real eslint.config.js. A fixture is linted as the file its first line names, which does not exist,
// so the type-aware rules get it from TypeScript's default project instead of tsconfig.app.json / worker.json.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['src/features/*/lint-fixture.ts', 'workers/lint-fixture.ts', 'workers/*/lint-fixture.ts'],
          defaultProject: 'tsconfig.app.json',
        },
      },
    },
  },
});

async function lintFixture(name: string): Promise<{ ruleId: string | null; line: number; message: string }[]> {
  const code = readFileSync(join(fixtures, name), 'utf8');
  const lintAs = /^\/\/ lint-as: (\S+)/.exec(code)?.[1];
  if (!lintAs) throw new Error(`${name} names no path in its first line`);
  const [result] = await eslint.lintText(code, { filePath: join(root, lintAs) });
  return result.messages.map(({ ruleId, line, message }) => ({ ruleId, line, message }));
}

const endingWith = (text: string) => expect.stringMatching(new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
// every import rule is one typescript-eslint rule, with a pattern and a message per rule
const SRC_IMPORTS = '@typescript-eslint/no-restricted-imports';
const IMPORT_PATHS = SRC_IMPORTS;

describe('import rules, each broken once by a fixture', { timeout: 60_000 }, () => {
  it('refuses worker code imported into src/, and lets types and static data through', async () => {
    expect(await lintFixture('src-imports-worker-code.ts')).toEqual([
      { ruleId: SRC_IMPORTS, line: 4, message: endingWith(RULES.srcImportsWorkers) },
    ]);
  });

  it('lets the Mining Lab mine on the main thread, and refuses it any other worker code', async () => {
    expect(await lintFixture('mining-lab-imports-worker-code.ts')).toEqual([
      { ruleId: SRC_IMPORTS, line: 4, message: endingWith(RULES.miningLabImportsWorkers) },
    ]);
  });

  it('refuses a feature importing another feature, and allows its own files and shared components', async () => {
    expect(await lintFixture('feature-imports-feature.ts')).toEqual([
      { ruleId: IMPORT_PATHS, line: 4, message: endingWith(RULES.featuresImportFeatures) },
    ]);
  });

  it('refuses workers/ importing src/', async () => {
    expect(await lintFixture('worker-imports-src.ts')).toEqual([
      { ruleId: IMPORT_PATHS, line: 3, message: endingWith(RULES.workersImportSrc) },
    ]);
  });

  it('refuses comlink and the storage layer in workers/core, and allows core importing core', async () => {
    expect(await lintFixture('core-imports-storage.ts')).toEqual([
      { ruleId: IMPORT_PATHS, line: 3, message: endingWith(RULES.coreIsPure) },
      { ruleId: IMPORT_PATHS, line: 4, message: endingWith(RULES.coreIsPure) },
    ]);
  });

  it('refuses one capability module importing another, and allows deps, store and views', async () => {
    expect(await lintFixture('capability-imports-capability.ts')).toEqual([
      { ruleId: IMPORT_PATHS, line: 4, message: endingWith(RULES.capabilitiesImportCapabilities) },
    ]);
  });
});

describe('type-aware lint on src/ and workers/', { timeout: 60_000 }, () => {
  it('names a forgotten await on a worker call, an async event handler and an await of a plain value', async () => {
    expect(await lintFixture('forgotten-await.ts')).toEqual([
      expect.objectContaining({ ruleId: '@typescript-eslint/no-floating-promises', line: 8 }),
      expect.objectContaining({ ruleId: '@typescript-eslint/no-misused-promises', line: 9 }),
      expect.objectContaining({ ruleId: '@typescript-eslint/await-thenable', line: 15 }),
    ]);
  });
});
