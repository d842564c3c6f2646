import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

// Lazy routes are transformed on first import; on a busy 2-core machine that can exceed the 1 s default.
configure({ asyncUtilTimeout: 5000 });

// The service loads the sandbox, anchor, FHIR and backup modules on their first call (workers/service.ts). In the
// browser they come from the service worker's cache in milliseconds; here the first import transforms their whole
// module graph, seconds on a busy machine, inside a screen's wait for its answer. Loaded once per file beforehand.
beforeAll(async () => {
  await Promise.all([
    import('../../workers/ledger/sandbox'),
    import('../../workers/ledger/anchor'),
    import('../../workers/ledger/portability'),
    import('../../workers/ledger/backup-restore'),
  ]);
}, 60_000);

// React's act() in tests that call it themselves (Testing Library sets this only around its own calls)
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// vitest runs without globals, so Testing Library cannot register its own cleanup
afterEach(() => {
  cleanup();
  localStorage.clear();
});
