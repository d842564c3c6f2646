import { join } from 'node:path';
import { defaultClientConditions, defaultClientMainFields, defaultServerConditions, defaultServerMainFields } from 'vite';
import { defineConfig } from 'vitest/config';
import { REACT_LIBRARIES, reactOnPreact } from './preact-alias.ts';

// One project per test layer (docs/architecture.md, "Tests by layer"): unit and boundary in Node, ui in happy-dom, e2e in real Chromium, server against the built sync server process.
// The tests run on the runtime that ships: Preact under React's names (vite.config.ts).
export default defineConfig({
  resolve: {
    alias: [
      // `react` with act, for the tests that import it from there (listed first: the first match wins)
      { find: /^react$/, replacement: join(import.meta.dirname, 'tests/support/react-on-preact.ts') },
      ...reactOnPreact,
      // Testing Library's main file is CommonJS, whose require('react-dom') no alias reaches: its ES module instead
      { find: /^@testing-library\/react$/, replacement: '@testing-library/react/dist/@testing-library/react.esm.js' },
      // so are @restart/ui's under Node's condition, which no resolve.conditions here removes
      { find: /^@restart\/ui\/(\w+)$/, replacement: join(import.meta.dirname, 'node_modules/@restart/ui/esm/$1.js') },
    ],
    dedupe: ['preact'],
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  test: {
    // preact too: one copy, resolved as the inlined libraries resolve it (a project's own server.deps is not read)
    server: { deps: { inline: [...REACT_LIBRARIES, 'preact'] } },
    projects: [
      // property tests run hundreds of chains and encryptions per test
      {
        extends: true,
        // the libraries' ES modules for the pre-render tests (the router's `module-sync`, as Node itself picks it):
        // their CommonJS files require React past the alias, and Preact renders React's elements as nothing
        ssr: { resolve: { conditions: ['module-sync', ...defaultServerConditions], mainFields: [...defaultServerMainFields] } },
        test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: { name: 'boundary', environment: 'node', include: ['tests/boundary/**/*.test.ts'], testTimeout: 30_000 },
      },
      {
        extends: true,
        // the libraries' ES modules, as in the browser: under Node's condition they pick CommonJS files, whose
        // require('react') no alias reaches
        resolve: { conditions: ['module-sync', ...defaultClientConditions], mainFields: [...defaultClientMainFields] },
        ssr: { resolve: { conditions: ['module-sync', ...defaultClientConditions], mainFields: [...defaultClientMainFields] } },
        test: {
          name: 'ui',
          environment: 'happy-dom',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/ui/setup.ts'],
          // screens render through a real service over a MessageChannel: seconds, not milliseconds, on a busy 2-core machine
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          // builds dist/ if needed and serves it with vite preview once for all browser tests
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // builds dist-server/ if needed: each test starts the built sync server as a child process
          globalSetup: ['tests/server/global-setup.ts'],
          // a read waits for the server and the devices to sync: seconds on a busy 2-core machine, not expect.poll's 1 s
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
