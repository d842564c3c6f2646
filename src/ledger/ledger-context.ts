import { createContext } from 'react';
import type { Remote } from 'comlink';
import type { ChainStatus, LedgerService } from '../../workers/api';
import type { KeptAnswers } from './kept-answers';
import type { LedgerVersionStore } from './ledger-versions';
import type { SharedQuery } from './shared-query';

export type LedgerRemote = Remote<LedgerService>;

// Every member keeps its identity for the life of the worker, so a change notice re-renders no user of the context.
export interface LedgerContextValue {
  service: LedgerRemote;
  versions: LedgerVersionStore; // per change kind, bumped when the worker reports a change of that kind
  chainStatus: SharedQuery<ChainStatus>; // one fetch for every screen that shows the chain's status
  answers: KeptAnswers; // named queries' last answers (src/ledger/kept-answers.ts)
}

export const LedgerContext = createContext<LedgerContextValue | null>(null);
