import { createGenesisBlock, mineBlock } from '../../../workers/core/chain';
import type { Block } from '../../../workers/core/types';
import type { MiningProgress, MiningResult } from '../../../workers/api';
import { labRecord } from './lab-record';

export interface MainThreadJob {
  jobId: string;
  difficulty: number;
  blocks: number;
  onProgress: (progress: MiningProgress) => void;
  isCancelled: () => boolean; // read between blocks only: a block in progress cannot be interrupted
}

// Until the browser has painted once: lets the progress bar show between two frozen blocks.
function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

// The same mining as the worker's, run synchronously on the main thread on purpose: each block is one long
// task during which the page cannot paint or answer input. `tip` carries the lab's main-thread chain on.
export async function mineOnMainThread(job: MainThreadJob, tip: { block: Block | null }): Promise<MiningResult> {
  let startedAt = performance.now();
  let hashingMs = 0; // time inside mineBlock only, so the hash rate is not diluted by the paints between blocks
  let attempts = 0;
  let blocksMined = 0;
  const report = (): MiningResult => ({
    jobId: job.jobId,
    blocksMined,
    blocksTotal: job.blocks,
    attempts,
    elapsedMs: performance.now() - startedAt,
    hashRate: hashingMs > 0 ? (attempts * 1000) / hashingMs : 0,
    cancelled: false,
  });
  await nextPaint(); // show the run as started before the first freeze
  startedAt = performance.now();
  if (!tip.block) {
    const now = new Date().toISOString();
    tip.block = createGenesisBlock(labRecord(0, now), now, 1);
  }
  while (blocksMined < job.blocks) {
    if (job.isCancelled()) return { ...report(), cancelled: true };
    const now = new Date().toISOString();
    const began = performance.now();
    const block = mineBlock(tip.block, labRecord(Number(tip.block.id) + 1, now), now, job.difficulty);
    hashingMs += performance.now() - began;
    attempts += block.nonce + 1; // mineBlock tries nonces from 0 upwards
    blocksMined += 1;
    tip.block = block;
    job.onProgress(report());
    await nextPaint();
  }
  return report();
}
