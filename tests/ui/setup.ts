import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Lazy routes are transformed on first import; on a busy 2-core machine that can exceed the 1 s default.
configure({ asyncUtilTimeout: 5000 });

// vitest runs without globals, so Testing Library cannot register its own cleanup
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Preact listens for `onDrop` as 'drop' only where the element has an `ondrop` property, as every browser's has;
// happy-dom's elements lack the drag ones, so Preact would listen for 'Drop'. Declared here as in a browser.
for (const name of ['ondrag', 'ondragstart', 'ondragend', 'ondragenter', 'ondragover', 'ondragleave', 'ondrop']) {
  if (!(name in HTMLElement.prototype)) Object.defineProperty(HTMLElement.prototype, name, { value: null, writable: true });
}
