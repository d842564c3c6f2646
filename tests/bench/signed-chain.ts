// Signed bench chains (bench-chain.ts's records, mined at the records difficulty and signed by their authors with
// real keys), shared by the browser bench's worker (browser-worker.ts) and the sync bench's seed in Node
// (tests/server/support/devices.ts benchLedger).
import { createGenesisBlock, mineBlock } from '../../workers/core/chain';
import { DEMO_PASSWORD, DIFFICULTY } from '../../workers/core/constants';
import { USERS } from '../../workers/core/directory';
import {
  LEDGER_AUTHOR,
  PBKDF2_ITERATIONS,
  createStoredKeys,
  enrolmentOf,
  signBlock,
  unlockUserKey,
  type StoredKeys,
} from '../../workers/core/signatures';
import type { Block, ChainRecord } from '../../workers/core/types';
import { benchRecords } from './bench-chain';

export const SIGN_BATCH = 5_000; // blocks mined, then signed together

export interface BenchKeys {
  stored: StoredKeys;
  signing: Map<string, CryptoKey>; // author -> private key
}

// Every listed user's keys wrapped under the demo password with the app's iterations (a device opens them as the
// app does), or `stored` when given, with each one unlocked to sign.
export async function unlockBenchKeys(stored?: StoredKeys): Promise<BenchKeys> {
  const keys =
    stored ??
    (await createStoredKeys(
      USERS.map((user) => user.id),
      DEMO_PASSWORD,
      PBKDF2_ITERATIONS,
    ));
  const signing = new Map<string, CryptoKey>([[LEDGER_AUTHOR, keys.ledger.privateKey!]]);
  for (const [id, wrapped] of Object.entries(keys.users)) signing.set(id, (await unlockUserKey(wrapped, DEMO_PASSWORD))!);
  return { stored: keys, signing };
}

// Mines `records` from blocks.length up to `until` onto `blocks`, then signs those blocks by their authors.
export async function mineSigned(
  records: readonly ChainRecord[],
  blocks: Block[],
  until: number,
  signing: ReadonlyMap<string, CryptoKey>,
): Promise<void> {
  const from = blocks.length;
  for (let index = from; index < until; index++) {
    const data = records[index];
    blocks.push(
      index === 0
        ? createGenesisBlock(data, data.timestamp, DIFFICULTY)
        : mineBlock(blocks[index - 1], data, data.timestamp, DIFFICULTY),
    );
  }
  const signed = await Promise.all(blocks.slice(from, until).map((block) => signBlock(block, signing.get(block.author)!)));
  blocks.splice(from, signed.length, ...signed);
}

// A legal signed chain of `height` blocks whose genesis enrols `keys`, mined and signed in batches.
export async function signedBenchChain(height: number, keys: BenchKeys): Promise<Block[]> {
  const records = benchRecords(height, undefined, enrolmentOf(keys.stored));
  const blocks: Block[] = [];
  while (blocks.length < height) await mineSigned(records, blocks, Math.min(height, blocks.length + SIGN_BATCH), keys.signing);
  return blocks;
}
