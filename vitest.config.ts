import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One project per test layer (docs/architecture.md, "Tests by layer"): unit and boundary in Node, ui in happy-dom, e2e in real Chromium, server against the built sync server process.
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      // property tests run hundreds of chains and encryptions per test
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: { name: 'boundary', environment: 'node', include: ['tests/boundary/**/*.test.ts'], testTimeout: 30_000 },
      },
      {
        extends: true,
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
