// The anchor types of the one API (workers/api.ts): the records chain's tip kept outside the device
// (docs/decisions/chain-anchor.md).
import type { ANCHOR_FORMAT, ANCHOR_VERSION } from './core/constants';

// Lives here, beside the anchor's report of each copy, so the one API (api.ts) imports it and nothing imports back.
export interface InvalidBlock {
  index: number; // the first block not verified (for a stored item: the chain's height)
  reason: string; // which check or rule failed, e.g. 'hash does not match the block header'
  item?: string; // a stored item beside the chain that failed, e.g. 'document key <id>'
}

export interface ChainAnchor {
  format: typeof ANCHOR_FORMAT;
  version: typeof ANCHOR_VERSION;
  savedAt: string; // ISO 8601
  height: number; // blocks, genesis included: the tip is block height - 1
  tipHash: string;
  fingerprints: string; // the last 8 hex digits of the hash of every block 0 .. height - 1, in order
}

export interface AnchorCheck {
  anchor: { height: number; tipHash: string; savedAt: string };
  height: number; // today's chain
  unchanged: boolean; // today's block height - 1 of the anchor verifies and has the anchor's tip hash
  addedSince: number; // blocks after the anchor's tip today (0 when changed)
  firstDifferent?: number; // when changed: the first block whose hash differs from the anchor's, fails verification, or is gone
  chainValid: boolean; // today's chain passes the checks of hashes, links, rules and the signatures checked so far
  firstInvalid?: InvalidBlock; // when not valid: the first block that fails; the anchor vouches for none from there
  missing?: boolean; // today's chain ends before the anchor's tip
  unverified?: boolean; // block firstDifferent still has the anchor's hash but fails verification: it proves nothing
}
