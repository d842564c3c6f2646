import { createContext } from 'react';
import type { Remote } from 'comlink';
import type { ChainStatus, LedgerService } from '../../workers/api';
import type { LedgerVersions } from './ledger-changes';
import type { SharedQuery } from './shared-query';

export type LedgerRemote = Remote<LedgerService>;

export interface LedgerContextValue {
  service: LedgerRemote;
  versions: LedgerVersions; // per change kind, bumped when the worker reports a change of that kind
  chainStatus: SharedQuery<ChainStatus>; // one fetch for every screen that shows the chain's status
}

export const LedgerContext = createContext<LedgerContextValue | null>(null);
