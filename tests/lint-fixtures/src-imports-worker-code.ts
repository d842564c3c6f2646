// lint-as: src/features/records/lint-fixture.ts
// A screen that runs the worker's projection itself: src/ may take types and static data from workers/, not code.
import { findUser } from '../../../workers/core/directory';
import { verifyLedger } from '../../../workers/core/projection';
import type { Block } from '../../../workers/core/types';

export const fixture = { findUser, verifyLedger };
export type FixtureBlock = Block;
