// @ts-check
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

// The import rules of README.md "Code shape"; each message says its rule. tests/unit/import-rules.test.ts
// breaks each one with a fixture of tests/lint-fixtures/.
export const RULES = {
  srcImportsWorkers:
    "src/ imports only types and static data from workers/ (core/directory, core/constants, core/errors, core/file-types, core/text-input): the worker's code runs in the worker.",
  miningLabImportsWorkers:
    'src/ imports only types and static data from workers/ (core/directory, core/constants, core/errors, core/file-types, core/text-input); the Mining Lab alone also runs core/chain and core/nonce-search, for its main-thread and parallel comparison.',
  featuresImportFeatures: 'Features never import each other: what two features share moves to src/components/ or src/ledger/.',
  workersImportSrc: 'workers/ never imports src/: the worker is the backend and the app its client.',
  coreIsPure: 'workers/core is pure logic: it imports nothing from workers/storage, workers/ledger, comlink, React or the DOM.',
  capabilitiesImportCapabilities:
    'Capability modules of workers/ledger/ never import one another (only deps.ts, views.ts and store.ts): workers/service.ts composes them.',
};

// workers/ledger/ modules that every capability module may import
const LEDGER_SHARED = ['deps.ts', 'views.ts', 'store.ts'];
const FEATURES = readdirSync(join(root, 'src/features'));
// workers/ paths that are static data (and text-input's pure rules, the screens' checks before a call), imported by the app at run time
const STATIC_DATA = 'core/(directory|constants|errors|file-types|text-input)';

/** @type {(allowed: string, message: string) => import('eslint').Linter.RuleEntry} */
const workersFromSrc = (allowed, message) => [
  'error',
  { patterns: [{ regex: String.raw`(^|/)workers/(?!${allowed}$)`, allowTypeImports: true, message }] },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'tests/bench/results', 'test-results', 'tests/lint-fixtures'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node, ...globals.worker },
    },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            { target: 'workers', from: 'src', message: RULES.workersImportSrc },
            {
              target: 'workers/core',
              from: [
                'workers/storage',
                'workers/ledger',
                'workers/service.ts',
                'workers/ledger.worker.ts',
                'workers/comlink-guard.ts',
                'node_modules/comlink',
                'node_modules/react',
                'node_modules/react-dom',
              ],
              message: RULES.coreIsPure,
            },
            {
              target: 'workers/ledger',
              from: ['workers/ledger', 'workers/service.ts', 'workers/ledger.worker.ts'],
              except: LEDGER_SHARED.map((name) => `./${name}`),
              message: RULES.capabilitiesImportCapabilities,
            },
            ...FEATURES.map((feature) => ({
              target: `src/features/${feature}`,
              from: 'src/features',
              except: [`./${feature}`],
              message: RULES.featuresImportFeatures,
            })),
          ],
        },
      ],
    },
  },
  // src/ runs the worker's code only through the worker; `import type` is always allowed
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': workersFromSrc(STATIC_DATA, RULES.srcImportsWorkers) },
  },
  {
    files: ['src/features/mining-lab/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': workersFromSrc(
        `(${STATIC_DATA}|core/(chain|nonce-search))`,
        RULES.miningLabImportsWorkers,
      ),
    },
  },
  // type-aware: a promise is awaited, returned or marked `void` on purpose, and only thenables are awaited
  {
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
