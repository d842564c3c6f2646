// Signatures of a long chain checked on every core: each list the ledger worker hands over goes to the checker
// worker (one per core the device reports, started on first use) with the fewest signatures queued. The ledger
// worker keeps one list per checker in flight, so no core waits between lists (docs/decisions/signed-blocks.md).
import { firstSignatureFailure, type SignatureChecker, type SignatureFailure } from './core/signatures';
import type { CheckRequest } from './signature-checker.worker';

const MIN_PER_CHECKER = 1000; // a shorter list is checked by the ledger worker itself: a checker's start would cost more

export function createSignaturePool(size: number): SignatureChecker {
  const checkers: { worker: Worker; queued: number }[] = [];
  const waiting = new Map<number, (failure: SignatureFailure | null) => void>();
  let next = 0;
  const publicKeys = new Map<string, Promise<CryptoKey>>(); // for a short list, checked here

  function start(): { worker: Worker; queued: number } {
    const worker = new Worker(new URL('./signature-checker.worker.ts', import.meta.url), {
      type: 'module',
      name: 'signature checker',
    });
    worker.onmessage = (event: MessageEvent<{ id: number; failure: SignatureFailure | null }>) => {
      waiting.get(event.data.id)?.(event.data.failure);
      waiting.delete(event.data.id);
    };
    return { worker, queued: 0 };
  }

  function leastBusy(): { worker: Worker; queued: number } {
    if (checkers.length < size && checkers.every((checker) => checker.queued > 0)) checkers.push(start());
    return checkers.reduce((best, checker) => (checker.queued < best.queued ? checker : best));
  }

  return {
    lanes: size,
    check(blocks, enrolment) {
      if (blocks.length < MIN_PER_CHECKER) return firstSignatureFailure(blocks, enrolment, publicKeys);
      const checker = leastBusy();
      const id = ++next;
      checker.queued += blocks.length;
      return new Promise((resolve) => {
        waiting.set(id, (failure) => {
          checker.queued -= blocks.length;
          resolve(failure);
        });
        checker.worker.postMessage({ id, blocks, enrolment } satisfies CheckRequest);
      });
    },
  };
}
