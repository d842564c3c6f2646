// Signatures of a long chain checked on every core: the ledger worker splits each slice among checker workers
// (one per core the device reports, started on first use) and takes the earliest failure.
import { firstSignatureFailure, type SignatureFailure, type SignedPart } from './core/signatures';
import type { KeyEnrolment } from './core/types';
import type { CheckRequest } from './signature-checker.worker';

const MIN_PER_CHECKER = 1000; // below this, the ledger worker checks them itself: a checker's start would cost more (a loaded chain's first slice)

export function createSignaturePool(size: number) {
  const checkers: Worker[] = [];
  const waiting = new Map<number, (failure: SignatureFailure | null) => void>();
  let next = 0;
  const publicKeys = new Map<string, Promise<CryptoKey>>(); // for a short list, checked here

  function checker(index: number): Worker {
    checkers[index] ??= (() => {
      const worker = new Worker(new URL('./signature-checker.worker.ts', import.meta.url), {
        type: 'module',
        name: 'signature checker',
      });
      worker.onmessage = (event: MessageEvent<{ id: number; failure: SignatureFailure | null }>) => {
        waiting.get(event.data.id)?.(event.data.failure);
        waiting.delete(event.data.id);
      };
      return worker;
    })();
    return checkers[index];
  }

  function send(index: number, blocks: SignedPart[], enrolment: KeyEnrolment): Promise<SignatureFailure | null> {
    const id = ++next;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      checker(index).postMessage({ id, blocks, enrolment } satisfies CheckRequest);
    });
  }

  return async function checkSignatures(blocks: SignedPart[], enrolment: KeyEnrolment): Promise<SignatureFailure | null> {
    const parts = Math.min(size, Math.floor(blocks.length / MIN_PER_CHECKER));
    if (parts <= 1) return firstSignatureFailure(blocks, enrolment, publicKeys); // no checker started for a short chain
    const per = Math.ceil(blocks.length / parts);
    const results = await Promise.all(
      Array.from({ length: parts }, (_, part) => send(part, blocks.slice(part * per, (part + 1) * per), enrolment)),
    );
    for (const [part, failure] of results.entries()) {
      if (failure) return { offset: part * per + failure.offset, reason: failure.reason };
    }
    return null;
  };
}
