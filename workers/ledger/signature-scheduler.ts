// The first slice of signatures is checked from the moment the blocks are read, beside the check of the rules; the
// rest go on in the background once the screens show the blocks (before, the cores are the load's and the first
// screen's); a failure found later turns the ledger read-only like any other (workers/ledger/store.ts publishes a
// new snapshot for it).
import type { InvalidBlock } from '../api';
import { firstSignatureFailure, type SignatureChecker, type SignatureFailure } from '../core/signatures';
import type { Block, KeyEnrolment } from '../core/types';

export const FIRST_SIGNATURE_SLICE = 500; // checked before a loaded chain is shown: all of a short chain, at little delay
const SIGNATURE_SLICE = 2500; // signatures one checker worker is handed at a time (about 150 ms); progress is told after each

// The scheduler's own running state for one loaded chain; snapshots never hold it.
export interface SignatureCheck {
  checked: number; // blocks [0, checked) have signatures that hold
  failure?: InvalidBlock; // the first block whose signature failed
  limit: number; // blocks from here on need no check: an earlier one failed a check of hashes, links or rules
  lanes: number; // slices checked at once once shown: one per checker worker
  running: boolean;
  shown: boolean; // the chain is shown: the slices after the first may start
  stopped: boolean; // a newer load took over
  progressed: Set<() => void>; // told after every checked slice, a failure, and the end
}

export function signatureCheck(checked: number): SignatureCheck {
  return { checked, limit: Infinity, lanes: 1, running: false, shown: false, stopped: false, progressed: new Set() };
}

// The chain is shown (`stopped`: a newer load took over): the check goes on with `lanes` slices at once, or ends.
export function resumeCheck(check: SignatureCheck, change: { shown: true; lanes: number } | { stopped: true }): void {
  Object.assign(check, change);
  check.progressed.forEach((listener) => listener());
}

// Resolves once `done` holds for `check`, or its checking ended.
export function until(check: SignatureCheck, done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const test = () => {
      if (!done() && check.running) return;
      check.progressed.delete(test);
      resolve();
    };
    check.progressed.add(test);
    test();
  });
}

// Checks the signatures of `blocks` from `check.checked` on, slice by slice, up to `check.lanes` slices at
// once (each to another checker worker), in order; stops at the first failure. Blocks appended meanwhile
// (the array grows only by this store's own checked writes) are checked too.
export function checkSignatures(
  check: SignatureCheck,
  blocks: () => readonly Block[],
  enrolment: KeyEnrolment | null,
  publicKeys: Map<string, Promise<CryptoKey>>,
  checker?: SignatureChecker,
): void {
  const sliceOf = (from: number, to: number): Promise<SignatureFailure | null> => {
    if (!enrolment) return Promise.resolve({ offset: 0, reason: 'signature: no keys are enrolled' });
    const slice = blocks()
      .slice(from, to)
      .map(({ author, hash, signature }) => ({ author, hash, signature }));
    return checker ? checker.check(slice, enrolment) : firstSignatureFailure(slice, enrolment, publicKeys);
  };
  const told = () => check.progressed.forEach((listener) => listener());
  check.running = true;
  void (async () => {
    const queue: { from: number; to: number; result: Promise<SignatureFailure | null> }[] = [];
    let next = check.checked;
    try {
      for (;;) {
        const end = Math.min(blocks().length, check.limit);
        while (queue.length < check.lanes && next < end && (check.shown || next < FIRST_SIGNATURE_SLICE)) {
          const to = Math.min(end, next + (next < FIRST_SIGNATURE_SLICE ? FIRST_SIGNATURE_SLICE : SIGNATURE_SLICE));
          queue.push({ from: next, to, result: sliceOf(next, to) });
          next = to;
        }
        const head = queue.shift();
        if (!head && next < end && !check.stopped) {
          await until(check, () => check.shown || check.stopped);
          continue;
        }
        if (!head || check.stopped) return;
        // a check that throws on stored data names the slice's first block rather than leaving it unchecked
        const failure = await head.result.catch((error: unknown) => ({
          offset: 0,
          reason: `signature: the check failed (${error instanceof Error ? error.name : 'unknown error'})`,
        }));
        if (check.stopped) return;
        if (failure) {
          const index = head.from + failure.offset;
          check.checked = Math.max(check.checked, index); // the blocks before it in the slice hold
          if (index < check.limit) check.failure = { index, reason: failure.reason };
          return;
        }
        check.checked = Math.max(check.checked, head.to);
        told();
      }
    } finally {
      check.running = false;
      told();
    }
  })();
}
