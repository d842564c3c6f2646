// Node part of `npm run bench`: the ledger core's hashing, mining and verification speed on the pure-JS
// js-sha256 path the browser runs (run.mjs aliases js-sha256 to its browser source). Prints a table.
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { sha256 } from 'js-sha256';
import { blockTemplate, createGenesisBlock, mineBlock, verifyChain } from '../../workers/core/chain';
import { DIFFICULTY } from '../../workers/core/constants';
import { mineBlockAsync } from '../../workers/core/mining';
import { createNonceSearch } from '../../workers/core/nonce-search';
import { apply, project, ruleProblem, verifyLedger, type LedgerState } from '../../workers/core/projection';
import { sha256Words } from '../../workers/core/sha256';
import { copyState } from '../../workers/core/state-copy';
import type { Block, ChainRecord } from '../../workers/core/types';
import { benchRecords, countKinds } from './bench-chain';

export interface BenchRow {
  section: string;
  name: string;
  value: number;
  unit: string;
  note?: string;
}

export interface CoreBenchReport {
  startedAt: string;
  node: string;
  cpu: string;
  loadAverage: number[];
  sha256Path: 'pure-js' | 'node-crypto';
  rows: BenchRow[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function sampleRecord(i: number): ChainRecord {
  return {
    id: `bench-record-${i}`,
    patientId: i % 2 ? 'patient-1' : 'patient-2',
    doctorId: i % 2 ? 'doctor-1' : 'doctor-2',
    type: i === 0 ? 'diagnosis' : i % 3 ? 'prescription' : 'test_report',
    title: `Lab results, visit ${i}`,
    description: 'Complete blood count and lipid panel; follow-up in six weeks if LDL stays above target.',
    files:
      i === 0
        ? []
        : [
            {
              documentId: `document-${i}`,
              name: `results-${i}.pdf`,
              type: 'application/pdf',
              size: 48_213,
              cid: 'QmaozNR7DZHQK1ZcU9p7QdrshMvXqWK6gpu5rmrkPdT3L4',
            },
          ],
    timestamp: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
  };
}

// Median attempts per second over `runs` runs of `attempts` calls each.
function hashRate(attempts: number, runs: number, attempt: (nonce: number) => number): number {
  const rates: number[] = [];
  let sink = 0;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    for (let nonce = 0; nonce < attempts; nonce++) sink ^= attempt(nonce);
    rates.push((attempts * 1000) / (performance.now() - started));
  }
  if (sink === 0.5) console.log(sink); // keeps the work observable to the JIT
  return median(rates);
}

// What the service does with a change, signing and storage aside (workers/ledger/writes.ts commitDraft): each
// write starts from the state the one before published and leaves that state as it was.
function writeTimes(published: LedgerState, tip: Block, next: readonly ChainRecord[]): number[] {
  const times: number[] = [];
  let previous = tip;
  for (const record of next) {
    const started = performance.now();
    const state = copyState(published);
    const block = mineBlock(previous, record, record.timestamp, DIFFICULTY);
    const problem = ruleProblem(state, block, state.height);
    if (problem) throw new Error(`bench write broke a rule: ${problem}`);
    published = apply(state, block, state.height);
    times.push(performance.now() - started);
    previous = block;
  }
  return times;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

// How much the bench does: the full sizes for `npm run bench`, seconds of it for `--smoke` (CI runs it, so a bench
// that no longer runs fails there).
export const CORE_FULL = { attempts: 150_000, runs: 5, minedBlocks: 41, lengths: [1_000, 10_000, 100_000], writes: 41 };
export const CORE_SMOKE = { attempts: 2_000, runs: 1, minedBlocks: 3, lengths: [100, 1_000], writes: 3 };

export async function runCoreBench(
  log: (line: string) => void = console.log,
  size: typeof CORE_FULL = CORE_FULL,
): Promise<CoreBenchReport> {
  const sha256Path = sha256.create().constructor.name === 'NodeHasher' ? 'node-crypto' : 'pure-js';
  const rows: BenchRow[] = [];
  const add = (row: BenchRow) => {
    rows.push(row);
    log(
      `  ${row.section} | ${row.name}: ${row.value.toFixed(row.unit === 'x' ? 2 : 1)} ${row.unit}${row.note ? ` (${row.note})` : ''}`,
    );
  };

  // A realistic header: block 1234 of a chain, the record hashed as the service would.
  const previous: Block = { ...createGenesisBlock(sampleRecord(0), sampleRecord(0).timestamp), id: '1233' };
  const template = blockTemplate(previous, sampleRecord(1234), sampleRecord(1234).timestamp);
  const prefix = template.prefixBytes;
  const prefixText = new TextDecoder().decode(prefix);
  const { attempts, runs, writes } = size; // attempts per run for the whole-header hashers; the mining loop gets 4x as many
  const section = `SHA-256 rate, ${prefix.length + 4}-byte header, median of ${runs}`;

  const search = createNonceSearch(prefix, 64); // difficulty 64 never matches: every attempt is hashed
  const loopRates: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    if (search.search(0, attempts * 4) !== -1) throw new Error('difficulty 64 cannot be met');
    loopRates.push((attempts * 4 * 1000) / (performance.now() - started));
  }
  const miningLoop = median(loopRates);
  const jsPerAttempt = hashRate(attempts, runs, (nonce) => sha256.array(prefixText + nonce)[0]);
  const encoder = new TextEncoder();
  const fastPerAttempt = hashRate(attempts, runs, (nonce) => sha256Words(encoder.encode(prefixText + nonce))[0]);
  const nativeRate = hashRate(attempts, runs, (nonce) => createHash('sha256').update(prefix).update(String(nonce)).digest()[0]);
  const nativePrefix = createHash('sha256').update(prefix);
  const nativeCopyRate = hashRate(attempts, runs, (nonce) => nativePrefix.copy().update(String(nonce)).digest()[0]);
  add({ section, name: 'mining loop (pure JS, midstate)', value: miningLoop, unit: 'H/s' });
  add({ section, name: 'sha256.ts whole header per attempt (no midstate)', value: fastPerAttempt, unit: 'H/s' });
  add({ section, name: 'js-sha256 whole header per attempt', value: jsPerAttempt, unit: 'H/s', note: `${sha256Path} path` });
  add({ section, name: 'node:crypto whole header per attempt', value: nativeRate, unit: 'H/s' });
  add({ section, name: 'node:crypto prefix state copied (hash.copy())', value: nativeCopyRate, unit: 'H/s' });
  add({ section, name: 'mining loop / node:crypto', value: miningLoop / nativeRate, unit: 'x', note: 'goal >= 0.40' });
  add({ section, name: 'mining loop / node:crypto with copy()', value: miningLoop / nativeCopyRate, unit: 'x' });

  // Time to mine one block: many different records, so the median is over independent searches.
  const blocksPerDifficulty: Record<number, number> = {
    2: size.minedBlocks,
    3: size.minedBlocks,
    4: Math.ceil(size.minedBlocks / 2),
  };
  const miningSection = 'Mine one block, median';
  for (const difficulty of [2, 3, 4]) {
    const times: number[] = [];
    const tries: number[] = [];
    for (let i = 1; i <= blocksPerDifficulty[difficulty]; i++) {
      const started = performance.now();
      const block = mineBlock(previous, sampleRecord(i * 7 + difficulty), sampleRecord(i).timestamp, difficulty);
      times.push(performance.now() - started);
      tries.push(block.nonce + 1);
    }
    add({
      section: miningSection,
      name: `difficulty ${difficulty} (mineBlock)`,
      value: median(times),
      unit: 'ms',
      note: `median ${median(tries)} attempts over ${times.length} blocks; ${16 ** difficulty} expected`,
    });
    if (difficulty !== 4) continue;
    const asyncTimes: number[] = [];
    for (let i = 1; i <= blocksPerDifficulty[difficulty]; i++) {
      const started = performance.now();
      await mineBlockAsync(previous, sampleRecord(i * 7 + difficulty), sampleRecord(i).timestamp, { difficulty });
      asyncTimes.push(performance.now() - started);
    }
    add({
      section: miningSection,
      name: 'difficulty 4 (mineBlockAsync)',
      value: median(asyncTimes),
      unit: 'ms',
      note: 'same blocks; a macrotask yield every 5000 attempts (setImmediate under Node)',
    });
  }

  // Verification of legal chains (bench-chain.ts) mined at difficulty 2: hash checks only (verifyChain), and
  // hash checks with the semantic rules and the projection (verifyLedger), in alternating runs so load from
  // other work hits both alike; the fold alone (project) shows what the rules add.
  const longest = Math.max(...size.lengths);
  const buildStarted = performance.now();
  // `writes` blocks are written one after another onto each length (a prefix of a legal chain is legal)
  const records = benchRecords(longest + writes);
  const chain: Block[] = [createGenesisBlock(records[0], records[0].timestamp, DIFFICULTY)];
  for (let i = 1; i < longest; i++) chain.push(mineBlock(chain[i - 1], records[i], records[i].timestamp, DIFFICULTY));
  const kinds = countKinds(records.slice(0, longest));
  log(
    `  (built a ${longest.toLocaleString('en')}-block legal chain at difficulty ${DIFFICULTY} in ${(performance.now() - buildStarted).toFixed(0)} ms: ${kinds})`,
  );
  const verifyRuns = runs;
  const ledgerWall = new Map<number, number>();
  const verifyBudgetMs = 30_000; // per chain length: fewer runs when one run is this slow (the table says how many)
  for (const length of size.lengths) {
    const blocks = chain.slice(0, length);
    const times = {
      chain: { wall: [] as number[], cpu: [] as number[] },
      ledger: { wall: [] as number[], cpu: [] as number[] },
      project: { wall: [] as number[], cpu: [] as number[] },
    };
    const timed = (into: { wall: number[]; cpu: number[] }, run: () => void) => {
      const cpuStart = cpuMs();
      const started = performance.now();
      run();
      into.wall.push(performance.now() - started);
      into.cpu.push(cpuMs() - cpuStart);
    };
    const lengthStarted = performance.now();
    for (let run = 0; run < verifyRuns && (run === 0 || performance.now() - lengthStarted < verifyBudgetMs); run++) {
      timed(times.chain, () => {
        const result = verifyChain(blocks, DIFFICULTY);
        if (!result.valid) throw new Error(`bench chain failed verifyChain: ${JSON.stringify(result.firstInvalid)}`);
      });
      timed(times.ledger, () => {
        const result = verifyLedger(blocks, DIFFICULTY);
        if (result.firstInvalid || result.state.height !== length)
          throw new Error(`bench chain failed verifyLedger: ${JSON.stringify(result.firstInvalid)}`);
      });
      timed(times.project, () => {
        if (project(blocks).height !== length) throw new Error('project() lost blocks');
      });
    }
    const section = `Verify ${length.toLocaleString('en')} blocks, median of ${times.ledger.wall.length}`;
    add({ section, name: 'verifyChain (hashes only), wall', value: median(times.chain.wall), unit: 'ms' });
    add({
      section,
      name: 'verifyChain (hashes only), CPU',
      value: median(times.chain.cpu),
      unit: 'ms',
      note: length === 10_000 ? 'goal < 150 ms' : undefined,
    });
    ledgerWall.set(length, median(times.ledger.wall));
    add({
      section,
      name: 'verifyLedger (hashes, rules, projection), wall',
      value: median(times.ledger.wall),
      unit: 'ms',
      note: length === 100_000 ? 'goal < 2,000 ms' : undefined,
    });
    add({
      section,
      name: 'verifyLedger (hashes, rules, projection), CPU',
      value: median(times.ledger.cpu),
      unit: 'ms',
      note: length === 10_000 ? 'browser goal < 150 ms' : undefined,
    });
    add({ section, name: 'project (the fold alone, no checks), CPU', value: median(times.project.cpu), unit: 'ms' });
    add({
      section,
      name: 'verifyLedger / verifyChain, CPU',
      value: median(times.ledger.cpu) / median(times.chain.cpu),
      unit: 'x',
    });
    const written = writeTimes(project(blocks), blocks[length - 1], records.slice(length, length + writes));
    add({
      section,
      name: `write one more block (copy the projection, mine, rules, fold), median of ${writes}`,
      value: median(written),
      unit: 'ms',
      note: `slowest ${Math.max(...written).toFixed(2)} ms${length === longest ? '; goal < 20 ms' : ''}`,
    });
  }

  const [shorter, longer] = size.lengths.slice(-2);
  add({
    section: 'Growth',
    name: `verifyLedger of ${longer.toLocaleString('en')} blocks / of ${shorter.toLocaleString('en')}, wall`,
    value: (ledgerWall.get(longer) ?? NaN) / (ledgerWall.get(shorter) ?? NaN),
    unit: 'x',
    note: `linear: ${longer / shorter}x; goal <= ${(longer / shorter) * 1.2}x`,
  });

  return {
    startedAt: new Date().toISOString(),
    node: process.version,
    cpu: `${cpus()[0]?.model ?? 'unknown'} x${cpus().length}`,
    loadAverage: loadavg(),
    sha256Path,
    rows,
  };
}

export function formatCoreTable(report: CoreBenchReport): string {
  const lines = [
    `Ledger core (Node ${report.node}, ${report.cpu}, js-sha256 ${report.sha256Path}, load ${report.loadAverage.map((l) => l.toFixed(2)).join(' ')})`,
    '',
    '| Section | Measure | Value | Note |',
    '|---|---|---:|---|',
  ];
  for (const row of report.rows) {
    const value =
      row.unit === 'H/s'
        ? `${(row.value / 1e6).toFixed(3)} MH/s`
        : row.unit === 'x'
          ? `${row.value.toFixed(2)}x`
          : `${row.value.toFixed(row.value < 10 ? 2 : 1)} ${row.unit}`;
    lines.push(`| ${row.section} | ${row.name} | ${value} | ${row.note ?? ''} |`);
  }
  return lines.join('\n');
}
