import { createContext } from 'react';
import type { Remote } from 'comlink';
import type { LedgerService } from '../../workers/api';

export type LedgerRemote = Remote<LedgerService>;

export interface LedgerContextValue {
  service: LedgerRemote;
  version: number; // bumped on every onChange from the worker, so queries refetch
}

export const LedgerContext = createContext<LedgerContextValue | null>(null);
