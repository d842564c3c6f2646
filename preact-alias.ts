import type { Alias } from 'vite';

// The UI runs on Preact: every import of React's runtime, the app's and its libraries', resolves to preact/compat
// (issue 26: React 19 was 68 KiB gzip of the first load, Preact ~10 KiB). Exact names only: react-router and
// react-bootstrap stay what they are.
export const reactOnPreact: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

// Libraries that import React themselves. Where node_modules are handed to Node unresolved (vitest, and the
// build's pre-render in vite.config.ts), they would load the real React beside Preact: listed here, they are
// inlined and go through the alias above like the app.
export const REACT_LIBRARIES = [
  'react-bootstrap',
  'react-router',
  'react-router-dom',
  'react-transition-group',
  'uncontrollable',
  '@restart/hooks',
  '@restart/ui',
  '@react-aria/ssr',
  'react-aria',
  'use-sync-external-store',
  '@testing-library/react',
];
