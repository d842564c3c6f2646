// The sandbox: a copy of the chain (or demo blocks) for the explorer's tamper demo and the mining lab's jobs.
// Never the real records: nothing here is stored.
import type { BlocksPage, ChainStatus, LedgerService, MiningProgress, ProgressListener } from '../api';
import { canSeeRecord } from '../core/access';
import { createGenesisBlock, mineBlock, verifyChain, verifyChainFrom, type VerifyResult } from '../core/chain';
import { iso } from '../core/ledger-records';
import { mineBlockAsync } from '../core/mining';
import { checkText } from '../core/text-input';
import type { Block, ClinicalRecord, User } from '../core/types';
import { fail, isIndex, sleep, type LedgerDeps } from './deps';
import type { LedgerStore } from './store';
import { pageOf } from './views';

export const SANDBOX_PATIENT_ID = 'sandbox'; // synthetic sandbox records, readable by everyone
export const SANDBOX_FIRST_PAGE = 20;
export const MAX_SANDBOX_BLOCKS = 10_000;
export const MAX_LAB_BLOCKS = 1000;
export const LAB_DIFFICULTY_RANGE = { min: 1, max: 6 } as const;
const PROGRESS_INTERVAL_MS = 100; // mining progress at most ~10 times a second

interface Sandbox {
  blocks: Block[];
  difficulty: number; // the lowest difficulty any of its blocks was mined at
  tampered: Set<number>; // indexes whose title the user typed (shown even when the record is restricted)
  verification: VerifyResult | null; // null: to be recomputed
}

function sandboxRecord(index: number, timestamp: string, mined: boolean): ClinicalRecord {
  return {
    id: `sandbox-${index}`,
    patientId: SANDBOX_PATIENT_ID,
    doctorId: '',
    type: index === 0 ? 'diagnosis' : index % 2 === 0 ? 'test_report' : 'prescription',
    title: mined ? `Mining lab block ${index}` : `Demo record ${index}`,
    description: mined ? 'Mined in the mining lab sandbox.' : 'A demo block of the explorer sandbox.',
    files: [],
    timestamp,
  };
}

function report(onProgress: ProgressListener, progress: MiningProgress): void {
  try {
    Promise.resolve(onProgress(progress) as unknown).catch(() => undefined);
  } catch {
    // a broken progress callback must not stop the mining
  }
}

export function createSandbox(deps: LedgerDeps, store: LedgerStore, enter: () => Promise<User>) {
  const { difficulty } = deps;
  let sandbox: Sandbox | null = null;
  const jobs = new Map<string, { cancelled: boolean }>();
  let resets = 0; // sandbox resets asked for: only the latest one installs its sandbox
  let latestReset: Promise<BlocksPage | null> = Promise.resolve(null);

  // An older reset that lost to a newer one answers with the newer one's sandbox.
  async function waitForLatestReset(): Promise<BlocksPage> {
    for (;;) {
      const asked = resets;
      const page = await latestReset;
      if (page) return page;
      if (resets === asked) fail('CancelledError', 'The sandbox was closed.'); // signed out: no newer reset to wait for
    }
  }

  function sandboxCopy(): Sandbox {
    return { blocks: structuredClone(store.current().blocks), difficulty, tampered: new Set(), verification: null };
  }

  // null when a newer reset started meanwhile: the latest request wins.
  async function demoSandbox(count: number, superseded: () => boolean): Promise<Sandbox | null> {
    const timestamp = iso(deps.now());
    const blocks = [createGenesisBlock(sandboxRecord(0, timestamp, false), timestamp, difficulty)];
    for (let index = 1; index < count; index++) {
      blocks.push(mineBlock(blocks[index - 1], sandboxRecord(index, timestamp, false), timestamp, difficulty));
      if (index % 250 === 0) await sleep(1); // a macrotask now and then, so a cancel or another call gets in
      if (superseded()) return null;
    }
    return superseded() ? null : { blocks, difficulty, tampered: new Set(), verification: null };
  }

  // Signing out (or in as someone else) stops every job and forgets the sandbox.
  function stopAll(): void {
    for (const job of jobs.values()) job.cancelled = true;
    sandbox = null;
    resets++;
  }

  function sandboxStatus(box: Sandbox): ChainStatus {
    box.verification ??= verifyChain(box.blocks, box.difficulty);
    return {
      height: box.blocks.length,
      valid: box.verification.valid,
      ...(box.verification.firstInvalid ? { firstInvalid: { ...box.verification.firstInvalid } } : {}),
      difficulty: box.difficulty,
      lastBlockTime: box.blocks[box.blocks.length - 1]?.timestamp ?? '',
      readOnly: false,
    };
  }

  function sandboxVisible(signedIn: User, box: Sandbox) {
    return (block: Block, index: number) =>
      !!block.data &&
      (block.data.patientId === SANDBOX_PATIENT_ID || box.tampered.has(index) || canSeeRecord(signedIn, block.data));
  }

  function sandboxBlockIndex(box: Sandbox, index: unknown): number {
    if (!isIndex(index) || index >= box.blocks.length) fail('NotFoundError', `Block ${String(index)} does not exist.`);
    return index;
  }

  const api: Pick<
    LedgerService,
    'sandboxReset' | 'sandboxPage' | 'sandboxTamper' | 'sandboxRemine' | 'mineSandbox' | 'cancelJob'
  > = {
    async sandboxReset(blocks) {
      const signedIn = await enter();
      if (!Number.isInteger(blocks) || blocks < 0 || blocks > MAX_SANDBOX_BLOCKS) {
        fail('ValidationError', `Choose between 0 and ${MAX_SANDBOX_BLOCKS} blocks.`);
      }
      for (const job of jobs.values()) job.cancelled = true;
      const request = ++resets;
      const run = (async () => {
        const box = blocks === 0 ? sandboxCopy() : await demoSandbox(blocks, () => request !== resets);
        if (box) sandbox = box;
        return box && pageOf(box.blocks, 0, SANDBOX_FIRST_PAGE, sandboxVisible(signedIn, box));
      })();
      latestReset = run;
      return (await run) ?? waitForLatestReset();
    },

    async sandboxPage(offset, limit) {
      const signedIn = await enter();
      const box = (sandbox ??= sandboxCopy());
      return { ...pageOf(box.blocks, offset, limit, sandboxVisible(signedIn, box)), status: sandboxStatus(box) };
    },

    async sandboxTamper(index, title) {
      await enter();
      const box = (sandbox ??= sandboxCopy());
      const at = sandboxBlockIndex(box, index);
      if (typeof title !== 'string') fail('ValidationError', 'The new title must be text.');
      const checked = checkText('tamperTitle', title);
      if (checked.problem) fail('ValidationError', checked.problem);
      const block = box.blocks[at];
      box.blocks[at] = { ...block, data: { ...block.data, title: checked.text } }; // not re-mined: verification must notice
      box.tampered.add(at);
      box.verification = null;
      return sandboxStatus(box);
    },

    async sandboxRemine(index) {
      await enter();
      const box = (sandbox ??= sandboxCopy());
      const at = sandboxBlockIndex(box, index);
      const block = box.blocks[at];
      box.blocks[at] =
        at === 0
          ? createGenesisBlock(block.data, block.timestamp, box.difficulty)
          : mineBlock(box.blocks[at - 1], block.data, block.timestamp, box.difficulty);
      box.verification = null;
      return sandboxStatus(box);
    },

    async mineSandbox(jobId, jobDifficulty, blocks, onProgress) {
      await enter();
      if (typeof jobId !== 'string' || jobId === '') fail('ValidationError', 'A mining job needs an id.');
      const { min, max } = LAB_DIFFICULTY_RANGE;
      if (!Number.isInteger(jobDifficulty) || jobDifficulty < min || jobDifficulty > max) {
        fail('ValidationError', `Choose a difficulty from ${min} to ${max}.`);
      }
      if (!Number.isInteger(blocks) || blocks < 1 || blocks > MAX_LAB_BLOCKS) {
        fail('ValidationError', `Choose from 1 to ${MAX_LAB_BLOCKS} blocks.`);
      }
      if (jobs.size > 0) fail('ValidationError', 'A mining job is already running.');
      const box = (sandbox ??= sandboxCopy());
      const job = { cancelled: false };
      jobs.set(jobId, job);
      const started = performance.now();
      let attempts = 0;
      let mined = 0;
      let lastReport = -Infinity;
      const progress = (inBlock: number): MiningProgress => {
        const elapsedMs = performance.now() - started;
        const total = attempts + inBlock;
        return {
          jobId,
          blocksMined: mined,
          blocksTotal: blocks,
          attempts: total,
          elapsedMs,
          hashRate: elapsedMs > 0 ? (total / elapsedMs) * 1000 : 0,
        };
      };
      const throttled = (inBlock: number) => {
        const at = performance.now();
        if (at - lastReport < PROGRESS_INTERVAL_MS) return;
        lastReport = at;
        report(onProgress, progress(inBlock));
      };
      try {
        while (mined < blocks && !job.cancelled && sandbox === box) {
          const index = box.blocks.length;
          const timestamp = iso(deps.now());
          const result = await mineBlockAsync(box.blocks[index - 1], sandboxRecord(index, timestamp, true), timestamp, {
            difficulty: jobDifficulty,
            isCancelled: () => job.cancelled,
            onProgress: (p) => throttled(p.attempts),
            now: () => performance.now(),
          });
          attempts += result.attempts;
          if (!result.block || sandbox !== box) break;
          box.blocks.push(result.block);
          box.difficulty = Math.min(box.difficulty, jobDifficulty);
          if (box.verification?.valid) box.verification = verifyChainFrom(box.blocks, index, box.difficulty);
          mined++;
          throttled(0);
        }
        const final = progress(0);
        report(onProgress, final);
        return { ...final, cancelled: mined < blocks };
      } finally {
        jobs.delete(jobId);
      }
    },

    async cancelJob(jobId) {
      // needs only the job id: a job must be stoppable after its user signed out
      const job = jobs.get(jobId);
      if (!job || job.cancelled) return false;
      job.cancelled = true;
      return true;
    },
  };
  return { api, stopAll };
}
