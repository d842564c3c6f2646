// The sandbox: three peers' copies of the chain (or of demo blocks) for the explorer's live chain and peers
// view (docs/decisions/live-sandbox.md), and the mining lab's jobs. Never the real records: nothing here is stored.
import type {
  BlocksPage,
  LedgerService,
  MiningProgress,
  PeerReport,
  ProgressListener,
  ReadableSandboxBlock,
  SignatureState,
} from '../api';
import { canSeeRecord } from '../core/access';
import { GENESIS_PREVIOUS_HASH, createGenesisBlock, headerHash, mineBlock, recordDataHash } from '../core/chain';
import { SANDBOX_PEERS } from '../core/constants';
import { iso } from '../core/ledger-records';
import { mineBlockAsync, remineRange, type RemineOptions } from '../core/mining';
import { checkText } from '../core/text-input';
import type { User } from '../core/types';
import { fail, sleep, type LedgerDeps } from './deps';
import type { LedgerStore } from './store';
import type { Sealing } from './sealing';
import { sandboxDetail, sandboxRow } from './sandbox-views';
import { rowsPage } from './views';
import {
  blockIndexOf,
  comparePeers,
  headerToMine,
  isOpaque,
  peerOf,
  readerCopy,
  recheck,
  recheckAll,
  sandboxOf,
  sandboxRecord,
  statusOf,
  SANDBOX_RESTRICTED_EDIT,
  type PeerBlock,
  type PeerChain,
  type Sandbox,
} from '../core/sandbox-chain';

export const SANDBOX_FIRST_PAGE = 20;
export const MAX_SANDBOX_BLOCKS = 10_000;
export const MAX_LAB_BLOCKS = 1000;
export const LAB_DIFFICULTY_RANGE = { min: 1, max: 6 } as const;
const PROGRESS_INTERVAL_MS = 100; // mining progress at most ~10 times a second

function report(onProgress: ProgressListener, progress: MiningProgress): void {
  try {
    Promise.resolve(onProgress(progress) as unknown).catch(() => undefined);
  } catch {
    // a broken progress callback must not stop the mining
  }
}

// hashes/s: 0 before any time has passed
const progressOf = (
  jobId: string,
  blocksMined: number,
  blocksTotal: number,
  attempts: number,
  elapsedMs: number,
): MiningProgress => ({
  ...{ jobId, blocksMined, blocksTotal, attempts, elapsedMs },
  hashRate: elapsedMs > 0 ? (attempts / elapsedMs) * 1000 : 0,
});

export function createSandbox(deps: LedgerDeps, store: LedgerStore, enter: () => Promise<User>, sealing: Sealing) {
  let openedTitles: ReadonlyMap<number, string> = new Map(); // of the copied chain's sealed uploads, as the reader reads them
  const { difficulty } = deps;
  let sandbox: Sandbox | null = null;
  let reader = ''; // whose copy the sandbox is: it holds only what they may read
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

  // The records they may not read never enter the copy: nothing the sandbox answers later can show them.
  function sandboxCopy(signedIn: User): Sandbox {
    const blocks = readerCopy(store.current().blocks, (record) => canSeeRecord(signedIn, record));
    const box = sandboxOf(blocks, new Map(), difficulty, signatureInCopy);
    recheckAll(box.peers.A, difficulty); // the records chain may have failed verification: its copy says where
    for (const name of SANDBOX_PEERS) box.peers[name].problems = new Map(box.peers.A.problems);
    return box;
  }

  function current(signedIn: User): Sandbox {
    if (sandbox && reader === signedIn.id) return sandbox;
    reader = signedIn.id;
    return (sandbox = sandboxCopy(signedIn));
  }

  // A copied block keeps its signature only while its author and hash (all it signs) are the records chain's;
  // the records chain's own check says whether that holds. An edited or re-mined block has no valid signature.
  // Blocks the mining lab added past the records chain's tip are unsigned demo blocks.
  function signatureInCopy(block: PeerBlock, index: number): string | null {
    const original = store.current().blocks[index];
    if (!original || (original.hash === block.hash && (isOpaque(block) || original.author === block.author))) return null;
    return 'signature no longer matches: the block changed, and only its author can sign it again';
  }

  function signatureOf(chain: PeerChain, index: number): SignatureState {
    const block = chain.blocks[index];
    if (!chain.signature || index >= store.current().blocks.length) return 'unsigned'; // demo and lab blocks
    return chain.signature(block, index) === null ? store.signatureOf(index) : 'fails';
  }

  // null when a newer reset started meanwhile: the latest request wins.
  async function demoSandbox(count: number, superseded: () => boolean, onProgress?: ProgressListener): Promise<Sandbox | null> {
    const [timestamp, started] = [iso(deps.now()), performance.now()];
    const blocks = [createGenesisBlock(sandboxRecord(0, timestamp, false), timestamp, difficulty)];
    let attempts = 0;
    for (let index = 1; index < count; index++) {
      blocks.push(mineBlock(blocks[index - 1], sandboxRecord(index, timestamp, false), timestamp, difficulty));
      attempts += blocks[index].nonce + 1; // the nonce search starts at 0
      if (index % 250 === 0) {
        if (onProgress) report(onProgress, progressOf('sandbox-reset', index, count, attempts, performance.now() - started));
        await sleep(1); // a macrotask now and then, so a cancel or another call gets in
      }
      if (superseded()) return null;
    }
    return superseded() ? null : sandboxOf(blocks, new Map(), difficulty); // just mined: no problems
  }

  // Signing out (or in as someone else) stops every job and forgets the sandbox.
  function stopAll(): void {
    for (const job of jobs.values()) job.cancelled = true;
    sandbox = null;
    resets++;
  }

  const summaryOf = (chain: PeerChain, index: number) =>
    sandboxRow(chain, index, signatureOf(chain, index), openedTitles.get(index));
  const detailOf = (chain: PeerChain, index: number) =>
    sandboxDetail(chain, index, signatureOf(chain, index), openedTitles.get(index));

  // Re-mines blocks from..to-1 of a peer's copy from their headers, each linked to the one before.
  type JobOptions = Pick<RemineOptions, 'isCancelled' | 'onProgress' | 'progressEveryMs'>;
  function remine(box: Sandbox, chain: PeerChain, from: number, to: number, options: JobOptions = {}) {
    let header = { dataHash: '' }; // the last header handed to the search: its data hash is the one mined
    return remineRange(from, to, {
      difficulty: box.difficulty,
      previousHash: from > 0 ? chain.blocks[from - 1].hash : GENESIS_PREVIOUS_HASH,
      headerOf: (at) => (header = headerToMine(chain.blocks[at])),
      onBlock: (at, mined) => {
        if (sandbox !== box) return; // reset meanwhile: this copy is gone
        const block = chain.blocks[at];
        chain.blocks[at] = { ...block, ...mined, dataHash: header.dataHash, ...(isOpaque(block) ? {} : { signature: '' }) };
        recheck(chain, at, box.difficulty);
      },
      now: () => performance.now(),
      ...options,
    });
  }

  // Validates a mining job's id, and that no other job runs: one job at a time, lab or re-mine.
  function startJob(jobId: unknown): { cancelled: boolean } {
    if (typeof jobId !== 'string' || jobId === '') fail('ValidationError', 'A mining job needs an id.');
    if (jobs.size > 0) fail('ValidationError', 'A mining job is already running.');
    const job = { cancelled: false };
    jobs.set(jobId, job);
    return job;
  }

  const api: Pick<
    LedgerService,
    | 'sandboxReset'
    | 'sandboxPage'
    | 'sandboxBlock'
    | 'sandboxEdit'
    | 'sandboxRemine'
    | 'sandboxRemineFrom'
    | 'sandboxPeers'
    | 'mineSandbox'
    | 'cancelJob'
  > = {
    async sandboxReset(blocks, onProgress) {
      const signedIn = await enter();
      if (!Number.isInteger(blocks) || blocks < 0 || blocks > MAX_SANDBOX_BLOCKS) {
        fail('ValidationError', `Choose between 0 and ${MAX_SANDBOX_BLOCKS} blocks.`);
      }
      for (const job of jobs.values()) job.cancelled = true;
      const request = ++resets;
      const run = (async () => {
        const titles = blocks === 0 ? await sealing.openedTitles(signedIn) : new Map<number, string>();
        const box = blocks === 0 ? sandboxCopy(signedIn) : await demoSandbox(blocks, () => request !== resets, onProgress);
        if (!box || request !== resets) return null; // a later reset was asked for meanwhile: its chain is the sandbox
        openedTitles = titles;
        [sandbox, reader] = [box, signedIn.id];
        return rowsPage(box.peers.A.blocks.length, 0, SANDBOX_FIRST_PAGE, (index) => summaryOf(box.peers.A, index));
      })();
      latestReset = run;
      return (await run) ?? waitForLatestReset();
    },

    async sandboxPage(offset, limit, peer) {
      const box = current(await enter());
      const chain = box.peers[peerOf(peer)];
      const page = rowsPage(chain.blocks.length, offset, limit, (index) => summaryOf(chain, index));
      return { ...page, status: statusOf(chain, box.difficulty) };
    },

    async sandboxBlock(index, peer) {
      const chain = current(await enter()).peers[peerOf(peer)];
      return detailOf(chain, blockIndexOf(chain, index));
    },

    async sandboxEdit(edit) {
      const signedIn = await enter();
      if (edit === null || typeof edit !== 'object')
        fail('ValidationError', 'An edit names a peer, a block, a sequence number and the new text.');
      const { title, description, seq } = edit;
      const box = current(signedIn);
      const chain = box.peers[peerOf(edit.peer)];
      const at = blockIndexOf(chain, edit.index);
      const block = chain.blocks[at];
      if (isOpaque(block)) fail('AccessDeniedError', SANDBOX_RESTRICTED_EDIT); // its record is not here to edit
      if (!Number.isSafeInteger(seq) || seq < 0)
        fail('ValidationError', 'An edit needs a sequence number, a whole number of 0 or more.');
      if (title === undefined && description === undefined)
        fail('ValidationError', 'An edit changes the title, the description or both.');
      if (title !== undefined && typeof title !== 'string') fail('ValidationError', 'The new title must be text.');
      if (description !== undefined && typeof description !== 'string') fail('ValidationError', 'The description must be text.');
      const titleCheck = title === undefined ? null : checkText('tamperTitle', title);
      if (titleCheck?.problem) fail('ValidationError', titleCheck.problem);
      const descriptionCheck = description === undefined ? null : checkText('description', description);
      if (descriptionCheck?.problem) fail('ValidationError', descriptionCheck.problem);
      if (seq <= (chain.edits.get(at) ?? -1)) return { stale: true, seq }; // a newer edit of this block was applied
      chain.edits.set(at, seq);

      const data = {
        ...block.data,
        ...(titleCheck ? { title: titleCheck.text } : {}),
        ...(descriptionCheck ? { description: descriptionCheck.text } : {}),
      };
      const dataHash = recordDataHash(data);
      // the nonce stays: the new hash almost never meets the difficulty, which is what the demo shows
      const hash = headerHash({ ...block, dataHash }, at);
      const edited = { ...block, data, dataHash, hash };
      chain.blocks[at] = edited;
      recheck(chain, at, box.difficulty);
      recheck(chain, at + 1, box.difficulty); // its link to this block
      const next = at + 1 < chain.blocks.length ? summaryOf(chain, at + 1) : undefined;
      return {
        stale: false,
        seq,
        block: detailOf(chain, at) as ReadableSandboxBlock, // the block just edited: the reader may read it
        ...(next ? { next } : {}),
        status: statusOf(chain, box.difficulty),
      };
    },

    async sandboxRemine(index, peer) {
      const box = current(await enter());
      const chain = box.peers[peerOf(peer)];
      const at = blockIndexOf(chain, index);
      await remine(box, chain, at, at + 1);
      recheck(chain, at + 1, box.difficulty);
      return statusOf(chain, box.difficulty);
    },

    async sandboxRemineFrom(jobId, index, peer, onProgress) {
      const box = current(await enter());
      const chain = box.peers[peerOf(peer)];
      const from = blockIndexOf(chain, index);
      const job = startJob(jobId);
      const to = chain.blocks.length;
      const progress = (blocksMined: number, attempts: number, elapsedMs: number) =>
        progressOf(jobId, blocksMined, to - from, attempts, elapsedMs);
      const started = performance.now();
      try {
        const outcome = await remine(box, chain, from, to, {
          isCancelled: () => job.cancelled || sandbox !== box,
          onProgress: (p) => report(onProgress, progress(p.blocksMined, p.attempts, p.elapsedMs)),
          progressEveryMs: PROGRESS_INTERVAL_MS,
        });
        recheck(chain, from + outcome.blocksMined, box.difficulty); // the link after the last block re-mined
        const final = progress(outcome.blocksMined, outcome.attempts, performance.now() - started);
        report(onProgress, final);
        return { ...final, cancelled: outcome.cancelled, from, status: statusOf(chain, box.difficulty) };
      } finally {
        jobs.delete(jobId);
      }
    },

    async sandboxPeers() {
      const box = current(await enter());
      const { differsFrom, noMajorityFrom } = comparePeers(box);
      const peers = SANDBOX_PEERS.map((name): PeerReport => {
        const chain = box.peers[name];
        const differs = differsFrom[name];
        return {
          peer: name,
          status: statusOf(chain, box.difficulty),
          tipHash: chain.blocks[chain.blocks.length - 1]?.hash ?? '',
          ...(differs === undefined ? {} : { differsFrom: differs }),
        };
      });
      return { peers, ...(noMajorityFrom === undefined ? {} : { noMajorityFrom }) };
    },

    async mineSandbox(jobId, jobDifficulty, blocks, onProgress) {
      const signedIn = await enter();
      if (typeof jobId !== 'string' || jobId === '') fail('ValidationError', 'A mining job needs an id.');
      const { min, max } = LAB_DIFFICULTY_RANGE;
      if (!Number.isInteger(jobDifficulty) || jobDifficulty < min || jobDifficulty > max) {
        fail('ValidationError', `Choose a difficulty from ${min} to ${max}.`);
      }
      if (!Number.isInteger(blocks) || blocks < 1 || blocks > MAX_LAB_BLOCKS) {
        fail('ValidationError', `Choose from 1 to ${MAX_LAB_BLOCKS} blocks.`);
      }
      const job = startJob(jobId);
      const box = current(signedIn);
      const miner = box.peers.A; // the lab mines on peer A and hands each block to the peers that agree with A's tip
      const started = performance.now();
      let attempts = 0;
      let mined = 0;
      let lastReport = -Infinity;
      const progress = (inBlock: number) => progressOf(jobId, mined, blocks, attempts + inBlock, performance.now() - started);
      const throttled = (inBlock: number) => {
        const at = performance.now();
        if (at - lastReport < PROGRESS_INTERVAL_MS) return;
        lastReport = at;
        report(onProgress, progress(inBlock));
      };
      try {
        while (mined < blocks && !job.cancelled && sandbox === box) {
          const index = miner.blocks.length;
          const parent = miner.blocks[index - 1];
          const timestamp = iso(deps.now());
          const result = await mineBlockAsync(parent, sandboxRecord(index, timestamp, true), timestamp, {
            difficulty: jobDifficulty,
            isCancelled: () => job.cancelled,
            onProgress: (p) => throttled(p.attempts),
            now: () => performance.now(),
          });
          attempts += result.attempts;
          if (!result.block || sandbox !== box) break;
          for (const name of SANDBOX_PEERS) {
            const chain = box.peers[name];
            if (chain.blocks.length === index && chain.blocks[index - 1]?.hash === parent.hash) chain.blocks.push(result.block);
          }
          if (jobDifficulty < box.difficulty) {
            box.difficulty = jobDifficulty; // every block is judged at the lowest difficulty: re-judge them all
            for (const name of SANDBOX_PEERS) recheckAll(box.peers[name], box.difficulty);
          } else {
            for (const name of SANDBOX_PEERS) recheck(box.peers[name], index, box.difficulty);
          }
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
