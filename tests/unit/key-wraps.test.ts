// Document keys wrapped to a reader's enrolled encryption key (docs/decisions/document-keys-travel-wrapped.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { createGenesisBlock } from '../../workers/core/chain';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { encryptionKeyMatches, unwrapKey, wrapKey, type KeyWrap } from '../../workers/core/key-wraps';
import { genesisRecord } from '../../workers/core/ledger-records';
import { verifyLedger } from '../../workers/core/projection';
import {
  createStoredKeys,
  enrolmentOf,
  exportKeys,
  importKeys,
  unlockUserKeys,
  type StoredKeys,
} from '../../workers/core/signatures';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { KEYS_KEY, SESSION_KEY } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { chainStartWrite } from '../../workers/ledger/replace';
import { signedGenesis } from '../../workers/core/demo-ledger';
import { createLedgerBackend } from '../../workers/service';
import { CARTER, MICHAEL, SARAH, WILSON, signInAs, uploadOf } from '../support/ledger-fixtures';
import { TEST_KEY_ITERATIONS, testDeps } from '../support/test-ledger';

const KEY = 'a1'.repeat(32);
const CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';
const DOCUMENT = 'document-1';

let keys: StoredKeys;
const privateKeys = new Map<string, CryptoKey>();

beforeAll(async () => {
  keys = await createStoredKeys([SARAH.id, MICHAEL.id, WILSON.id, CARTER.id], DEMO_PASSWORD, TEST_KEY_ITERATIONS);
  for (const [id, wrapped] of Object.entries(keys.users)) {
    privateKeys.set(id, (await unlockUserKeys(wrapped, DEMO_PASSWORD))?.encryptionKey as CryptoKey);
  }
});

const recipient = (id: string) => ({ id, publicKey: keys.users[id].encryption?.publicKey as string });
const privateKey = (id: string) => privateKeys.get(id) as CryptoKey;

describe('a wrapped document key', () => {
  it('opens with the recipient’s private key and gives back the same key', async () => {
    const wrap = await wrapKey(DOCUMENT, CID, KEY, recipient(SARAH.id), SARAH.id);
    expect(wrap).toMatchObject({ documentId: DOCUMENT, cid: CID, to: SARAH.id, from: SARAH.id });
    expect(JSON.stringify(wrap)).not.toContain(KEY);
    expect(await unwrapKey(wrap, privateKey(SARAH.id))).toBe(KEY);
    expect(await unwrapKey(wrap, privateKey(SARAH.id), CID)).toBe(KEY);
  });

  it('to Sarah does not open with Michael’s or Dr. Wilson’s key', async () => {
    const wrap = await wrapKey(DOCUMENT, CID, KEY, recipient(SARAH.id), SARAH.id);
    expect(await unwrapKey(wrap, privateKey(MICHAEL.id))).toBeNull();
    expect(await unwrapKey(wrap, privateKey(WILSON.id))).toBeNull();
    // nor when it is readdressed to Dr. Wilson: the recipient is bound to the wrap
    expect(await unwrapKey({ ...wrap, to: WILSON.id }, privateKey(WILSON.id))).toBeNull();
  });

  it('does not open once any field was changed, or for another content id than the chain names', async () => {
    const wrap = await wrapKey(DOCUMENT, CID, KEY, recipient(SARAH.id), SARAH.id);
    const bytes = atob(wrap.wrapped);
    const flipped = btoa(String.fromCharCode(bytes.charCodeAt(0) ^ 1) + bytes.slice(1));
    const other = await wrapKey(DOCUMENT, CID, KEY, recipient(SARAH.id), SARAH.id);
    const tampered: KeyWrap[] = [
      { ...wrap, wrapped: flipped },
      { ...wrap, documentId: 'document-2' },
      { ...wrap, cid: 'QmZTR5bcpQD7cFgTorqxZDYaew1Wqgfbd2ud9QqGPAkK2V' },
      { ...wrap, to: MICHAEL.id },
      { ...wrap, iv: other.iv },
      { ...wrap, ephemeralPublicKey: other.ephemeralPublicKey },
    ];
    for (const changed of tampered) expect(await unwrapKey(changed, privateKey(SARAH.id))).toBeNull();
    expect(await unwrapKey(wrap, privateKey(SARAH.id), 'QmZTR5bcpQD7cFgTorqxZDYaew1Wqgfbd2ud9QqGPAkK2V')).toBeNull();
    expect(await unwrapKey({ not: 'a wrap' }, privateKey(SARAH.id))).toBeNull();
  });

  it('is refused for a key that is not 64 hex digits or a recipient key that is not a P-256 key', async () => {
    await expect(wrapKey(DOCUMENT, CID, 'xyz', recipient(SARAH.id), SARAH.id)).rejects.toThrow(/64 hex/);
    await expect(
      wrapKey(DOCUMENT, CID, KEY, { id: SARAH.id, publicKey: keys.users[SARAH.id].publicKey }, SARAH.id),
    ).rejects.toThrow();
  });
});

// A ledger whose genesis enrols `stored` as they are (a reset would renew keys without encryption keys first).
async function ledgerWith(stored: StoredKeys): Promise<LedgerStorage> {
  const storage = createMemoryStorage();
  const genesis = await signedGenesis(stored, 'genesis', '2026-01-01T00:00:00.000Z', testDeps().difficulty);
  if (!genesis) throw new Error('the test genesis did not verify');
  await storage.commit(chainStartWrite(0, { genesis, keys: stored }, undefined));
  return storage;
}

function withoutEncryption(stored: StoredKeys): StoredKeys {
  const users = Object.fromEntries(
    Object.entries(stored.users).map(([id, { encryption: _dropped, ...key }]) => [id, key]),
  ) as StoredKeys['users'];
  return { ...stored, users };
}

describe('encryption keys on the ledger', () => {
  it('are enrolled by the genesis, and sign-in unlocks the user’s key, non-extractable, matching the enrolled one', async () => {
    const storage = createMemoryStorage();
    const { service, store } = createLedgerBackend(testDeps({ storage }));
    await signInAs(service, SARAH);
    const enrolled = store.state().enrolment?.encryption ?? {};
    expect(Object.keys(enrolled).sort()).toEqual([CARTER.id, WILSON.id, SARAH.id, MICHAEL.id].sort());
    const session = (await storage.readMeta(SESSION_KEY)) as { encryptionKey?: CryptoKey };
    expect(session.encryptionKey).toMatchObject({ extractable: false, algorithm: { name: 'ECDH' } });
    expect(await encryptionKeyMatches(session.encryptionKey as CryptoKey, enrolled[SARAH.id])).toBe(true);
    expect(await encryptionKeyMatches(session.encryptionKey as CryptoKey, enrolled[MICHAEL.id])).toBe(false);
  });

  it('a genesis that enrols them for some listed users only is refused', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const enrolment = enrolmentOf(keys);
    const { [SARAH.id]: _sarah, ...partial } = enrolment.encryption ?? {};
    const genesis = createGenesisBlock(genesisRecord('g', at, { ...enrolment, encryption: partial }), at, 1);
    expect(verifyLedger([genesis], 1).firstInvalid?.reason).toMatch(/encryption key for every listed user/);
  });

  it('a ledger made before them stays valid and signs in, with no encryption key; a reset then makes keys that have them', async () => {
    const full = await createStoredKeys(
      [SARAH, MICHAEL, CARTER, WILSON].map((user) => user.id),
      DEMO_PASSWORD,
      TEST_KEY_ITERATIONS,
    );
    const storage = await ledgerWith(withoutEncryption(full));
    const { service, store, keySharing } = createLedgerBackend(testDeps({ storage }));
    await signInAs(service, SARAH);
    expect(store.state().enrolment?.encryption).toBeUndefined();
    expect(await service.chainStatus()).toMatchObject({ valid: true, readOnly: false });
    await service.upload(uploadOf('Before keys travelled'));
    expect(await keySharing.wrapsToSend()).toEqual([]);
    expect(await keySharing.keysTravel()).toBe(false);
    expect(((await storage.readMeta(SESSION_KEY)) as { encryptionKey?: CryptoKey }).encryptionKey).toBeUndefined();

    await service.resetDemoData();
    const renewed = (await storage.readMeta(KEYS_KEY)) as StoredKeys;
    expect(Object.values(renewed.users).every((key) => key.encryption)).toBe(true);
    expect(Object.keys(store.state().enrolment?.encryption ?? {})).toHaveLength(4);
    expect(await keySharing.keysTravel()).toBe(true);
  });

  it('carried by a backup are refused when one was swapped for a key the genesis does not enrol', async () => {
    const other = await createStoredKeys([SARAH.id], DEMO_PASSWORD, TEST_KEY_ITERATIONS);
    const portable = await exportKeys(keys);
    expect(await importKeys(portable, enrolmentOf(keys))).not.toBeNull();
    const swapped = {
      ...portable,
      users: { ...portable.users, [SARAH.id]: { ...portable.users[SARAH.id], encryption: other.users[SARAH.id].encryption } },
    };
    expect(await importKeys(swapped, enrolmentOf(keys))).toBeNull();
  });
});
