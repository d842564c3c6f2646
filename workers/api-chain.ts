// The chain types of the one API (workers/api.ts): how far the loaded chain's checks got, and each block's signature.
import type { InvalidBlock } from './api-anchor';

export interface ChainStatus {
  height: number; // blocks in the chain, genesis included
  valid: boolean;
  firstInvalid?: InvalidBlock;
  difficulty: number; // leading zero hex digits required
  lastBlockTime: string; // ISO 8601
  readOnly: boolean; // true when the stored chain failed verification at load, or its newest block is dated ahead: writes are refused
  futureTip?: string; // the newest block is dated far ahead of this device's clock: why writes wait
  signaturesChecked: number; // blocks from #0 whose signatures were checked and hold
  signaturesToCheck: number; // blocks that passed the rule checks: their signatures are checked next
  hashesChecked: number; // blocks from #0 whose hashes and links were checked and hold (a long chain is shown before)
  lastCheck?: true; // the height and times of this device's last load, shown while the stored blocks are read and checked again
  ownLedger?: true; // this browser holds a ledger of its own, not the demo ledger every browser holds (an earlier MedLedger made it)
}

// Whether a block's signature holds against its author's enrolled key, is not checked yet, or fails; the
// explorer's demo blocks (never on the records chain) are unsigned.
export type SignatureState = 'holds' | 'unchecked' | 'fails' | 'unsigned';
