// Anchors of the records chain: its tip saved by the user outside the device, compared with today's chain
// later (docs/decisions/chain-anchor.md). Only reads the chain.
import type { LedgerService } from '../api';
import { compareAnchor, createAnchor, parseAnchor } from '../core/anchor';
import { iso } from '../core/ledger-records';
import type { User } from '../core/types';
import type { LedgerDeps } from './deps';
import type { LedgerStore } from './store';

export function createAnchors(deps: LedgerDeps, store: LedgerStore, enter: () => Promise<User>) {
  const api: Pick<LedgerService, 'saveAnchor' | 'checkAnchor'> = {
    async saveAnchor() {
      await enter();
      return createAnchor(store.current().blocks, iso(deps.now()));
    },

    async checkAnchor(anchor) {
      await enter();
      const { blocks, verified } = store.current();
      return compareAnchor(parseAnchor(anchor), blocks, verified.firstInvalid);
    },
  };
  return api;
}
