// One of the lab's parallel miners: searches its own nonce range of a block header until it finds a nonce,
// exhausts the range or is told to stop. The header prefix comes from the page, which seals the block.
import { createNonceSearch } from '../../../workers/core/nonce-search';

export type RangeRequest =
  | { type: 'search'; blockId: number; prefix: Uint8Array; difficulty: number; start: number; end: number }
  | { type: 'stop'; blockId: number };

export type RangeReply =
  | { type: 'progress'; blockId: number; attempts: number }
  | { type: 'done'; blockId: number; attempts: number; nonce: number | null }; // null: stopped or range exhausted

const CHUNK = 20_000; // attempts between checks for a stop message: about 20 ms of hashing
const PROGRESS_EVERY_MS = 100;

let stopped = -1; // the newest block id the page has stopped

const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
// a macrotask, so a stop message is handled between chunks
const nextTask = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });

async function search({ blockId, prefix, difficulty, start, end }: Extract<RangeRequest, { type: 'search' }>) {
  const nonces = createNonceSearch(prefix, difficulty);
  let attempts = 0;
  let reportedAt = performance.now();
  for (let next = start; next < end; next += CHUNK) {
    if (stopped >= blockId) break;
    const count = Math.min(CHUNK, end - next);
    const found = nonces.search(next, count);
    if (found >= 0) {
      attempts += found - next + 1;
      self.postMessage({ type: 'done', blockId, attempts, nonce: found } satisfies RangeReply);
      return;
    }
    attempts += count;
    if (performance.now() - reportedAt >= PROGRESS_EVERY_MS) {
      reportedAt = performance.now();
      self.postMessage({ type: 'progress', blockId, attempts } satisfies RangeReply);
    }
    await nextTask();
  }
  self.postMessage({ type: 'done', blockId, attempts, nonce: null } satisfies RangeReply);
}

self.onmessage = (event: MessageEvent<RangeRequest>) => {
  const request = event.data;
  if (request.type === 'stop') stopped = Math.max(stopped, request.blockId);
  else void search(request);
};
