// Verification never throws on stored data: any field of any kind of record, set to an extreme date, number or
// text and mined again (so only the rules can tell), gives a named first invalid block or a chain that holds.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createGenesisBlock, mineBlock } from '../../workers/core/chain';
import { DIFFICULTY } from '../../workers/core/constants';
import { verifyLedger, type LedgerState } from '../../workers/core/projection';
import { firstSignatureFailure } from '../../workers/core/signatures';
import type { Block, ChainRecord, KeyEnrolment } from '../../workers/core/types';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { SARAH, WILSON, createClock, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

const MINUTE = 60_000;

// A chain holding every kind of record: the genesis diagnosis, a prescription and a two-file test report,
// a share with a read, a grant with reads and an end, a grant that expired, an acknowledgement, a revoke, a deletion.
async function everyKind(): Promise<Block[]> {
  const clock = createClock();
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage, now: clock.now });
  await signInAs(service, SARAH);
  await service.upload(uploadOf('Repeat prescription', [fileInput('rx.pdf')], { type: 'prescription' }));
  const { record } = await service.upload(uploadOf('Scans', [fileInput('a.pdf', 'a'), fileInput('b.png', 'b')]));
  const share = await service.shareRecords({ doctorId: WILSON.id, accessLevel: 'full', durationDays: 7, note: 'Second opinion' });
  await signInAs(service, WILSON);
  await service.sharedView(share.id);
  await service.readDocument(record.documentIds[0]);
  const grant = await service.requestEmergencyAccess({
    patientId: SARAH.id,
    reason: 'ER',
    accessLevel: 'full',
    durationMinutes: 15,
  });
  await service.emergencyView(grant.id);
  await service.endEmergencyAccess(grant.id);
  await service.requestEmergencyAccess({ patientId: SARAH.id, reason: 'ER', accessLevel: 'basic', durationMinutes: 15 });
  clock.advance(16 * MINUTE);
  await signInAs(service, SARAH);
  await service.acknowledgeEmergencyAccesses(); // the expiry is recorded first
  await service.revokeShare(share.id);
  await service.deleteDocument(record.documentIds[1]);
  return (await storage.load()).blocks;
}

const LAST = 8.64e15; // ms: the largest time a Date holds
const extremeTimes = fc.oneof(
  fc.constantFrom(
    new Date(LAST).toISOString(), // +275760-09-13T00:00:00.000Z
    new Date(LAST - MINUTE).toISOString(),
    new Date(-LAST).toISOString(),
    '+275760-09-13T00:00:00.001Z',
    '275760-09-13T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '+010000-01-01T00:00:00.000Z',
    '1999-12-31T23:59:59.999Z',
    '1970-01-01T00:00:00.000Z',
    '2026-06-30T23:59:60.000Z', // a leap second
    '2026-06-30T23:59:60Z',
    '2026-03-02T10:00:00Z',
    '2026-03-02',
    ' 2026-03-02T10:00:00.000Z',
    'NaN',
    'Invalid Date',
    '',
  ),
  fc.date().map((date) => (Number.isNaN(date.getTime()) ? 'Invalid Date' : date.toISOString())),
);
const extremeNumbers = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, -1, 0.5, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), 1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double(),
);
const longText = fc.constantFrom('x'.repeat(60_000), `${'\u0301'.repeat(40_000)}a`, 'a\u202Eb', '\uD800', '\u0000');
const otherValues = fc.constantFrom<unknown>(
  null,
  true,
  [],
  {},
  [{}],
  { toString: 1, valueOf: 1 }, // String() of it throws
  JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
);
const extremeValue = fc.oneof(extremeTimes, extremeNumbers, longText, fc.string(), otherValues);

// Every path into a record, its inner objects and lists included: any of them may be replaced.
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const inner = Object.entries(value).flatMap(([key, child]) =>
    paths(child, [...prefix, Array.isArray(value) ? Number(key) : key]),
  );
  return prefix.length === 0 ? inner : [prefix, ...inner];
}

function withValue(record: ChainRecord, path: (string | number)[], value: unknown): ChainRecord {
  const copy = structuredClone(record) as unknown as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1)!] = value;
  return copy as unknown as ChainRecord;
}

type Edit =
  | { kind: 'field'; block: number; path: number; value: unknown } // a record field, mined again
  | { kind: 'time'; block: number; time: string } // the block's time and its record's, mined again
  | { kind: 'header'; block: number; field: keyof Block; value: unknown }; // as stored, not mined again

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('field' as const), block: fc.nat(), path: fc.nat(), value: extremeValue }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant('time' as const), block: fc.nat(), time: extremeTimes }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('header' as const),
      block: fc.nat(),
      field: fc.constantFrom<keyof Block>('id', 'timestamp', 'nonce', 'author', 'hash', 'previousHash', 'dataHash', 'signature'),
      value: extremeValue,
    }),
    weight: 2,
  },
);

// The chain with `edit` made, every block after it mined again on top.
function edited(blocks: readonly Block[], edit: Edit): Block[] {
  const at = edit.block % blocks.length;
  const next = blocks.slice(0, at);
  const target = blocks[at];
  if (edit.kind === 'header') return [...next, { ...target, [edit.field]: edit.value } as Block, ...blocks.slice(at + 1)];
  let record = target.data;
  let time = target.timestamp;
  if (edit.kind === 'field') {
    const all = paths(record);
    record = withValue(record, all[edit.path % all.length], edit.value);
    if (typeof record.timestamp === 'string') time = record.timestamp; // a forger keeps the two times equal
  } else {
    record = { ...record, timestamp: edit.time };
    time = edit.time;
  }
  const mined = at === 0 ? createGenesisBlock(record, time) : mineBlock(next[at - 1], record, time);
  // stored as edited: NaN, Infinity and -0 hash as canonical JSON writes them (null, null, 0), so the hash holds
  next.push({ ...mined, data: record });
  for (let i = at + 1; i < blocks.length; i++) next.push(mineBlock(next[i - 1], blocks[i].data, blocks[i].timestamp));
  return next;
}

// Every time the state holds: of the tip, each document, grant, share and read.
function timesOf(state: LedgerState): string[] {
  const grants = [...state.grants.values()];
  const shares = [...state.shares.values()];
  return [
    state.lastTimestamp,
    ...[...state.documents.values()].flatMap((document) => [document.uploadDate, document.deletedAt ?? document.uploadDate]),
    ...grants.flatMap(({ grant }) => [grant.createdAt, grant.expiresAt, grant.endedAt ?? grant.createdAt]),
    ...shares.flatMap(({ share }) => [share.createdAt, share.expiresAt ?? share.createdAt, share.revokedAt ?? share.createdAt]),
    ...[...grants, ...shares].flatMap(({ reads }) => reads.map((read) => read.at)),
  ];
}

let chain: Block[] = [];
let enrolment: KeyEnrolment;

beforeAll(async () => {
  chain = await everyKind();
  enrolment = verifyLedger(chain, DIFFICULTY).state.enrolment!;
});

describe('a stored chain with an extreme value in any field of any record', () => {
  it('holds every kind of record before any edit', () => {
    const kinds = new Set(chain.map((block) => block.data.type));
    expect([...kinds].sort()).toEqual(
      [
        'access_acknowledged',
        'access_shared',
        'diagnosis',
        'document_deleted',
        'emergency_access',
        'prescription',
        'test_report',
      ].sort(),
    );
    expect(verifyLedger(chain, DIFFICULTY).firstInvalid).toBeUndefined();
  });

  it('is verified to a named first invalid block or accepted, never with an exception', () => {
    fc.assert(
      fc.property(editArb, (edit) => {
        const blocks = edited(chain, edit);
        const verified = verifyLedger(blocks, DIFFICULTY);
        if (verified.firstInvalid) {
          // the edited block, or a later one its change broke (a time gone back, a grant no longer known)
          expect(verified.firstInvalid.index).toBeGreaterThanOrEqual(edit.block % chain.length);
          expect(verified.firstInvalid.reason).toMatch(/\S/);
          expect(verified.state.height).toBe(verified.firstInvalid.index);
        } else {
          // accepted: every time the screens will format or compare is a time
          for (const time of timesOf(verified.state)) expect(new Date(time).toISOString()).toBe(time);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("has its blocks' signatures checked to a named failure, never with an exception", async () => {
    await fc.assert(
      fc.asyncProperty(
        editArb.filter((edit) => edit.kind === 'header'),
        async (edit) => {
          const blocks = edited(chain, edit);
          const parts = blocks.map(({ author, hash, signature }) => ({ author, hash, signature }));
          const failure = await firstSignatureFailure(parts, enrolment, new Map());
          if (failure) expect(failure.reason).toMatch(/^signature/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
