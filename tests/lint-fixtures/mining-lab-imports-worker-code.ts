// lint-as: src/features/mining-lab/lint-fixture.ts
// The Mining Lab may run the chain's mining itself, for its main-thread comparison, but nothing else of the worker.
import { mineBlock } from '../../../workers/core/chain';
import { verifyLedger } from '../../../workers/core/projection';

export const fixture = { mineBlock, verifyLedger };
