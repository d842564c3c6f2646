// One of the ledger worker's signature checkers (workers/signature-pool.ts): checks the signatures of the blocks
// it is sent against the enrolled keys and answers with the first failure.
import { firstSignatureFailure, type SignedPart } from './core/signatures';
import type { KeyEnrolment } from './core/types';

export interface CheckRequest {
  id: number;
  blocks: SignedPart[];
  enrolment: KeyEnrolment;
}

const publicKeys = new Map<string, Promise<CryptoKey>>(); // imported once per checker

self.onmessage = async (event: MessageEvent<CheckRequest>) => {
  const { id, blocks, enrolment } = event.data;
  try {
    self.postMessage({ id, failure: await firstSignatureFailure(blocks, enrolment, publicKeys) });
  } catch (error) {
    self.postMessage({ id, failure: { offset: 0, reason: `signature check failed (${String(error)})` } });
  }
};
