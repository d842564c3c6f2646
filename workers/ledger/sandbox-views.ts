// The sandbox's blocks as the explorer shows them (workers/ledger/sandbox.ts): a row of its table and the same block
// in the editor. Loaded with the sandbox, on its first call.
import type { BlockSummary, SandboxBlock, SignatureState } from '../api';
import { isOpaque, type PeerChain } from '../core/sandbox-chain';
import { readableSummary, restrictedSummary } from './views';

// A block of a sandbox copy with the problem its checks found. The reader's copy holds only what they may read and
// the demo blocks: any other block is opaque. A sealed upload's title is '' on the chain: the copy shows the one the
// reader opened (`openedTitle`), until it is edited.
export function sandboxRow(chain: PeerChain, index: number, signature: SignatureState, openedTitle = ''): BlockSummary {
  const block = chain.blocks[index];
  const problem = chain.problems.get(index);
  const found = problem === undefined ? {} : { problem };
  if (isOpaque(block)) return { ...restrictedSummary(block, index), ...found };
  const summary = readableSummary(block, index, signature);
  return { ...summary, title: summary.title === '' ? openedTitle : summary.title, ...found };
}

// The same block in the editor: its data hash, and its description when the reader may read it.
export function sandboxDetail(chain: PeerChain, index: number, signature: SignatureState, openedTitle = ''): SandboxBlock {
  const block = chain.blocks[index];
  const row = sandboxRow(chain, index, signature, openedTitle);
  if (row.restricted) return { ...row, dataHash: block.dataHash };
  return { ...row, description: block.data?.description ?? '', dataHash: block.dataHash };
}
