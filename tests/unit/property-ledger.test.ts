// The ledger's state is a projection of its stored chain: whatever users did, a reload shows the same;
// any single edit of a stored item (a block, a block re-mined and re-signed by its author, a key, the bytes, the
// stored meta: revision, format, keys, session) is detected at load, refuses sign-in, or changes nothing anyone
// can read; and Reset always starts over.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LedgerService } from '../../workers/api';
import { project, verifyLedger } from '../../workers/core/projection';
import { DIFFICULTY, EMERGENCY_DURATIONS, SHARE_DURATIONS_DAYS } from '../../workers/core/constants';
import { DOCTORS, PATIENTS } from '../../workers/core/directory';
import type { Block, User } from '../../workers/core/types';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { FORMAT_KEY, KEYS_KEY, REVISION_KEY, SESSION_KEY, type LedgerStorage } from '../../workers/storage/ledger-storage';
import { createGenesisBlock, mineBlock } from '../../workers/core/chain';
import { LEDGER_AUTHOR, signBlock, type StoredKeys } from '../../workers/core/signatures';
import { SEALED_FILE } from '../../workers/ledger/sealing';
import { authorKey } from '../support/forged-blocks';
import { createClock, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

const USERS: User[] = [...PATIENTS, ...DOCTORS];

type Op =
  | { kind: 'upload'; user: number; files: number }
  | { kind: 'delete'; user: number; pick: number }
  | { kind: 'grant'; user: number; patient: number; level: 'basic' | 'full'; duration: number }
  | { kind: 'end'; user: number; pick: number }
  | { kind: 'view'; user: number; pick: number }
  | { kind: 'read'; user: number; pick: number }
  | { kind: 'acknowledge'; user: number }
  | { kind: 'share'; user: number; doctor: number; level: 'basic' | 'full'; days: number }
  | { kind: 'revoke'; user: number; pick: number }
  | { kind: 'sharedView'; user: number; pick: number }
  | { kind: 'wait'; minutes: number }
  | { kind: 'reset'; user: number };

const user = fc.nat({ max: USERS.length - 1 });
const pick = fc.nat({ max: 20 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('upload' as const), user, files: fc.integer({ min: 1, max: 3 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), user, pick }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('grant' as const),
      user,
      patient: fc.nat({ max: PATIENTS.length - 1 }),
      level: fc.constantFrom('basic' as const, 'full' as const),
      duration: fc.constantFrom(...EMERGENCY_DURATIONS),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('end' as const), user, pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('view' as const), user, pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('read' as const), user, pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('acknowledge' as const), user }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('share' as const),
      user,
      doctor: fc.nat({ max: DOCTORS.length - 1 }),
      level: fc.constantFrom('basic' as const, 'full' as const),
      days: fc.constantFrom(...SHARE_DURATIONS_DAYS),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('revoke' as const), user, pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('sharedView' as const), user, pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('wait' as const), minutes: fc.integer({ min: 0, max: 300 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('reset' as const), user }), weight: 1 },
);

// Runs the calls as the users would; refusals (access denied, deleted, ...) are part of any real session.
async function play(ops: readonly Op[]) {
  const clock = createClock();
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage, now: clock.now });
  const documents: string[] = [];
  const grants: string[] = [];
  const shares: string[] = [];
  const at = <T>(list: T[], i: number) => list[i % Math.max(1, list.length)];
  for (const op of ops) {
    if (op.kind === 'wait') {
      clock.advance(op.minutes * 60_000);
      continue;
    }
    await signInAs(service, USERS[op.user]);
    const call = async () => {
      switch (op.kind) {
        case 'upload': {
          const files = Array.from({ length: op.files }, (_, i) =>
            fileInput(`scan-${documents.length}-${i}.pdf`, `bytes ${documents.length} ${i}`),
          );
          documents.push(...(await service.upload(uploadOf(`Upload ${documents.length}`, files))).record.documentIds);
          return;
        }
        case 'delete':
          return service.deleteDocument(at(documents, op.pick));
        case 'grant':
          grants.push(
            (
              await service.requestEmergencyAccess({
                patientId: PATIENTS[op.patient].id,
                reason: 'ER',
                accessLevel: op.level,
                durationMinutes: op.duration,
              })
            ).id,
          );
          return;
        case 'end':
          return service.endEmergencyAccess(at(grants, op.pick));
        case 'view':
          return service.emergencyView(at(grants, op.pick));
        case 'read':
          return service.readDocument(at(documents, op.pick));
        case 'acknowledge':
          return service.acknowledgeEmergencyAccesses();
        case 'share':
          shares.push(
            (await service.shareRecords({ doctorId: DOCTORS[op.doctor].id, accessLevel: op.level, durationDays: op.days })).id,
          );
          return;
        case 'revoke':
          return service.revokeShare(at(shares, op.pick));
        case 'sharedView':
          return service.sharedView(at(shares, op.pick));
        case 'reset':
          return service.resetDemoData();
      }
    };
    await call().catch((error: Error) => {
      if (!['AccessDeniedError', 'NotFoundError', 'ValidationError'].includes(error.name)) throw error;
    });
  }
  await signInAs(service, USERS[0]); // the stored ledger exists even when every call was a wait
  return { storage, clock, documents };
}

// Everything each user can see, without any call that writes (emergency views and reads log on the chain).
async function everyView(service: LedgerService, documents: readonly string[]) {
  const seen: Record<string, unknown> = {};
  for (const who of USERS) {
    if (!(await signInAs(service, who).then(() => true, refusedSignIn))) {
      seen[who.id] = { refused: 'LoginError' };
      continue;
    }
    const view: Record<string, unknown> = {
      status: await service.chainStatus(),
      blocks: await service.blocksPage(0, 500),
      activeGrants: await service.activeGrants(),
    };
    if (who.role === 'patient') {
      view.overview = await service.patientOverview();
      view.records = (await service.listRecords(who.id)).records;
      view.history = await service.accessHistory();
      view.shares = await service.myShares();
    } else {
      view.overview = await service.doctorOverview();
      view.records = await Promise.all(who.patients.map((id) => service.listRecords(id)));
      view.sharedWithMe = await service.sharedWithMe();
    }
    if (who.role === 'patient') {
      view.documents = await Promise.all(
        documents.map((id) =>
          service.readDocument(id).then(
            (content) => ({ id, bytes: [...new Uint8Array(content.bytes)] }),
            (error: Error) => ({ id, refused: error.name }),
          ),
        ),
      );
    }
    seen[who.id] = view;
  }
  return seen;
}

async function reloaded(storage: LedgerStorage, now: () => number) {
  return createTestLedgerService({ storage, now });
}

describe('the projection of the stored chain', () => {
  it('equals the state before a reload, after any sequence of calls by any users', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 18 }), async (ops) => {
        const { storage, clock, documents } = await play(ops);
        const before = createTestLedgerService({ storage, now: clock.now });
        await signInAs(before, USERS[0]);
        await before.chainStatus(); // records any expiry that is due, so both sides see the same chain
        const expected = await everyView(before, documents);
        expect(await everyView(await reloaded(storage, clock.now), documents)).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('is the same whether the blocks are folded at once or resumed part way, as another tab does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 18 }), fc.nat(), async (ops, cut) => {
        const { storage } = await play(ops);
        const blocks = (await storage.load()).blocks;
        const whole = verifyLedger(blocks, DIFFICULTY);
        expect(whole.firstInvalid).toBeUndefined();
        const part = verifyLedger(blocks.slice(0, 1 + (cut % blocks.length)), DIFFICULTY);
        expect(verifyLedger(blocks, DIFFICULTY, part)).toEqual(whole);
        expect(project(blocks)).toEqual(whole.state);
      }),
      { numRuns: 30 },
    );
  });
});

type Json = fc.JsonValue;
type Edit =
  | { item: 'block'; index: number; path: number; value: Json }
  | { item: 'key'; pick: number; hex: string }
  | { item: 'bytes'; pick: number; byte: number }
  | { item: 'invented key'; id: string }
  | { item: 'reforged block'; index: number; path: number; value: Json } // re-mined, re-signed by its author
  | { item: 'meta'; key: typeof REVISION_KEY | typeof FORMAT_KEY; value: unknown }
  | { item: 'stored keys'; path: number; value: unknown }
  | { item: 'session'; change: 'user' | 'key' | 'whole'; pick: number; value: unknown };

const hex64 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 });
// What a stored meta entry may be edited to: any JSON, and the numbers JSON cannot hold.
const metaValue = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom<unknown>(NaN, Infinity, -Infinity, -0, 2 ** 53, -1, 1.5, 1e9, undefined, ''),
);
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ item: fc.constant('block' as const), index: fc.nat(), path: fc.nat(), value: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ item: fc.constant('key' as const), pick: fc.nat(), hex: hex64 }),
  fc.record({ item: fc.constant('bytes' as const), pick: fc.nat(), byte: fc.nat({ max: 10_000 }) }),
  fc.record({ item: fc.constant('invented key' as const), id: fc.uuid() }),
  fc.record({
    item: fc.constant('reforged block' as const),
    index: fc.nat(),
    path: fc.nat(),
    value: fc.jsonValue({ maxDepth: 1 }),
  }),
  fc.record({ item: fc.constant('meta' as const), key: fc.constantFrom(REVISION_KEY, FORMAT_KEY), value: metaValue }),
  fc.record({ item: fc.constant('stored keys' as const), path: fc.nat(), value: metaValue }),
  fc.record({
    item: fc.constant('session' as const),
    change: fc.constantFrom('user' as const, 'key' as const, 'whole' as const),
    pick: fc.nat(),
    value: metaValue,
  }),
);

// Every leaf of a block: its header fields and each field of its record, nested ones included.
function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, [...prefix, Array.isArray(value) ? Number(key) : key]));
}

function setAt(target: object, path: (string | number)[], value: unknown): void {
  let parent = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1)!] = value;
}

// Every entry of the stored keys a forger could change: each table, each user's key and each of its fields.
function keyPaths(keys: StoredKeys): (string | number)[][] {
  const users = Object.entries(keys.users).flatMap(([id, key]) => [
    ['users', id],
    ...Object.keys(key).map((field) => ['users', id, field]),
  ]);
  return [['algorithm'], ['users'], ['ledger'], ['ledger', 'publicKey'], ['ledger', 'privateKey'], ...users];
}

// Block `index` with one field of its record changed, mined again on the stored block before it and signed
// with its author's real key (the forger knows the demo password). The blocks after it are left as stored.
async function reforgeOne(storage: LedgerStorage, blocks: Block[], index: number, path: number, value: Json) {
  const record = structuredClone(blocks[index].data);
  const paths = leafPaths(record);
  setAt(record, paths[path % paths.length], value);
  const time = typeof record.timestamp === 'string' ? record.timestamp : blocks[index].timestamp;
  const mined = index === 0 ? createGenesisBlock(record, time) : mineBlock(blocks[index - 1], record, time);
  const signer =
    USERS.some((user) => user.id === mined.author) || mined.author === LEDGER_AUTHOR ? mined.author : blocks[index].author;
  await storage.commit({ blocks: [await signBlock(mined, await authorKey(storage, signer))] });
}

// Makes the edit; says whether it is the one change nobody can tell from a real one: the author of the tip
// block writing it again, as they could have written it in the first place; and which file's key it changed, if any.
async function applyEdit(storage: LedgerStorage, edit: Edit): Promise<{ legitimate: boolean; changedKey?: string }> {
  const stored = await storage.load();
  if (edit.item === 'block') {
    const block = structuredClone(stored.blocks[edit.index % stored.blocks.length]);
    const paths = leafPaths(block);
    setAt(block, paths[edit.path % paths.length], edit.value);
    await storage.commit({ blocks: [block as Block] });
  } else if (edit.item === 'key' && stored.documents.length > 0) {
    const row = stored.documents[edit.pick % stored.documents.length];
    await storage.commit({ documents: [{ id: row.id, encryptionKey: edit.hex }] });
    if (row.encryptionKey !== edit.hex) return { legitimate: false, changedKey: row.id };
  } else if (edit.item === 'bytes' && stored.contentIds.length > 0) {
    const id = stored.contentIds[edit.pick % stored.contentIds.length];
    const bytes = new Uint8Array((await storage.readContent(id))!);
    bytes[edit.byte % bytes.length] ^= 0x01;
    await storage.commit({ contents: [{ id, bytes: bytes.buffer }] });
  } else if (edit.item === 'invented key') {
    await storage.commit({ documents: [{ id: edit.id, encryptionKey: 'a'.repeat(64) }] });
  } else if (edit.item === 'reforged block') {
    const index = edit.index % stored.blocks.length;
    await reforgeOne(storage, stored.blocks, index, edit.path, edit.value);
    return { legitimate: index === stored.blocks.length - 1 };
  } else if (edit.item === 'meta') {
    await storage.commit({ meta: { [edit.key]: edit.value } });
  } else if (edit.item === 'stored keys') {
    const keys = stored.meta[KEYS_KEY] as StoredKeys;
    const paths = keyPaths(keys);
    setAt(keys, paths[edit.path % paths.length], edit.value);
    await storage.commit({ meta: { [KEYS_KEY]: keys } });
  } else if (edit.item === 'session') {
    const session = stored.meta[SESSION_KEY] as { userId: string; signingKey: CryptoKey };
    if (edit.change === 'user') session.userId = USERS[edit.pick % USERS.length].id;
    if (edit.change === 'key') session.signingKey = edit.value as CryptoKey;
    await storage.commit({ meta: { [SESSION_KEY]: edit.change === 'whole' ? edit.value : session } });
  }
  return { legitimate: false };
}

// The status seen by the first user who can still sign in, or null when nobody can.
async function firstStatus(service: LedgerService) {
  for (const who of USERS) {
    if (await signInAs(service, who).then(() => true, refusedSignIn)) return service.chainStatus();
  }
  return null;
}

// A refused sign-in is a LoginError, whatever broke.
function refusedSignIn(error: Error): false {
  expect(error.name).toBe('LoginError');
  return false;
}

// What `view` shows once the key of file `documentId` is not the one it was sealed under: the file's name and type
// were sealed under that key, so they no longer open and it reads as a sealed file (its bytes are refused on read).
// Nothing of the file is shown: not its name in a list, a record's first file or a read in the access history.
function withFileSealed(view: unknown, documentId: string): unknown {
  let name: string | undefined;
  const findName = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    const item = value as Record<string, unknown>;
    if (item.id === documentId && typeof item.fileName === 'string') name = item.fileName;
    Object.values(item).forEach(findName);
  };
  findName(view);
  const sealed = (value: unknown): unknown => {
    if (typeof value === 'string') return name && value === `document "${name}"` ? `document "${SEALED_FILE}"` : value;
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(sealed);
    const item = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, sealed(child)]));
    if (item.id === documentId && 'fileName' in item) return { ...item, fileName: SEALED_FILE, fileType: '' };
    const documents = item.documents as { id?: string }[] | undefined;
    if (Array.isArray(documents) && documents[0]?.id === documentId && 'fileName' in item)
      return { ...item, fileName: SEALED_FILE };
    return item;
  };
  return sealed(view);
}

describe('a single edit of any stored item', () => {
  it('is detected at load, refuses sign-in, or changes nothing any user can read (a changed file is refused, never shown)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), editArb, async (ops, edit) => {
        const { storage, clock, documents } = await play(ops);
        const before = createTestLedgerService({ storage, now: clock.now });
        await signInAs(before, USERS[0]);
        await before.chainStatus();
        const expected = await everyView(before, documents);
        const owner = ((await storage.readMeta(SESSION_KEY)) as { userId: string }).userId;
        const { legitimate, changedKey } = await applyEdit(storage, edit);
        // a stored session resumes only for its own user with the key it holds: an edited one for nobody
        const resumer = await reloaded(storage, clock.now);
        for (const who of USERS) {
          const resumed = await resumer.resumeSession(who.id);
          if (resumed) expect([resumed.id, edit.item === 'session' && edit.change !== 'user']).toEqual([owner, false]);
        }
        const after = await reloaded(storage, clock.now);
        const status = await firstStatus(after);
        if (!status) {
          expect(edit.item).toBe('stored keys'); // only broken keys lock everyone out
          return;
        }
        if (status.valid && !legitimate) {
          const seen = await everyView(after, documents);
          for (const who of USERS) {
            const { documents: read, ...rest } = seen[who.id] as Record<string, unknown>;
            const { documents: readBefore, ...restBefore } = expected[who.id] as Record<string, unknown>;
            if (rest.refused) {
              expect([rest.refused, edit.item]).toEqual(['LoginError', 'stored keys']);
              continue;
            }
            // a changed key is not shown either: the name sealed under it no longer opens
            expect(rest).toEqual(changedKey ? withFileSealed(restBefore, changedKey) : restBefore);
            ((read ?? []) as { id: string; refused?: string }[]).forEach((result, i) => {
              if (result.refused === 'IntegrityError') return; // the changed bytes or key are refused on read
              expect(result).toEqual((readBefore as unknown[])[i]);
            });
          }
        } else if (!status.valid) {
          expect(status.firstInvalid?.reason).toMatch(/\S/); // named in the banner, read-only
        }
        // whatever else was edited, a user who can sign in can start over, unless the ledger still verifies and a
        // reset would erase what someone else wrote (workers/ledger/policy.ts)
        const trusted = (await firstStatus(after))?.valid ?? false;
        const verdict = await after.resetAllowed();
        if (!verdict.allowed) {
          expect(trusted).toBe(true);
          expect(verdict.reason).toMatch(/written by/);
          return;
        }
        await after.resetDemoData();
        expect(await after.chainStatus()).toMatchObject({ valid: true, height: 1 });
      }),
      {
        numRuns: 60,
        // the edits that once broke the app for good, tried on every run of the suite
        examples: [
          // a reader's damaged decryption key signed them in to see their share's sealed note as sealed
          [[{ kind: 'share', user: 0, doctor: 0, level: 'basic', days: 1 }], { item: 'stored keys', path: 1593057245, value: 0 }],
          [[{ kind: 'upload', user: 0, files: 1 }], { item: 'meta', key: REVISION_KEY, value: NaN }],
          [[{ kind: 'upload', user: 0, files: 1 }], { item: 'meta', key: REVISION_KEY, value: Infinity }],
          [[{ kind: 'upload', user: 0, files: 1 }], { item: 'stored keys', path: 9, value: 1e9 }],
          // a wrapped key's field emptied: a reset must not enrol it (found by this property after the reset rules changed)
          [[{ kind: 'grant', user: 0, patient: 0, level: 'basic', duration: 15 }], { item: 'stored keys', path: 22, value: '' }],
          [[{ kind: 'upload', user: 0, files: 1 }], { item: 'session', change: 'user', pick: 1, value: null }],
          [[{ kind: 'upload', user: 0, files: 1 }], { item: 'reforged block', index: 1, path: 5, value: 'Forged' }], // the tip: legitimate
          // a changed key: the file's sealed name no longer opens, in her records and in the read Dr. Wilson made of it
          [
            [
              { kind: 'upload', user: 0, files: 1 },
              { kind: 'grant', user: 3, patient: 0, level: 'full', duration: 15 },
              { kind: 'read', user: 3, pick: 0 },
            ],
            { item: 'key', pick: 0, hex: '0'.repeat(64) },
          ],
          [
            [
              { kind: 'upload', user: 0, files: 1 },
              { kind: 'upload', user: 0, files: 1 },
            ],
            { item: 'reforged block', index: 1, path: 5, value: 'Forged' }, // not the tip: its successor's link breaks
          ],
        ],
      },
    );
  });
});
