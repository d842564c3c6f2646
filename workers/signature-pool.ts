// Signatures of a long chain checked on every core: each list the ledger worker hands over goes to the checker
// worker (one per core the device reports, started on first use) with the fewest signatures queued. The ledger
// worker keeps one list per checker in flight, so no core waits between lists (docs/decisions/signed-blocks.md).
import { firstSignatureFailure, type SignatureChecker, type SignatureFailure } from './core/signatures';
import type { CheckRequest } from './signature-checker.worker';

const MIN_PER_CHECKER = 1000; // a shorter list is checked by the ledger worker itself: a checker's start would cost more

export function createSignaturePool(size: number): SignatureChecker {
  // each checker's lists in flight, by request id: a checker that dies has them checked here instead
  type Checker = { worker: Worker; queued: number; pending: Map<number, () => void> };
  const checkers: Checker[] = [];
  const waiting = new Map<number, (failure: SignatureFailure | null) => void>();
  let next = 0;
  const publicKeys = new Map<string, Promise<CryptoKey>>(); // for a short list, checked here

  function start(): Checker {
    const worker = new Worker(new URL('./signature-checker.worker.ts', import.meta.url), {
      type: 'module',
      name: 'signature checker',
    });
    const checker: Checker = { worker, queued: 0, pending: new Map() };
    worker.onmessage = (event: MessageEvent<{ id: number; failure: SignatureFailure | null }>) => {
      waiting.get(event.data.id)?.(event.data.failure);
      waiting.delete(event.data.id);
      checker.pending.delete(event.data.id);
    };
    worker.onerror = () => {
      checkers.splice(checkers.indexOf(checker), 1);
      worker.terminate();
      checker.pending.forEach((checkHere) => checkHere());
    };
    return checker;
  }

  function leastBusy(): Checker {
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
        const done = (failure: SignatureFailure | null) => {
          checker.queued -= blocks.length;
          resolve(failure);
        };
        waiting.set(id, done);
        checker.pending.set(id, () => {
          waiting.delete(id);
          void firstSignatureFailure(blocks, enrolment, publicKeys).then(done);
        });
        checker.worker.postMessage({ id, blocks, enrolment } satisfies CheckRequest);
      });
    },
  };
}
