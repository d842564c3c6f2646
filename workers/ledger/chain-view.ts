// The records chain as the explorer and the status boxes see it, and the demo reset.
import type { LedgerService } from '../api';
import { accessDenied, canSeeRecord } from '../core/access';
import type { User } from '../core/types';
import { isIndex } from '../core/ids';
import { fail } from './deps';
import type { LedgerStore } from './store';
import { pageOf } from './views';

export function createChainView(store: LedgerStore, enter: () => Promise<User>) {
  const visibleTo = (user: User) => (block: { data?: unknown }) =>
    !!block.data && canSeeRecord(user, block.data as Parameters<typeof canSeeRecord>[1]);

  const api: Pick<LedgerService, 'chainStatus' | 'blocksPage' | 'block' | 'resetDemoData'> = {
    async chainStatus() {
      await enter();
      return store.status();
    },

    async blocksPage(offset, limit) {
      const signedIn = await enter();
      return pageOf(store.current().blocks, offset, limit, visibleTo(signedIn), store.signatureOf);
    },

    async block(index) {
      const signedIn = await enter();
      const blocks = store.current().blocks;
      if (!isIndex(index) || index >= blocks.length) fail('NotFoundError', `Block ${String(index)} does not exist.`);
      if (!visibleTo(signedIn)(blocks[index])) throw accessDenied();
      return structuredClone(blocks[index]);
    },

    async resetDemoData() {
      await enter();
      await store.reset();
    },
  };
  return api;
}
