// A forger who holds the stored keys and the demo password: re-mines a stored block and signs it again with
// its author's real key, so only the chain's rules can tell the change.
import { mineBlock } from '../../workers/core/chain';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { LEDGER_AUTHOR, signBlock, unlockUserKey, type StoredKeys } from '../../workers/core/signatures';
import type { Block, ChainRecord } from '../../workers/core/types';
import { KEYS_KEY, type LedgerStorage } from '../../workers/storage/ledger-storage';

// The private key of `author` as this browser stores it, unlocked with the demo password.
export async function authorKey(storage: LedgerStorage, author: string): Promise<CryptoKey> {
  const keys = (await storage.readMeta(KEYS_KEY)) as StoredKeys;
  const key = author === LEDGER_AUTHOR ? keys.ledger.privateKey : await unlockUserKey(keys.users[author], DEMO_PASSWORD);
  if (!key) throw new Error(`no key of ${author}`);
  return key;
}

// Block `index` with its record (and time) changed by `edit`, mined on the stored block before it and signed
// by the same author; the blocks after it are re-mined and re-signed too, so every hash, link and signature holds.
export async function reforge(
  storage: LedgerStorage,
  index: number,
  edit: (record: ChainRecord) => ChainRecord,
): Promise<Block[]> {
  const stored = (await storage.load()).blocks;
  const next = stored.slice(0, index);
  for (let i = index; i < stored.length; i++) {
    const record = i === index ? edit(structuredClone(stored[i].data)) : stored[i].data;
    const mined = mineBlock(next[i - 1], record, i === index ? record.timestamp : stored[i].timestamp);
    next.push(await signBlock(mined, await authorKey(storage, stored[i].author)));
  }
  await storage.commit({ blocks: next.slice(index) });
  return next;
}
