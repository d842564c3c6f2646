// lint-as: workers/core/lint-fixture.ts
// Pure logic that reaches for comlink and the storage layer.
import { proxy } from 'comlink';
import { createMemoryStorage } from '../storage/memory-storage';
import { sha256Hex } from './sha256';

export const fixture = { proxy, createMemoryStorage, sha256Hex };
