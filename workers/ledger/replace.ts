// Changes that replace everything stored in one write: a reset starts a fresh chain, a restore puts a checked
// backup's ledger in place (workers/ledger/portability.ts decides when either is allowed).
import { openDemoLedger, signedGenesis, type DemoLedger } from '../core/demo-ledger';
import type { SummaryKey } from '../core/sealed-fields';
import type { Block } from '../core/types';
import { DEMO_PASSWORD } from '../core/constants';
import { USERS } from '../core/directory';
import { iso } from '../core/ledger-records';
import { SIGNATURE_ALGORITHM, createStoredKeys, type StoredKeys, type WrappedUserKey } from '../core/signatures';
import { isEncryptionPublicKey } from '../core/key-wraps';
import {
  FORMAT_KEY,
  KEYS_KEY,
  LEDGER_FORMAT,
  REVISION_KEY,
  SESSION_KEY,
  storedRevision,
  type StorageWrite,
} from '../storage/ledger-storage';
import { SUMMARY_KEYS_KEY } from './snapshot';
import type { LedgerDeps } from './deps';
import { WRITE_ATTEMPTS, isConflict, storageError } from './writes';

function isWrappedKey(value: unknown): boolean {
  const key = value as Partial<Record<string, unknown>> | null;
  return (
    typeof key === 'object' &&
    key !== null &&
    ['publicKey', 'salt', 'iv', 'wrappedKey'].every((field) => typeof key[field] === 'string') &&
    key.kdf === 'PBKDF2' &&
    key.hash === 'SHA-256' &&
    Number.isSafeInteger(key.iterations)
  );
}

function hasEncryptionKey(value: unknown): boolean {
  const encryption = (value as Partial<WrappedUserKey> | null)?.encryption as Partial<Record<string, unknown>> | undefined;
  return (
    typeof encryption === 'object' &&
    encryption !== null &&
    isEncryptionPublicKey(encryption.publicKey) &&
    typeof encryption.iv === 'string' &&
    typeof encryption.wrappedKey === 'string'
  );
}

// Stored keys a new genesis can enrol and sign with, each user's encryption key too; anything else (an edit at
// rest, or keys made before document keys travelled wrapped) is replaced by new keys.
export function usableKeys(value: unknown): StoredKeys | undefined {
  const keys = wellFormedKeys(value);
  return keys && USERS.every((user) => hasEncryptionKey(keys.users[user.id])) ? keys : undefined;
}

// Stored keys whose signing keys are well-formed, with or without encryption keys.
export function wellFormedKeys(value: unknown): StoredKeys | undefined {
  const keys = value as Partial<StoredKeys> | null | undefined;
  const ledgerKey = keys?.ledger;
  const wellFormed =
    keys?.algorithm === SIGNATURE_ALGORITHM &&
    typeof keys.users === 'object' &&
    keys.users !== null &&
    USERS.every((user) => isWrappedKey(keys.users?.[user.id])) &&
    typeof ledgerKey?.publicKey === 'string' &&
    ledgerKey.privateKey instanceof CryptoKey;
  return wellFormed ? (keys as StoredKeys) : undefined;
}

// The stored keys when they are well-formed, else new ones.
export async function keysToKeep(deps: LedgerDeps, value: unknown): Promise<StoredKeys> {
  return usableKeys(value) ?? newKeys(deps); // freshWrite also checks the genesis they sign
}

// Every listed user's key pair, made once per browser (one PBKDF2 derivation per user) and kept across resets.
export function newKeys(deps: LedgerDeps): Promise<StoredKeys> {
  return createStoredKeys(
    USERS.map((user) => user.id),
    DEMO_PASSWORD,
    deps.keyIterations,
  );
}

// A genesis that enrols `keys` and is signed by their ledger key, or null when it would not verify (keys edited at rest).
function genesisOf(deps: LedgerDeps, keys: StoredKeys): Promise<Block | null> {
  return signedGenesis(keys, deps.randomId(), iso(deps.now()), deps.difficulty);
}

// The shipped demo ledger's genesis and keys, opened once per worker.
const openedDemoLedgers = new WeakMap<DemoLedger, ReturnType<typeof openDemoLedger>>();
function demoLedgerOf(deps: LedgerDeps, demo: DemoLedger) {
  let opened = openedDemoLedgers.get(demo);
  if (!opened) openedDemoLedgers.set(demo, (opened = openDemoLedger(demo, deps.difficulty)));
  return opened;
}

// The genesis and keys a fresh ledger starts from: the shipped demo ledger's when the deps carry it (every browser
// the same); otherwise one of this browser's own, its stored keys kept (keys a genesis cannot enrol are replaced).
async function freshStart(deps: LedgerDeps, storedKeys: unknown): Promise<{ genesis: Block; keys: StoredKeys }> {
  if (deps.demoLedger) {
    const demo = await demoLedgerOf(deps, deps.demoLedger);
    if (!demo) throw new Error('The demo ledger shipped with MedLedger does not verify.');
    return demo;
  }
  let keys = await keysToKeep(deps, storedKeys);
  let genesis = await genesisOf(deps, keys);
  if (!genesis) {
    keys = await newKeys(deps);
    genesis = await genesisOf(deps, keys);
    if (!genesis) throw new Error('A new genesis block did not verify.');
  }
  return { genesis, keys };
}

// A new chain: the demo ledger's genesis and keys (or a genesis of this browser's own, as above). The session is
// kept across a reset, so a signed-in user whose key the new genesis enrols stays signed in (session.ts checks it).
export async function freshWrite(
  deps: LedgerDeps,
  expectedRevision: number,
  storedKeys: unknown,
  session: unknown,
): Promise<StorageWrite> {
  return chainStartWrite(expectedRevision, await freshStart(deps, storedKeys), session);
}

// The write that replaces everything stored with a chain of `genesis` alone, signed in with `keys`.
export function chainStartWrite(
  expectedRevision: number,
  { genesis, keys }: { genesis: Block; keys: StoredKeys },
  session: unknown,
): StorageWrite {
  return {
    expectedRevision,
    clear: true,
    blocks: [genesis],
    meta: {
      [REVISION_KEY]: expectedRevision + 1,
      [FORMAT_KEY]: LEDGER_FORMAT,
      [KEYS_KEY]: keys,
      ...(session ? { [SESSION_KEY]: session } : {}),
    },
  };
}

export type Replacement = (expectedRevision: number, storedKeys: unknown, session: unknown) => Promise<StorageWrite>;

// Writes `replacement` under the lock, starting over when another tab wrote first; `reload` then loads it all.
export async function replaceAll(
  deps: LedgerDeps,
  lock: <T>(fn: () => Promise<T>) => Promise<T>,
  failure: string,
  replacement: Replacement,
  reload: () => Promise<void>,
): Promise<void> {
  const { storage } = deps;
  await lock(async () => {
    for (let tries = 1; ; tries++) {
      const expected = storedRevision(await storage.readMeta(REVISION_KEY));
      const storedKeys = await storage.readMeta(KEYS_KEY);
      const session = await storage.readMeta(SESSION_KEY);
      try {
        await storage.commit(await replacement(expected, storedKeys, session));
        return reload();
      } catch (error) {
        if (!isConflict(error) || tries >= WRITE_ATTEMPTS) throw storageError(failure, error);
      }
    }
  });
}

// A restored ledger: its chain, keys and encrypted bytes, checked by the caller before. The session is not
// kept: its key was unlocked from this browser's keys, which the backup's replace.
export function restoreWrite({
  keys,
  summaryKeys,
  blocks,
  documents,
  contents,
}: Pick<StorageWrite, 'blocks' | 'documents' | 'contents'> & { keys: StoredKeys; summaryKeys: SummaryKey[] }): Replacement {
  return async (expectedRevision) => ({
    blocks,
    documents,
    contents,
    expectedRevision,
    clear: true,
    meta: {
      [REVISION_KEY]: expectedRevision + 1,
      [FORMAT_KEY]: LEDGER_FORMAT,
      [KEYS_KEY]: keys,
      [SUMMARY_KEYS_KEY]: summaryKeys,
    },
  });
}
