// Every block says who wrote it: each is signed by its author's key, checked at load against the keys the
// genesis enrolled, and the chain's rules check that the author may write that kind of block.
import fc from 'fast-check';
import type { ChangeKind, LedgerChange } from '../../workers/api';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createGenesisBlock, mineBlock } from '../../workers/core/chain';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { USERS } from '../../workers/core/directory';
import {
  LEDGER_AUTHOR,
  SIGNATURE_ALGORITHM,
  createStoredKeys,
  enrolmentOf,
  firstSignatureFailure,
  exportKeys,
  fromBase64,
  importKeys,
  signBlock,
  signatureProblem,
  toBase64,
  unlockUserKey,
  type SignatureChecker,
  type StoredKeys,
} from '../../workers/core/signatures';
import { accessScope } from '../../workers/core/access';
import { emergencyRecord, genesisRecord, iso } from '../../workers/core/ledger-records';
import { project } from '../../workers/core/projection';
import type { Block, ChainRecord } from '../../workers/core/types';
import {
  FIRST_SCREEN_KEY,
  FORMAT_KEY,
  KEYS_KEY,
  LEDGER_FORMAT,
  SESSION_KEY,
  type LedgerStorage,
  type StoredState,
} from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { authorKey, reforge } from '../support/forged-blocks';
import { uploadInClear } from '../support/sealed-blocks';
import { MICHAEL, SARAH, WILSON, createClock, errorOf, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { TEST_KEY_ITERATIONS, createTestLedgerService, testDeps } from '../support/test-ledger';
import { createLedgerBackend } from '../../workers/service';

const MINUTE = 60_000;

// Genesis (ledger), two uploads by Sarah, a grant by Dr. Wilson on Sarah, and his read under it.
async function signedLedger() {
  const clock = createClock();
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage, now: clock.now });
  await signInAs(service, SARAH);
  await service.upload(uploadOf('Blood panel', [fileInput('blood.pdf')]));
  clock.advance(MINUTE);
  await service.upload(uploadOf('Chest X-ray', [fileInput('xray.pdf')]));
  await signInAs(service, WILSON);
  const grant = await service.requestEmergencyAccess({
    patientId: SARAH.id,
    reason: 'Unconscious in the ER',
    accessLevel: 'basic',
    durationMinutes: 15,
  });
  await service.emergencyView(grant.id);
  const stored = await storage.load();
  const contents = await Promise.all(
    stored.contentIds.map(async (id) => ({ id, bytes: (await storage.readContent(id)) as ArrayBuffer })),
  );
  return { stored, contents, clock };
}

type Ledger = Awaited<ReturnType<typeof signedLedger>>;

// The stored ledger with `blocks` in place of its chain, loaded by a new worker: its first failed check.
async function loadWith(ledger: Ledger, blocks: Block[]) {
  const storage = createMemoryStorage();
  const { stored, contents } = ledger;
  await storage.commit({ blocks, documents: stored.documents, contents, meta: stored.meta });
  const service = createTestLedgerService({ storage, now: ledger.clock.now });
  await signInAs(service, SARAH);
  return { service, status: await service.chainStatus() };
}

function keysOf(stored: StoredState): StoredKeys {
  return stored.meta[KEYS_KEY] as StoredKeys;
}

async function userKey(stored: StoredState, userId: string): Promise<CryptoKey> {
  const key = await unlockUserKey(keysOf(stored).users[userId], DEMO_PASSWORD);
  if (!key) throw new Error(`no key of ${userId}`);
  return key;
}

let ledger: Ledger;
beforeAll(async () => {
  ledger = await signedLedger();
});

describe('keys', () => {
  it('wraps every listed user key under the password with PBKDF2-SHA-256, a salt of its own, and enrols the public keys', async () => {
    const keys = keysOf(ledger.stored);
    expect(keys.algorithm).toBe(SIGNATURE_ALGORITHM);
    expect(Object.keys(keys.users).sort()).toEqual(USERS.map((user) => user.id).sort());
    for (const key of Object.values(keys.users)) {
      expect(key).toMatchObject({ kdf: 'PBKDF2', hash: 'SHA-256', iterations: TEST_KEY_ITERATIONS });
      expect(fromBase64(key.salt)).toHaveLength(16);
      expect(key).not.toHaveProperty('privateKey');
    }
    expect(new Set(Object.values(keys.users).map((key) => key.salt)).size).toBe(USERS.length);
    expect(keys.ledger.privateKey?.extractable).toBe(true); // only so a backup can carry it, sealed under the backup's password
    const genesis = ledger.stored.blocks[0];
    expect(genesis.data.type === 'diagnosis' && genesis.data.enrolment).toEqual({
      algorithm: SIGNATURE_ALGORITHM,
      ledger: keys.ledger.publicKey,
      users: Object.fromEntries(Object.entries(keys.users).map(([id, key]) => [id, key.publicKey])),
      encryption: Object.fromEntries(Object.entries(keys.users).map(([id, key]) => [id, key.encryption?.publicKey])),
    });
    expect(Object.values(keys.users).every((key) => key.encryption?.publicKey)).toBe(true);
  });

  it('unlocks a key only with its password, as a non-extractable signing key', async () => {
    const wrapped = keysOf(ledger.stored).users[SARAH.id];
    expect(await unlockUserKey(wrapped, 'demo124')).toBeNull();
    const key = await unlockUserKey(wrapped, DEMO_PASSWORD);
    expect(key).toMatchObject({ extractable: false, usages: ['sign'] });
  });

  it("moves the keys into another browser only when they are the ones the backup's chain enrols", async () => {
    const ids = [SARAH.id, WILSON.id];
    const mine = await createStoredKeys(ids, DEMO_PASSWORD, TEST_KEY_ITERATIONS);
    const theirs = await createStoredKeys(ids, DEMO_PASSWORD, TEST_KEY_ITERATIONS);
    const moved = await importKeys(await exportKeys(mine), enrolmentOf(mine));
    const AT = '2026-01-01T00:00:00.000Z';
    expect(moved && enrolmentOf(moved)).toEqual(enrolmentOf(mine));
    const sample = await signBlock(
      createGenesisBlock(genesisRecord('g', AT, enrolmentOf(mine)), AT, 1),
      (moved as StoredKeys).ledger.privateKey!,
    );
    expect(await signatureProblem(sample, enrolmentOf(mine), new Map())).toBeNull(); // the moved ledger key still signs as the enrolled one
    expect(await importKeys(await exportKeys(theirs), enrolmentOf(mine))).toBeNull();
    const swappedLedger = { ...(await exportKeys(mine)), ledger: (await exportKeys(theirs)).ledger };
    expect(await importKeys(swappedLedger, enrolmentOf(mine))).toBeNull();
  });

  it("refuses another profile's backup, whose genesis enrols other keys under another password: this browser's users keep theirs", async () => {
    // another browser profile: its own keys, every one wrapped under another password, and Sarah's upload signed with hers
    const otherPassword = 'another profile 1';
    const profile = createMemoryStorage();
    await profile.commit({
      meta: {
        [KEYS_KEY]: await createStoredKeys(
          USERS.map((user) => user.id),
          otherPassword,
          TEST_KEY_ITERATIONS,
        ),
      },
    });
    const other = createTestLedgerService({ storage: profile });
    await other.signIn(SARAH.email, otherPassword, 'patient');
    await other.upload(uploadOf('Forged panel', [fileInput('forged.pdf')]));
    const file = await other.downloadBackup('b', 'backup password', 'browser');
    const { joined } = await import('../support/portability-fixtures');
    const backup = joined(file!);
    // this browser: Sarah's own records, under the demo password
    const service = createTestLedgerService({ storage: createMemoryStorage() });
    await signInAs(service, SARAH);
    await service.upload(uploadOf('Blood panel', [fileInput('blood.pdf')]));
    expect(await errorOf(service.prepareRestore(backup.buffer, 'backup password'))).toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/^This backup is of another MedLedger ledger\./),
    });
    await service.signOut();
    await signInAs(service, SARAH); // the demo password still unlocks her key
    expect((await service.listRecords(SARAH.id)).records.map((record) => record.title)).toEqual([
      'Blood panel',
      expect.any(String),
    ]);
  });

  it('refuses a wrong password with the catalogue message and keeps no session', async () => {
    const storage = createMemoryStorage();
    const service = createTestLedgerService({ storage });
    expect(await errorOf(service.signIn(SARAH.email, 'demo124', 'patient'))).toEqual({
      name: 'LoginError',
      message: 'Invalid email or password',
    });
    expect(await storage.readMeta(SESSION_KEY)).toBeUndefined();
  });

  it('stores the signed-in session key non-extractable, and keeps users and keys across Reset demo data', async () => {
    const storage = createMemoryStorage();
    const service = createTestLedgerService({ storage });
    await signInAs(service, SARAH);
    const session = (await storage.readMeta(SESSION_KEY)) as { userId: string; signingKey: CryptoKey };
    expect(session.userId).toBe(SARAH.id);
    expect(session.signingKey.extractable).toBe(false);
    const keys = (await storage.readMeta(KEYS_KEY)) as StoredKeys;
    await service.resetDemoData();
    expect(((await storage.readMeta(KEYS_KEY)) as StoredKeys).users).toEqual(keys.users);
    expect((await service.upload(uploadOf('After the reset'))).block).toMatchObject({ author: SARAH.id, signature: 'holds' });
  });
});

describe('every block is signed by its author', () => {
  it('names each block author, and every signature holds after a load', async () => {
    expect(ledger.stored.blocks.map((block) => block.author)).toEqual([LEDGER_AUTHOR, SARAH.id, SARAH.id, WILSON.id, WILSON.id]);
    const { service, status } = await loadWith(ledger, ledger.stored.blocks);
    expect(status).toMatchObject({ valid: true, signaturesChecked: 5, signaturesToCheck: 5 });
    const page = await service.blocksPage(0, 10);
    expect(page.blocks.map((block) => block.signature)).toEqual(['holds', 'holds', 'holds', 'holds', 'holds']);
  });

  it('names a block signed by another user than the one it names, with its index and the signature rule', async () => {
    const blocks = structuredClone(ledger.stored.blocks);
    blocks[2] = await signBlock(blocks[2], await userKey(ledger.stored, MICHAEL.id));
    const { status } = await loadWith(ledger, blocks);
    expect(status).toMatchObject({
      valid: false,
      readOnly: true,
      firstInvalid: { index: 2, reason: `signature does not hold for the enrolled key of ${SARAH.id}` },
    });
  });

  it('names an unsigned block after the enrolment', async () => {
    const blocks = structuredClone(ledger.stored.blocks);
    blocks[1] = { ...blocks[1], signature: '' };
    const { service, status } = await loadWith(ledger, blocks);
    expect(status.firstInvalid).toEqual({ index: 1, reason: 'signature: the block is not signed' });
    expect((await service.listRecords(SARAH.id)).records.map((record) => record.title)).toEqual(['Initial health assessment']);
  });

  it('names a block whose data changed and was re-mined: the signature was made over the old hash', async () => {
    const blocks = structuredClone(ledger.stored.blocks);
    // Sarah's first upload written in clear under another title: legal as her first upload, so only the signature tells
    const changed = { ...(await uploadInClear(ledger.stored, blocks[1].data)), title: 'Forged panel' };
    const forged = mineBlock(blocks[0], changed, blocks[1].timestamp);
    blocks[1] = { ...forged, signature: blocks[1].signature };
    const { status } = await loadWith(ledger, blocks);
    expect(status.firstInvalid).toEqual({ index: 1, reason: `signature does not hold for the enrolled key of ${SARAH.id}` });
  });

  it('names a grant signed by a patient: the author may not write it', async () => {
    const blocks = structuredClone(ledger.stored.blocks);
    blocks[3] = await signBlock({ ...blocks[3], author: SARAH.id }, await userKey(ledger.stored, SARAH.id));
    const { status } = await loadWith(ledger, blocks);
    expect(status.firstInvalid).toEqual({
      index: 3,
      reason: `author may not write this (${SARAH.id} signed what only ${WILSON.id} may)`,
    });
  });

  it("names a doctor's read signed by another doctor", async () => {
    const blocks = structuredClone(ledger.stored.blocks);
    blocks[4] = await signBlock({ ...blocks[4], author: 'doctor-1' }, await userKey(ledger.stored, 'doctor-1'));
    const { status } = await loadWith(ledger, blocks);
    expect(status.firstInvalid?.index).toBe(4);
    expect(status.firstInvalid?.reason).toMatch(/^author may not write this/);
  });
});

// A chain long enough for the background check: the signed ledger, then Dr. Wilson's reads under his grant.
// until the background check settles, however busy the machine: the test's own timeout is the only limit
const SETTLED = { timeout: 25_000, interval: 20 };
const LONG_HEIGHT = 5800; // slices of 500, 2,500, 2,500 and 300 signatures
let longChain: Block[];
async function buildLongChain(): Promise<Block[]> {
  const blocks = structuredClone(ledger.stored.blocks);
  const [known] = [...project(blocks).grants.values()];
  const key = await userKey(ledger.stored, WILSON.id);
  const start = Date.parse(blocks[blocks.length - 1].timestamp);
  while (blocks.length < LONG_HEIGHT) {
    const at = iso(start + blocks.length);
    const record = emergencyRecord(crypto.randomUUID(), known.grant, 'read', at, { what: accessScope('basic').legacyRead });
    blocks.push(await signBlock(mineBlock(blocks[blocks.length - 1], record, at), key));
  }
  return blocks;
}

// Stands in for the worker's pool of checker workers: counts the slices in flight, and holds every slice
// after the first until `release()`, so a test sees the ledger shown before its signatures are all checked.
function heldChecker(lanes: number) {
  const publicKeys = new Map<string, Promise<CryptoKey>>();
  const sizes: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const checker: SignatureChecker = {
    lanes,
    async check(blocks, enrolment) {
      sizes.push(blocks.length);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        if (sizes.length > 1) await released;
        return await firstSignatureFailure(blocks, enrolment, publicKeys);
      } finally {
        inFlight -= 1;
      }
    },
  };
  return { checker, sizes, release, mostInFlight: () => mostInFlight };
}

async function loadLong(blocks: Block[], checker: SignatureChecker) {
  const storage = createMemoryStorage();
  const { stored, contents } = ledger;
  await storage.commit({ blocks, documents: stored.documents, contents, meta: stored.meta });
  const service = createTestLedgerService({ storage, now: ledger.clock.now, signatureChecker: checker });
  await signInAs(service, SARAH);
  return service;
}

describe('a long chain', () => {
  beforeAll(async () => {
    longChain = await buildLongChain();
  });

  it('is shown once its rules hold, then has every signature checked in order, a slice per checker at once', async () => {
    const held = heldChecker(2);
    const service = await loadLong(longChain, held.checker);
    expect(await service.chainStatus()).toMatchObject({ valid: true, signaturesChecked: 500, signaturesToCheck: LONG_HEIGHT });
    held.release();
    await vi.waitFor(async () => expect((await service.chainStatus()).signaturesChecked).toBe(LONG_HEIGHT), SETTLED);
    expect(held.sizes).toEqual([500, 2500, 2500, 300]);
    expect(held.mostInFlight()).toBe(2);
    expect((await service.chainStatus()).valid).toBe(true);
  });

  it('turns read-only when a signature found failing after it was shown', async () => {
    const blocks = [...longChain];
    blocks[4000] = { ...blocks[4000], signature: blocks[4001].signature };
    const held = heldChecker(2);
    const service = await loadLong(blocks, held.checker);
    expect(await service.chainStatus()).toMatchObject({ valid: true, readOnly: false });
    const changes: ChangeKind[][] = [];
    await service.onChange(((change: LedgerChange) => changes.push(change.kinds)) as never);
    held.release();
    await vi.waitFor(async () => expect((await service.chainStatus()).valid).toBe(false), SETTLED);
    expect(await service.chainStatus()).toMatchObject({
      readOnly: true,
      signaturesChecked: 4000,
      firstInvalid: { index: 4000, reason: `signature does not hold for the enrolled key of ${WILSON.id}` },
    });
    expect(changes.some((kinds) => kinds.includes('chain'))).toBe(true);
  });

  it('names the earlier of a failed hash and a failed signature, whichever check found it first', async () => {
    const editedAt1000 = (blocks: Block[]) => {
      blocks[1000] = { ...blocks[1000], data: { ...blocks[1000].data, description: 'edited' } };
      return blocks;
    };
    const badSignature = (blocks: Block[], index: number) => {
      blocks[index] = { ...blocks[index], signature: blocks[index + 1].signature };
      return blocks;
    };
    const later = heldChecker(2);
    later.release();
    const afterHash = await loadLong(badSignature(editedAt1000([...longChain]), 2000), later.checker);
    const hashFirst = (await afterHash.chainStatus()).firstInvalid;
    expect(hashFirst?.index).toBe(1000);
    expect(hashFirst?.reason).not.toMatch(/signature/);

    const earlier = heldChecker(2);
    earlier.release();
    const beforeHash = await loadLong(badSignature(editedAt1000([...longChain]), 100), earlier.checker);
    expect((await beforeHash.chainStatus()).firstInvalid).toEqual({
      index: 100,
      reason: `signature does not hold for the enrolled key of ${WILSON.id}`,
    });
  });
});

// The backend of a browser holding `blocks`, before anyone signs in.
async function backendOf(blocks: Block[]) {
  const storage = createMemoryStorage();
  const { stored, contents } = ledger;
  await storage.commit({ blocks, documents: stored.documents, contents, meta: stored.meta });
  const released = heldChecker(2);
  released.release();
  return createLedgerBackend(testDeps({ storage, now: ledger.clock.now, signatureChecker: released.checker }));
}

describe("a long chain's hashes and links", () => {
  beforeAll(async () => {
    longChain ??= await buildLongChain();
  });

  it('are checked after it is shown, and nothing is written before they hold', async () => {
    const { store } = await backendOf(longChain);
    await store.ready();
    // shown with its first slice checked (5,000 blocks): the rest follows in the next tasks
    expect(store.status()).toMatchObject({ valid: true, readOnly: false, height: LONG_HEIGHT, hashesChecked: 5000 });
    expect(store.state().height).toBe(LONG_HEIGHT);
    // every write takes the store's lock, which the load holds until the check is done
    const checkedWhenLocked = store.refresh().then(() => store.status().hashesChecked);
    expect(await checkedWhenLocked).toBe(LONG_HEIGHT);
    expect(store.status()).toMatchObject({ valid: true, readOnly: false });
  });

  it('turn the ledger read-only from a block whose hash fails, found after it was shown', async () => {
    const blocks = [...longChain];
    blocks[5500] = { ...blocks[5500], data: { ...blocks[5500].data, description: 'edited' } };
    const { store, service } = await backendOf(blocks);
    const changes: ChangeKind[][] = [];
    await service.onChange(((change: LedgerChange) => changes.push(change.kinds)) as never);
    await store.ready();
    expect(store.status()).toMatchObject({ valid: true, readOnly: false, hashesChecked: 5000 });
    await store.refresh(); // after the check
    expect(store.status()).toMatchObject({
      valid: false,
      readOnly: true,
      hashesChecked: LONG_HEIGHT,
      firstInvalid: { index: 5500, reason: 'record data was changed (data hash mismatch)' },
    });
    expect(store.state()).toEqual(project(blocks.slice(0, 5500)));
    expect(changes.some((kinds) => kinds.includes('chain'))).toBe(true);
    await signInAs(service, SARAH);
    expect((await errorOf(service.upload(uploadOf('After the check')))).name).toBe('ReadOnlyError');
  });
});

// Every field the signature covers (the author, and through the hash the index, link, time, data hash, nonce
// and record), and the signature itself.
const FIELDS = ['id', 'hash', 'previousHash', 'timestamp', 'dataHash', 'nonce', 'author', 'signature', 'title', 'patientId'];

function changed(block: Block, field: string, at: number): Block {
  const next = structuredClone(block);
  const flip = (text: string) => {
    const i = at % text.length;
    const alphabet = field === 'signature' ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef' : '0123456789abcdef';
    const replacement = alphabet[(alphabet.indexOf(text[i]) + 1 + (at % 7)) % alphabet.length];
    return (
      text.slice(0, i) +
      (replacement === text[i] ? alphabet[(alphabet.indexOf(replacement) + 1) % alphabet.length] : replacement) +
      text.slice(i + 1)
    );
  };
  if (field === 'nonce') next.nonce += 1 + (at % 5);
  else if (field === 'title' || field === 'patientId')
    (next.data as unknown as Record<string, string>)[field] = flip(block.data[field] || 'x');
  else (next as unknown as Record<string, string>)[field] = flip(String((block as unknown as Record<string, unknown>)[field]));
  return next;
}

describe('a single change to a signed field', () => {
  it('is named at the changed block, also when the block is re-mined so its hash holds again', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(...FIELDS),
        fc.nat(1000),
        fc.boolean(),
        async (index, field, at, remine) => {
          const blocks = structuredClone(ledger.stored.blocks);
          let block = changed(blocks[index], field, at);
          if (remine && ['timestamp', 'title', 'patientId'].includes(field)) {
            // a changed time or record re-mined: hash, link and data hash hold again, only the signature can tell
            const mined =
              index === 0
                ? createGenesisBlock(block.data, block.timestamp)
                : mineBlock(blocks[index - 1], block.data, block.timestamp);
            block = { ...mined, author: block.author, signature: block.signature };
          }
          blocks[index] = block;
          const { status } = await loadWith(ledger, blocks);
          expect(status.valid).toBe(false);
          expect(status.firstInvalid?.index).toBe(index);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('is named when a signature is written in another base64 spelling of other bytes', async () => {
    const blocks = structuredClone(ledger.stored.blocks);
    const bytes = fromBase64(blocks[1].signature);
    bytes[bytes.length - 1] ^= 1;
    blocks[1] = { ...blocks[1], signature: toBase64(bytes) };
    expect((await loadWith(ledger, blocks)).status.firstInvalid).toEqual({
      index: 1,
      reason: `signature does not hold for the enrolled key of ${SARAH.id}`,
    });
  });
});

describe('stored data of the version before signed blocks', () => {
  it('is recognised and named, its users can sign in, and Reset demo data starts a signed chain', async () => {
    const storage = createMemoryStorage();
    const { stored } = ledger;
    const unsigned = stored.blocks.map(({ author: _author, signature: _signature, ...block }) => block as Block);
    await storage.commit({ blocks: unsigned, meta: { [FORMAT_KEY]: 2, revision: 7 } });
    const service = createTestLedgerService({ storage });
    await signInAs(service, SARAH);
    expect(await service.chainStatus()).toMatchObject({
      valid: false,
      readOnly: true,
      firstInvalid: {
        index: 0,
        reason:
          'the records were stored by an earlier version of MedLedger, before blocks were signed, so no block says who wrote it',
      },
    });
    await service.resetDemoData();
    expect(await service.chainStatus()).toMatchObject({ valid: true, height: 1 });
    expect(await storage.readMeta(FORMAT_KEY)).toBe(LEDGER_FORMAT);
    expect((await service.upload(uploadOf('Signed at last'))).block.author).toBe(SARAH.id);
  });
});

describe("a care-network consent is a block of its patient's", () => {
  // Sarah's ledger ending with her consent withdrawn: block 5
  async function withdrawn() {
    const storage = createMemoryStorage();
    const service = createTestLedgerService({ storage, now: ledger.clock.now });
    await signInAs(service, SARAH);
    await service.setCareNetworkConsent(false);
    return storage;
  }

  it('names a consent signed by a doctor: only the patient may give or withdraw it', async () => {
    const storage = await withdrawn();
    const blocks = (await storage.load()).blocks;
    const consent = blocks.findIndex((block) => block.data.type === 'care_consent');
    blocks[consent] = await signBlock({ ...blocks[consent], author: WILSON.id }, await authorKey(storage, WILSON.id));
    await storage.commit({ blocks: [blocks[consent]] });
    const service = createTestLedgerService({ storage, now: ledger.clock.now });
    await signInAs(service, SARAH);
    expect((await service.chainStatus()).firstInvalid).toEqual({
      index: consent,
      reason: `author may not write this (${WILSON.id} signed what only ${SARAH.id} may)`,
    });
  });

  it('names a consent that repeats the choice in force, or names a doctor', async () => {
    for (const [edit, reason] of [
      [(record: ChainRecord) => ({ ...record, careNetwork: true }), 'a consent repeats the choice in force'],
      [(record: ChainRecord) => ({ ...record, doctorId: WILSON.id }), 'a consent names a doctor'],
    ] as const) {
      const storage = await withdrawn();
      const consent = (await storage.load()).blocks.findIndex((block) => block.data.type === 'care_consent');
      await reforge(storage, consent, edit);
      const service = createTestLedgerService({ storage, now: ledger.clock.now });
      await signInAs(service, SARAH);
      expect((await service.chainStatus()).firstInvalid).toEqual({ index: consent, reason });
    }
  });
});

// The same storage, loaded by a new worker whose read of every block waits for `release()`: a reload of a long ledger.
function reloadHeld(storage: LedgerStorage) {
  let release = () => {};
  let started = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const loadStarted = new Promise<void>((resolve) => (started = resolve)); // after the kept screen was read
  const slow: LedgerStorage = {
    ...storage,
    load: async (from) => {
      started();
      return held.then(() => storage.load(from));
    },
  };
  const released = heldChecker(2);
  released.release();
  const { service } = createLedgerBackend(testDeps({ storage: slow, now: ledger.clock.now, signatureChecker: released.checker }));
  return { service, release, loadStarted };
}

describe("a long ledger's kept first screen", () => {
  beforeAll(async () => {
    longChain ??= await buildLongChain();
  });

  // Sarah opens her dashboard on the long ledger: the answer is kept beside it.
  async function keptLedger() {
    const storage = createMemoryStorage();
    const { stored, contents } = ledger;
    await storage.commit({ blocks: longChain, documents: stored.documents, contents, meta: stored.meta });
    const released = heldChecker(2);
    released.release();
    const { service } = createLedgerBackend(testDeps({ storage, now: ledger.clock.now, signatureChecker: released.checker }));
    await signInAs(service, SARAH);
    const overview = await service.patientOverview();
    await vi.waitFor(async () => expect(await storage.readMeta(FIRST_SCREEN_KEY)).toBeDefined(), SETTLED);
    return { storage, service, overview };
  }

  it('is shown on the next load before the blocks are read, marked as last checked, and nothing else answers before them', async () => {
    const { storage, overview } = await keptLedger();
    const { service, release } = reloadHeld(storage);
    expect(await service.resumeSession(SARAH.id)).toMatchObject({ id: SARAH.id });
    const answered: string[] = [];
    const history = service.accessHistory().then(() => answered.push('access history'));
    expect(await service.patientOverview()).toEqual(overview);
    answered.push('kept overview');
    expect(await service.chainStatus()).toMatchObject({
      height: LONG_HEIGHT,
      valid: true,
      lastCheck: true,
      hashesChecked: 0,
      signaturesChecked: 0,
    });
    const changes: ChangeKind[][] = [];
    await service.onChange(((change: LedgerChange) => changes.push(change.kinds)) as never);
    release();
    await history;
    expect(answered).toEqual(['kept overview', 'access history']);
    // once the load is shown, the screens are told to ask again, and the answers come from the verified blocks
    await vi.waitFor(() => expect(changes.some((kinds) => kinds.includes('records'))).toBe(true), SETTLED);
    expect((await service.chainStatus()).lastCheck).toBeUndefined();
    expect(await service.patientOverview()).toEqual(overview);
  });

  it('is never trusted: one edited at rest shows until the load, then the verified answer replaces it', async () => {
    const { storage, overview } = await keptLedger();
    const kept = (await storage.readMeta(FIRST_SCREEN_KEY)) as { overview: { totalRecords: number } };
    await storage.commit({ meta: { [FIRST_SCREEN_KEY]: { ...kept, overview: { ...kept.overview, totalRecords: 999 } } } });
    const { service, release } = reloadHeld(storage);
    await service.resumeSession(SARAH.id);
    expect((await service.patientOverview()).totalRecords).toBe(999);
    release();
    await vi.waitFor(async () => expect(await service.patientOverview()).toEqual(overview), SETTLED);
    expect(overview.totalRecords).not.toBe(999);

    // one whose shape was broken is not shown at all: the dashboard waits for the load
    await storage.commit({ meta: { [FIRST_SCREEN_KEY]: { ...kept, overview: { ...kept.overview, recent: 'none' } } } });
    const broken = reloadHeld(storage);
    const answer = broken.service.resumeSession(SARAH.id).then(() => broken.service.patientOverview());
    await broken.loadStarted;
    broken.release();
    expect(await answer).toEqual(overview);
  });

  it('is not shown once the ledger changed since, nor to another user, nor after Logout', async () => {
    const { storage, service: first, overview: kept } = await keptLedger();
    await first.upload(uploadOf('After the kept screen'));
    const changed = reloadHeld(storage);
    // no kept screen of this revision: resumed, and answered, after the load
    const overview = changed.service.resumeSession(SARAH.id).then(() => changed.service.patientOverview());
    changed.release();
    expect((await overview).totalRecords).toBe(kept.totalRecords + 1);

    await signInAs(first, WILSON); // his session is stored; the kept screen is Sarah's
    const other = reloadHeld(storage);
    const status = other.service.resumeSession(WILSON.id).then(() => other.service.chainStatus());
    await other.loadStarted;
    other.release();
    expect((await status).lastCheck).toBeUndefined(); // the loaded chain's status, not Sarah's kept one

    await signInAs(first, SARAH);
    await first.patientOverview();
    await vi.waitFor(async () => expect(await storage.readMeta(FIRST_SCREEN_KEY)).toMatchObject({ userId: SARAH.id }), SETTLED);
    await first.signOut();
    expect(await storage.readMeta(FIRST_SCREEN_KEY)).toBeUndefined();
  });

  it('is not kept for a short ledger, which loads at once', async () => {
    const { service, storage } = await (async () => {
      const storage = createMemoryStorage();
      const { stored, contents } = ledger;
      await storage.commit({ blocks: stored.blocks, documents: stored.documents, contents, meta: stored.meta });
      return { service: createTestLedgerService({ storage, now: ledger.clock.now }), storage };
    })();
    await signInAs(service, SARAH);
    await service.patientOverview();
    await service.upload(uploadOf('Written after the answer')); // a later write: anything kept would be written by now
    expect(await storage.readMeta(FIRST_SCREEN_KEY)).toBeUndefined();
  });
});
