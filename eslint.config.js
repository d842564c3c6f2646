// @ts-check
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

// The import rules of docs/architecture.md "Code shape"; each message says its rule. tests/unit/import-rules.test.ts
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
    'Capability modules of workers/ledger/ never import one another (only deps.ts, views.ts, transfer-jobs.ts, sealing.ts, seal-writes.ts, sealed-opening.ts and the store modules): workers/service.ts composes them.',
};

// workers/ledger/ modules that every capability module may import
// the store is split by job (load, signature checks, writes, replacements, remote intake): its parts are shared like the store
const LEDGER_SHARED = [
  'deps',
  'views',
  'transfer-jobs',
  'store',
  'store-hooks',
  'snapshot',
  'signature-scheduler',
  'writes',
  'replace',
  'remote-intake',
  'sandbox-views',
  'sealing',
  'seal-writes', // sealing's write side, split from it by job
  'sealed-opening', // sealing's opening of one text, split from its builds
];
const FEATURES = readdirSync(join(root, 'src/features'));
// workers/ paths that are static data (and text-input's pure rules, the screens' checks before a call), imported by the app at run time
const STATIC_DATA = 'core/(directory|constants|errors|file-types|text-input)';

// One typescript-eslint no-restricted-imports entry per group of files (a later entry for the same files
// replaces an earlier one, so each group lists every rule that applies to it). Patterns match the import
// as written; `import type` passes where allowTypeImports is set.
/** @typedef {{ regex: string, message: string, allowTypeImports?: boolean }} Pattern */
/** @type {(...patterns: Pattern[]) => import('eslint').Linter.RuleEntry} */
const restrict = (...patterns) => ['error', { patterns }];

/** @type {(allowed: string, message: string) => Pattern} */
const workersFromSrc = (allowed, message) => ({
  regex: String.raw`(^|/)workers/(?!${allowed}$)`,
  allowTypeImports: true,
  message,
});
/** @type {(feature: string) => Pattern} */
const otherFeature = (feature) => ({ regex: String.raw`^\.\./(?!\.\./|${feature}(/|$))`, message: RULES.featuresImportFeatures });
const workerToSrc = { regex: String.raw`^(\.\./)+src/`, message: RULES.workersImportSrc };
const coreImpure = [
  { regex: String.raw`^\.\./(storage|ledger)(/|$)`, message: RULES.coreIsPure },
  { regex: String.raw`^\.\./(service|ledger\.worker|comlink-guard)$`, message: RULES.coreIsPure },
  { regex: '^(comlink|react|react-dom)(/|$)', message: RULES.coreIsPure },
];
const otherCapability = [
  { regex: String.raw`^\./(?!(${LEDGER_SHARED.join('|')})$)`, message: RULES.capabilitiesImportCapabilities },
  { regex: String.raw`^\.\./(service|ledger\.worker)$`, message: RULES.capabilitiesImportCapabilities },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      '.medledger-sync',
      'node_modules',
      'tests/bench/results',
      'test-results',
      'tests/lint-fixtures',
    ],
  },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node, ...globals.worker },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // src/ runs the worker's code only through the worker; `import type` is always allowed
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': restrict(workersFromSrc(STATIC_DATA, RULES.srcImportsWorkers)) },
  },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        feature === 'mining-lab'
          ? workersFromSrc(`(${STATIC_DATA}|core/(chain|nonce-search))`, RULES.miningLabImportsWorkers)
          : workersFromSrc(STATIC_DATA, RULES.srcImportsWorkers),
        otherFeature(feature),
      ),
    },
  })),
  { files: ['workers/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': restrict(workerToSrc) } },
  {
    files: ['workers/core/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': restrict(workerToSrc, ...coreImpure) },
  },
  {
    files: ['workers/ledger/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': restrict(workerToSrc, ...otherCapability) },
  },
  // type-aware: a promise is awaited, returned or marked `void` on purpose, and only thenables are awaited
  {
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts', 'server/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
