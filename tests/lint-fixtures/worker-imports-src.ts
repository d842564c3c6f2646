// lint-as: workers/lint-fixture.ts
// The worker reaching back into the app.
import { formatBytes } from '../src/components/format';

export const fixture = { formatBytes };
