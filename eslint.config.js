import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'tests/bench/results', 'test-results'] },
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
  // workers never import src; workers/core imports nothing of comlink or the DOM (DESIGN.md)
  {
    files: ['workers/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/**', '../src/*', '../../src/*'], message: 'workers never import src' }] }] },
  },
  {
    files: ['workers/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['comlink', '**/src/**', 'react*'], message: 'workers/core is pure logic' }] }] },
  },
);
