// Property tests over random records chains: any change to any stored field is named by verifyChain at
// exactly the block where the first check breaks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGenesisBlock, mineBlock, recordDataHash, verifyChain } from '../../workers/core/chain';
import { EMERGENCY_DURATIONS } from '../../workers/core/constants';
import type { Block, ChainRecord } from '../../workers/core/types';

const DIFFICULTY = 2;
const RUNS = 100;
const TIMEOUT_MS = 60_000; // CPU-bound mining of hundreds of random chains on a shared 2-core machine

// An independent JSON with sorted keys: two values are "the same" for this test only when it says so.
function referenceJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${referenceJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

const text = fc.string({ unit: 'grapheme', maxLength: 24 });
const isoDate = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString());
const hex64 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 });

const emergencyArb = fc.record(
  {
    grantId: fc.uuid(),
    event: fc.constantFrom('granted', 'read', 'ended', 'expired'),
    accessLevel: fc.constantFrom('basic', 'full'),
    reason: text,
    durationMinutes: fc.constantFrom(...EMERGENCY_DURATIONS),
    read: text,
  },
  { requiredKeys: ['grantId', 'event', 'accessLevel', 'reason', 'durationMinutes'] },
);

const recordArb: fc.Arbitrary<ChainRecord> = fc
  .record(
    {
      id: fc.uuid(),
      patientId: fc.constantFrom('patient-1', 'patient-2', 'sandbox'),
      doctorId: fc.constantFrom('doctor-1', 'doctor-2', ''),
      type: fc.constantFrom('diagnosis', 'prescription', 'test_report', 'emergency_access'),
      title: text,
      description: text,
      files: fc.array(
        fc.record({
          documentId: fc.uuid(),
          name: text,
          type: fc.constantFrom('application/pdf', 'image/png'),
          size: fc.nat(),
          cid: hex64.map((hex) => `Qm${hex.slice(0, 44)}`),
        }),
        { maxLength: 4 },
      ),
      timestamp: isoDate,
      isEmergencyAccess: fc.boolean(),
      emergencyAccessExpiry: isoDate,
      emergency: emergencyArb,
    },
    {
      requiredKeys: ['id', 'patientId', 'doctorId', 'type', 'title', 'description', 'files', 'timestamp'],
    },
  )
  .map((record) => record as unknown as ChainRecord); // any shape: the hash layer checks bytes, the projection checks meaning

function buildChain(records: readonly ChainRecord[]): Block[] {
  const blocks = [createGenesisBlock(records[0], records[0].timestamp, DIFFICULTY)];
  for (let i = 1; i < records.length; i++) blocks.push(mineBlock(blocks[i - 1], records[i], records[i].timestamp, DIFFICULTY));
  return blocks;
}

const chainArb = fc.array(recordArb, { minLength: 1, maxLength: 30 }).map(buildChain);

type Path = readonly (string | number)[];

// Every field a stored block holds, nested ones included (each data key, each emergency key, each document id).
function fieldPaths(block: Block): Path[] {
  const paths: Path[] = [['id'], ['hash'], ['previousHash'], ['timestamp'], ['nonce'], ['dataHash'], ['data']];
  for (const key of Object.keys(block.data)) paths.push(['data', key]);
  const data = block.data as unknown as { files?: unknown[]; emergency?: object };
  data.files?.forEach((_, i) => paths.push(['data', 'files', i]));
  for (const key of Object.keys(data.emergency ?? {})) paths.push(['data', 'emergency', key]);
  return paths;
}

function getAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);
}

// Sets (or, with `remove`, deletes) the field at `path`; arrays lose the element instead of keeping a hole.
function setAt(root: unknown, path: Path, value: unknown, remove: boolean): void {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  const key = path[path.length - 1];
  if (!remove) parent[key] = value;
  else if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
}

// What a tamperer can write into a field: any JSON value, a same-typed value, or the same value in another type.
type Edit =
  | { kind: 'replace'; value: unknown }
  | { kind: 'remove' }
  | { kind: 'wrap-in-array' }
  | { kind: 'as-string' }
  | { kind: 'as-number' }
  | { kind: 'append-text'; suffix: string };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant('replace' as const), value: fc.oneof(hex64, fc.maxSafeNat(), text, isoDate) }),
  fc.constant({ kind: 'remove' as const }),
  fc.constant({ kind: 'wrap-in-array' as const }),
  fc.constant({ kind: 'as-string' as const }),
  fc.constant({ kind: 'as-number' as const }),
  fc.record({ kind: fc.constant('append-text' as const), suffix: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }) }),
);

function editedValue(original: unknown, edit: Edit): unknown {
  switch (edit.kind) {
    case 'replace':
      return edit.value;
    case 'remove':
      return undefined;
    case 'wrap-in-array':
      return [original];
    case 'as-string':
      return typeof original === 'object' ? JSON.stringify(original) : String(original);
    case 'as-number':
      return Number(original);
    case 'append-text':
      return `${String(original)}${edit.suffix}`;
  }
}

// Applies the edit to a copy of the chain; null when the result is the same data as before (no change to find).
function tamper(blocks: Block[], index: number, path: Path, edit: Edit): Block[] | null {
  const copy = structuredClone(blocks);
  const original = getAt(copy[index], path);
  const value = editedValue(original, edit);
  setAt(copy[index], path, value, edit.kind === 'remove');
  return referenceJson(copy[index]) === referenceJson(blocks[index]) ? null : copy;
}

// The check that must fail first when only `path` of block `index` changed (checkBlock's order: id, link, data, nonce, header).
function expectedReason(index: number, path: Path, tampered: Block): RegExp {
  switch (path[0]) {
    case 'id':
      return /^id "/;
    case 'previousHash':
      return index === 0 ? /^previousHash of the genesis block/ : new RegExp(`^previousHash does not match block ${index - 1}$`);
    case 'dataHash':
      return /data hash mismatch/;
    case 'data':
      return tampered.data !== null && typeof tampered.data === 'object' ? /data hash mismatch/ : /malformed/;
    case 'nonce':
      return /^nonce is not a whole number$|^hash does not match the block header$/;
    default: // hash, timestamp: the header no longer hashes to the stored hash, or the field is not the type hashed
      return /^hash does not match the block header$|^timestamp /;
  }
}

describe('verifyChain on random chains', { timeout: TIMEOUT_MS }, () => {
  it('accepts every untouched random chain of 1 to 30 blocks', () => {
    fc.assert(
      fc.property(chainArb, (blocks) => {
        expect(verifyChain(structuredClone(blocks), DIFFICULTY)).toEqual({ valid: true, height: blocks.length });
      }),
      { numRuns: 50 },
    );
  });

  it('names the changed block and the failed check for any change to any field of any block', () => {
    // several edits per mined chain, each on its own copy: mining the chains is the slow part
    const tamperingArb = fc.tuple(fc.nat(), fc.nat(), editArb);
    fc.assert(
      fc.property(chainArb, fc.array(tamperingArb, { minLength: 1, maxLength: 8 }), (blocks, tamperings) => {
        for (const [blockPick, fieldPick, edit] of tamperings) {
          const index = blockPick % blocks.length;
          const paths = fieldPaths(blocks[index]);
          const path = paths[fieldPick % paths.length];
          const tampered = tamper(blocks, index, path, edit);
          if (tampered === null) continue; // the edit wrote back the same data
          const where = `${edit.kind} on ${path.join('.')} of block ${index}`;
          const result = verifyChain(tampered, DIFFICULTY);
          expect(result.valid, where).toBe(false);
          expect(result.firstInvalid?.index, where).toBe(index);
          expect(result.firstInvalid?.reason, where).toMatch(expectedReason(index, path, tampered[index]));
          expect(result.height).toBe(blocks.length);
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('reaches every field kind: each header field, the record, each record key, each file and emergency details', () => {
    // Guards the property above against a generator that silently stops producing some paths.
    const seen = new Set<string>();
    fc.assert(
      fc.property(chainArb, (blocks) => {
        for (const block of blocks)
          for (const path of fieldPaths(block)) seen.add(path.map((key) => (typeof key === 'number' ? '#' : key)).join('.'));
      }),
      { numRuns: 60 },
    );
    for (const field of [
      'id',
      'hash',
      'previousHash',
      'timestamp',
      'nonce',
      'dataHash',
      'data',
      'data.title',
      'data.files.#',
      'data.emergency.reason',
      'data.emergency.read',
      'data.emergencyAccessExpiry',
    ]) {
      expect(seen, field).toContain(field);
    }
  });

  it('names the lowest changed block when several blocks change', () => {
    fc.assert(
      fc.property(
        chainArb.filter((blocks) => blocks.length >= 2),
        fc.uniqueArray(fc.nat(), { minLength: 2, maxLength: 5 }),
        text,
        (blocks, picks, suffix) => {
          const indexes = [...new Set(picks.map((pick) => pick % blocks.length))];
          const copy = structuredClone(blocks);
          for (const index of indexes) copy[index].data.title = `${copy[index].data.title}!${suffix}`;
          expect(verifyChain(copy, DIFFICULTY).firstInvalid?.index).toBe(Math.min(...indexes));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('after a change that is re-mined, names the next block, whose link now breaks; a re-mined tip passes (no outside anchor)', () => {
    fc.assert(
      fc.property(chainArb, fc.nat(), text, (blocks, pick, suffix) => {
        const index = pick % blocks.length;
        const copy = structuredClone(blocks);
        const changed = { ...copy[index].data, title: `${copy[index].data.title}#${suffix}` };
        // the tamperer recomputes everything block `index` vouches for: data hash, nonce and hash
        copy[index] =
          index === 0
            ? createGenesisBlock(changed, copy[0].timestamp, DIFFICULTY)
            : mineBlock(copy[index - 1], changed, copy[index].timestamp, DIFFICULTY);
        expect(copy[index].dataHash).toBe(recordDataHash(changed));
        const result = verifyChain(copy, DIFFICULTY);
        if (index === blocks.length - 1) {
          expect(result).toEqual({ valid: true, height: blocks.length });
        } else {
          expect(result.firstInvalid).toEqual({ index: index + 1, reason: `previousHash does not match block ${index}` });
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('names the first moved block when a stored block is removed or two blocks swap places', () => {
    fc.assert(
      fc.property(
        chainArb.filter((blocks) => blocks.length >= 2),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (blocks, a, b, remove) => {
          const i = a % blocks.length;
          const j = b % blocks.length;
          const copy = structuredClone(blocks);
          if (remove) {
            fc.pre(i < blocks.length - 1); // dropping the tip leaves a shorter valid chain: nothing in it can tell
            copy.splice(i, 1);
          } else {
            fc.pre(i !== j);
            [copy[i], copy[j]] = [copy[j], copy[i]];
          }
          const first = remove ? i : Math.min(i, j);
          const moved = remove ? i + 1 : Math.max(i, j); // the index the block now at `first` was mined for
          expect(verifyChain(copy, DIFFICULTY).firstInvalid).toEqual({
            index: first,
            reason: `id "${moved}" does not match index ${first}`,
          });
        },
      ),
      { numRuns: RUNS },
    );
  });
});
