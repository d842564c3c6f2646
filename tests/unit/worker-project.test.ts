import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const fixture = join(root, 'tests/lint-fixtures/worker-dom-access.ts');

function readProject(project: string): ts.ParsedCommandLine {
  const configPath = join(root, project);
  const { config, error } = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
}

// The fixture compiled alone with one project's compiler options (lib, types...), as `tsc -b` would.
function errorsUnder(project: string): string[] {
  const { options } = readProject(project);
  const program = ts.createProgram({ rootNames: [fixture], options });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
}

describe('one TypeScript project per runtime', () => {
  it('compiles every file of workers/ in the worker project, without the DOM library', () => {
    const { fileNames, options } = readProject('tsconfig.worker.json');
    const workerFiles = readdirSync(join(root, 'workers'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(root, 'workers', name));
    expect(fileNames).toEqual(expect.arrayContaining(workerFiles));
    expect(options.lib?.some((lib) => /dom/i.test(lib))).toBe(false);
  });

  it('refuses document and localStorage in worker code: the worker project has no DOM library', () => {
    expect(errorsUnder('tsconfig.worker.json')).toEqual([
      "TS2304: Cannot find name 'localStorage'.",
      "TS2584: Cannot find name 'document'. Do you need to change your target library? Try changing the 'lib' compiler option to include 'dom'.",
    ]);
  });

  it('accepts the same code in the app project, which has the DOM', () => {
    expect(errorsUnder('tsconfig.app.json')).toEqual([]);
  });
});
