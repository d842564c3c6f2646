// lint-as: workers/ledger/lint-fixture.ts
// A capability module calling another one directly instead of being composed with it in workers/service.ts.
import { fail } from './deps';
import { createRecords } from './records';
import type { LedgerStore } from './store';
import { pageOf } from './views';

export const fixture = { fail, createRecords, pageOf };
export type FixtureStore = LedgerStore;
