// The ledger store as the sync module sees it (sync-ports.ts SyncStore): blocks and bytes arrive only through the
// store, which verifies them with the same workers/core code the server runs.
import { verifyLedger } from '../core/projection';
import { firstSignatureFailure, type StoredKeys } from '../core/signatures';
import type { SyncedKeys } from '../core/sync-protocol';
import type { Block } from '../core/types';
import type { LedgerDeps } from '../ledger/deps';
import type { LedgerStore } from '../ledger/store';
import type { SyncStore } from './sync-ports';

// The server's genesis, checked as a restore checks a backup's, with the keys it enrols; null when it does not hold.
async function checkedGenesis(hash: string, blocks: unknown[], keys: SyncedKeys, difficulty: number): Promise<Block | null> {
  const genesis = blocks.find((block) => (block as Partial<Block> | null)?.hash === hash) as Block | undefined;
  if (!genesis) return null;
  const { firstInvalid, state } = verifyLedger([genesis], difficulty);
  const enrolment = state.enrolment;
  if (firstInvalid || !enrolment || enrolment.ledger !== keys.ledger.publicKey) return null;
  const users = Object.entries(enrolment.users);
  const sameUsers =
    users.length === Object.keys(keys.users).length &&
    users.every(([id, key]) => (keys.users[id] as { publicKey?: unknown } | undefined)?.publicKey === key);
  if (!sameUsers) return null;
  return (await firstSignatureFailure([genesis], enrolment, new Map())) ? null : genesis;
}

export function storePort(
  deps: LedgerDeps,
  store: LedgerStore,
  ledgerTaken: () => Promise<void>, // after the server's ledger replaced everything stored here
  fileProgress: SyncStore['fileProgress'] = () => undefined,
): SyncStore {
  const port: SyncStore = {
    blocks: () => store.current().blocks,
    // as a restore decides it may replace a ledger (workers/ledger/backup-restore.ts replacePlan)
    untouched() {
      const s = store.current();
      return s.blocks.length === 1 && s.keys.size === 0 && s.verified.state.documents.size === 0;
    },
    syncedKeys() {
      const keys = store.storedKeys();
      return keys && { algorithm: keys.algorithm, users: keys.users, ledger: { publicKey: keys.ledger.publicKey } };
    },
    liveFiles: () =>
      [...store.state().documents.values()]
        .filter((document) => !document.deletedAt)
        .map((document) => ({ id: document.id, cid: document.ipfsHash })),
    readContent: (documentId) => deps.storage.readContent(documentId),
    mergeRemote: (incoming) => store.mergeRemote(incoming),
    addRemoteContent: (documentId, bytes) => store.addRemoteContent(documentId, bytes.slice().buffer),
    fileProgress,
    async adopt(genesisHash, blocks, keys) {
      const genesis = await checkedGenesis(genesisHash, blocks, keys, deps.difficulty);
      if (!genesis) throw new Error("The server's ledger does not verify: its genesis or keys do not hold.");
      // the ledger's private key does not travel (docs/decisions/one-ledger-across-devices.md): expiries are left
      // to a device that holds it
      const adopted = { blocks: [genesis], documents: [], contents: [], keys: keys as unknown as StoredKeys };
      await store.restore({ ...adopted, summaryKeys: [] }); // an untouched ledger's: it sealed nothing
      await ledgerTaken();
      const rest = blocks.filter((block) => block !== genesis);
      if (rest.length > 0) await port.mergeRemote(rest);
    },
  };
  return port;
}
