// The records chain as the explorer and the status boxes see it, and the reset of this browser's copy.
import type { BlockSummary, LedgerService } from '../api';
import { accessDenied, canSeeRecord } from '../core/access';
import { findUser } from '../core/directory';
import { LEDGER_AUTHOR } from '../core/signatures';
import type { User } from '../core/types';
import { isIndex } from '../core/ids';
import { fail } from './deps';
import { wellFormedKeys } from './replace';
import type { Sealing } from './sealing';
import type { LedgerStore, Snapshot } from './store';
import { pageOf } from './views';

// The keys stored beside the chain are the ones its genesis enrols: else nobody may be able to sign in.
function keysHold(s: Snapshot): boolean {
  const keys = wellFormedKeys(s.storedKeys);
  const enrolment = s.verified.state.enrolment;
  if (!keys || !enrolment || keys.ledger.publicKey !== enrolment.ledger) return false;
  return Object.entries(enrolment.users).every(([id, publicKey]) => keys.users[id]?.publicKey === publicKey);
}

// Why `user` may not reset this browser's ledger, or null when they may: a reset never drops what someone
// else wrote, unless the stored ledger cannot be trusted (it failed to load or to verify, or its stored keys are
// not the enrolled ones: nothing in it holds, or nobody can sign in).
export async function resetRefusal(store: LedgerStore, user: User | null): Promise<string | null> {
  const loaded = await store.ready().then(
    () => true,
    () => false,
  );
  if (!loaded || store.current().invalid || !keysHold(store.current())) return null;
  if (!user) return 'Sign in to reset the local data.';
  const others = new Set<string>();
  for (const block of store.current().blocks.slice(1)) {
    if (block.author !== user.id && block.author !== LEDGER_AUTHOR) others.add(block.author);
  }
  if (others.size === 0) return null;
  const names = [...others].map((id) => findUser(id)?.name ?? id).sort();
  return `Reset is turned off: this browser holds records and access history written by ${names.join(', ')}, and a reset never erases what someone else wrote.`;
}

export function createChainView(store: LedgerStore, enter: () => Promise<User>, actor: () => User | null, sealing: Sealing) {
  const visibleTo = (user: User) => (block: { data?: unknown }) =>
    !!block.data && canSeeRecord(user, block.data as Parameters<typeof canSeeRecord>[1]);

  const api: Pick<LedgerService, 'chainStatus' | 'blocksPage' | 'block' | 'resetDemoData' | 'resetAllowed'> = {
    async chainStatus() {
      await enter();
      return store.status();
    },

    async blocksPage(offset, limit) {
      const signedIn = await enter();
      const { blocks } = store.current();
      const page = pageOf(blocks, offset, limit, visibleTo(signedIn), store.signatureOf, store.state().notApplied);
      const titles = await sealing.openedTitles(signedIn); // a sealed block's title is '' on the chain
      const { resealed } = store.state();
      const titled = (row: BlockSummary): BlockSummary => {
        if (row.restricted) return row;
        const data = blocks[row.index].data;
        if (row.title === '') return { ...row, title: titles.get(row.index) ?? '' };
        if ((data.type !== 'prescription' && data.type !== 'test_report') || data.sealed) return row;
        const resealedIn = resealed.get(data.id); // an upload written before sealing: its block keeps the text
        return { ...row, writtenInClear: resealedIn === undefined ? {} : { resealedIn } };
      };
      return { ...page, blocks: page.blocks.map(titled) };
    },

    async block(index) {
      const signedIn = await enter();
      const blocks = store.current().blocks;
      if (!isIndex(index) || index >= blocks.length) fail('NotFoundError', `Block ${String(index)} does not exist.`);
      if (!visibleTo(signedIn)(blocks[index])) throw accessDenied();
      return structuredClone(blocks[index]);
    },

    async resetAllowed() {
      const refusal = await resetRefusal(store, actor());
      return refusal ? { allowed: false, reason: refusal } : { allowed: true };
    },

    async resetDemoData() {
      const refusal = await resetRefusal(store, actor());
      if (refusal && !actor()) throw accessDenied(); // before sign-in, the catalogue's words
      if (refusal) fail('AccessDeniedError', refusal);
      await store.reset();
      sealing.forget(); // what was opened of the old ledger goes with it
    },
  };
  return api;
}
