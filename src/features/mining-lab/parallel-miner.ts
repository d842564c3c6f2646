import { blockTemplate, createGenesisBlock, sealBlock } from '../../../workers/core/chain';
import type { Block } from '../../../workers/core/types';
import type { MiningResult } from '../../../workers/api';
import { labRecord } from './lab-record';
import type { MainThreadJob } from './main-thread-miner';
import type { RangeReply, RangeRequest } from './nonce-range.worker';

const PROGRESS_EVERY_MS = 100;

// How many lab workers to run: one per core the browser reports, 2 to 8.
export function parallelWorkerCount(): number {
  return Math.min(8, Math.max(2, navigator.hardwareConcurrency || 2));
}

// Mining across several workers, each searching its own slice of the nonce space; the first valid nonce
// wins, the others are stopped, and the page seals the block (one more hash) and moves to the next.
export class ParallelMiner {
  readonly size: number;
  private readonly workers: Worker[];
  private nextBlockId = 0;

  constructor(size = parallelWorkerCount()) {
    this.size = size;
    this.workers = Array.from(
      { length: size },
      () => new Worker(new URL('./nonce-range.worker.ts', import.meta.url), { type: 'module', name: 'lab nonce range' }),
    );
  }

  terminate(): void {
    for (const worker of this.workers) worker.terminate();
  }

  async mine(job: MainThreadJob, tip: { block: Block | null }): Promise<MiningResult> {
    const startedAt = performance.now();
    let attempts = 0;
    let blocksMined = 0;
    let cancelled = false;
    const report = (inBlock = 0): MiningResult => {
      const elapsedMs = performance.now() - startedAt;
      return {
        jobId: job.jobId,
        blocksMined,
        blocksTotal: job.blocks,
        attempts: attempts + inBlock,
        elapsedMs,
        hashRate: elapsedMs > 0 ? ((attempts + inBlock) * 1000) / elapsedMs : 0,
        cancelled,
      };
    };
    if (!tip.block) {
      const now = new Date().toISOString();
      tip.block = createGenesisBlock(labRecord(0, now), now, 1);
    }
    while (blocksMined < job.blocks && !cancelled) {
      const now = new Date().toISOString();
      const template = blockTemplate(tip.block, labRecord(Number(tip.block.id) + 1, now), now);
      const outcome = await this.searchBlock(template.prefixBytes, job, (inBlock) => job.onProgress(report(inBlock)));
      attempts += outcome.attempts;
      if (outcome.nonce === null) {
        cancelled = true;
        break;
      }
      tip.block = sealBlock(template, outcome.nonce, job.difficulty);
      blocksMined += 1;
      job.onProgress(report());
    }
    return report();
  }

  // One block: every worker searches its own range until one finds a nonce or the job is cancelled.
  private searchBlock(
    prefix: Uint8Array,
    job: MainThreadJob,
    onProgress: (attemptsInBlock: number) => void,
  ): Promise<{ nonce: number | null; attempts: number }> {
    const blockId = ++this.nextBlockId;
    const range = Math.floor(Number.MAX_SAFE_INTEGER / this.size);
    const perWorker = new Array<number>(this.size).fill(0);
    let winner: number | null = null;
    let finished = 0;
    let stopSent = false;
    let reportedAt = 0;
    return new Promise((resolve) => {
      const stopAll = () => {
        if (stopSent) return;
        stopSent = true;
        for (const worker of this.workers) worker.postMessage({ type: 'stop', blockId } satisfies RangeRequest);
      };
      this.workers.forEach((worker, index) => {
        worker.onmessage = (event: MessageEvent<RangeReply>) => {
          const reply = event.data;
          if (reply.blockId !== blockId) return;
          perWorker[index] = reply.attempts;
          const total = perWorker.reduce((sum, value) => sum + value, 0);
          if (reply.type === 'progress') {
            if (job.isCancelled()) stopAll();
            const now = performance.now();
            if (now - reportedAt >= PROGRESS_EVERY_MS) {
              reportedAt = now;
              onProgress(total);
            }
            return;
          }
          if (reply.nonce !== null && winner === null && !job.isCancelled()) winner = reply.nonce;
          stopAll();
          finished += 1;
          // every worker has answered: the attempts of this block are exact
          if (finished === this.size) resolve({ nonce: winner, attempts: total });
        };
        worker.postMessage({
          type: 'search',
          blockId,
          prefix,
          difficulty: job.difficulty,
          start: index * range,
          end: index === this.size - 1 ? Number.MAX_SAFE_INTEGER : (index + 1) * range,
        } satisfies RangeRequest);
      });
    });
  }
}
