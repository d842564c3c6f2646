// The sandbox's chains as plain data: three peers' copies, each block's own check kept so a page of rows is
// cheap, and the comparison of the copies. Pure: the ledger's sandbox module holds one and answers the API.
import type { ChainStatus } from '../api';
import { checkBlock, dataProblemOf, headerProblem, recordDataHash } from './chain';
import { SANDBOX_PEERS, type PeerName } from './constants';
import { ledgerError } from './errors';
import { isIndex } from './ids';
import type { HeaderToMine } from './mining';
import type { Block, ClinicalRecord } from './types';

export const SANDBOX_PATIENT_ID = 'sandbox'; // synthetic sandbox records, readable by everyone
export const SANDBOX_RESTRICTED_EDIT = 'This record is not yours to read, so its block cannot be edited.';

// A block of a record the reader may not read, as the reader's sandbox copy holds it: the header only, so its
// hash, link and proof of work still verify and it re-mines from its data hash, but no edit can test a guess.
export interface OpaqueBlock {
  id: string;
  hash: string;
  previousHash: string;
  heads?: string[];
  timestamp: string;
  dataHash: string;
  nonce: number;
  dataProblem: string | null; // why the original's record failed its data hash when copied (a tampered store)
  data?: undefined; // what tells it from a block: every block the reader may read has its record
}

export type PeerBlock = Block | OpaqueBlock;

export function isOpaque(block: PeerBlock): block is OpaqueBlock {
  return block.data === undefined;
}

// What re-mining hashes of a block besides its place: a block's record again, an opaque block's data hash as held.
export function headerToMine(block: PeerBlock): HeaderToMine {
  const dataHash = isOpaque(block) ? block.dataHash : recordDataHash(block.data);
  return { hash: block.hash, timestamp: block.timestamp, dataHash, ...(block.heads ? { heads: block.heads } : {}) };
}

// The reader's copy of the records chain: the blocks they may read in full, every other one opaque (a block
// without a record too: only a tampered store holds one, and its copy then names that check).
export function readerCopy(blocks: readonly Block[], mayRead: (record: Block['data']) => boolean): PeerBlock[] {
  return blocks.map((block): PeerBlock => {
    if (typeof block.data === 'object' && block.data !== null && mayRead(block.data)) return structuredClone(block);
    const { id, hash, previousHash, heads, timestamp, dataHash, nonce } = block;
    return { id, hash, previousHash, ...(heads ? { heads } : {}), timestamp, dataHash, nonce, dataProblem: dataProblemOf(block) };
  });
}

// checkBlock's checks for a header: the same reasons, with the data check decided when the block was copied.
function checkOpaque(block: OpaqueBlock, index: number, previous: PeerBlock | undefined, difficulty: number): string | null {
  return headerProblem(block, index, previous, difficulty, block.dataProblem);
}

// One peer's copy. Blocks are replaced, never changed in place, so copies share the blocks they agree on.
export interface PeerChain {
  blocks: PeerBlock[];
  problems: Map<number, string>; // blocks that fail a check by themselves: the edited one, the next one's link...
  edits: Map<number, number>; // the newest edit seq applied to each block: an older one arriving later is stale
  signature?: SandboxSignature; // a copy of the records chain: whose blocks' signatures still hold
}

// Why block `index`'s signature fails, or null. The sandbox holds no keys: a changed block stays unsigned.
export type SandboxSignature = (block: PeerBlock, index: number) => string | null;

export interface Sandbox {
  peers: Record<PeerName, PeerChain>;
  difficulty: number; // the lowest difficulty any of its blocks was mined at
}

export function sandboxRecord(index: number, timestamp: string, mined: boolean): ClinicalRecord {
  return {
    id: `sandbox-${index}`,
    patientId: SANDBOX_PATIENT_ID,
    doctorId: '',
    type: index === 0 ? 'diagnosis' : index % 2 === 0 ? 'test_report' : 'prescription',
    title: mined ? `Mining lab block ${index}` : `Demo record ${index}`,
    description: mined ? 'Mined in the mining lab sandbox.' : 'A demo block of the explorer sandbox.',
    files: [],
    timestamp,
  };
}

export function peerChain(blocks: PeerBlock[], problems: Map<number, string>, signature?: SandboxSignature): PeerChain {
  return { blocks, problems, edits: new Map(), signature };
}

// Three peers holding the same blocks (the arrays are copies, the blocks shared).
export function sandboxOf(
  blocks: PeerBlock[],
  problems: Map<number, string>,
  difficulty: number,
  signature?: SandboxSignature,
): Sandbox {
  const [first, ...others] = SANDBOX_PEERS;
  const peers = { [first]: peerChain(blocks, problems, signature) } as Record<PeerName, PeerChain>;
  for (const name of others) peers[name] = peerChain(blocks.slice(), new Map(problems), signature);
  return { peers, difficulty };
}

export function peerOf(peer: unknown): PeerName {
  if (peer === undefined) return SANDBOX_PEERS[0];
  if (typeof peer !== 'string' || !(SANDBOX_PEERS as readonly string[]).includes(peer)) {
    throw ledgerError(
      'ValidationError',
      `Choose peer ${SANDBOX_PEERS.slice(0, -1).join(', ')} or ${SANDBOX_PEERS[SANDBOX_PEERS.length - 1]}.`,
    );
  }
  return peer as PeerName;
}

export function blockIndexOf(chain: PeerChain, index: unknown): number {
  if (!isIndex(index) || index >= chain.blocks.length)
    throw ledgerError('NotFoundError', `Block ${String(index)} does not exist.`);
  return index;
}

// Re-checks block `index` against the block before it and keeps the result (O(1): two hashes).
export function recheck(chain: PeerChain, index: number, difficulty: number): void {
  if (index < 0 || index >= chain.blocks.length) return;
  const block = chain.blocks[index];
  const previous = chain.blocks[index - 1];
  const own = isOpaque(block) ? checkOpaque(block, index, previous, difficulty) : checkBlock(block, index, previous, difficulty);
  const problem = own ?? headsProblem(chain, index) ?? chain.signature?.(block, index) ?? null;
  if (problem === null) chain.problems.delete(index);
  else chain.problems.set(index, problem);
}

// A block with heads links to them instead of to the block before it: each must be a block earlier in the copy.
function headsProblem(chain: PeerChain, index: number): string | null {
  const heads = chain.blocks[index].heads;
  if (heads === undefined) return null;
  const previous = chain.blocks[index - 1];
  for (const head of heads) {
    let found = false;
    for (let at = index - 1; at >= 0 && !found; at--) found = chain.blocks[at].hash === head;
    if (found) continue;
    // on a straight stretch the one head is the block before: name the broken link as a chain without heads does
    return heads.length === 1 && previous
      ? `previousHash does not match block ${index - 1}`
      : `head ${head.slice(0, 8)} is not before it`;
  }
  return null;
}

export function recheckAll(chain: PeerChain, difficulty: number): void {
  chain.problems.clear();
  for (let index = 0; index < chain.blocks.length; index++) recheck(chain, index, difficulty);
}

export function firstProblem(chain: PeerChain): { index: number; reason: string } | undefined {
  if (chain.blocks.length === 0) return { index: 0, reason: 'the chain has no genesis block' };
  let first = -1;
  for (const index of chain.problems.keys()) if (first < 0 || index < first) first = index;
  return first < 0 ? undefined : { index: first, reason: chain.problems.get(first)! };
}

export function statusOf(chain: PeerChain, difficulty: number): ChainStatus {
  const firstInvalid = firstProblem(chain);
  return {
    height: chain.blocks.length,
    valid: !firstInvalid,
    ...(firstInvalid ? { firstInvalid } : {}),
    difficulty,
    lastBlockTime: chain.blocks[chain.blocks.length - 1]?.timestamp ?? '',
    readOnly: false,
    signaturesChecked: 0, // the sandbox checks no signatures itself: each block's problem names a changed one
    signaturesToCheck: 0,
    hashesChecked: chain.blocks.length,
  };
}

// For every peer, the first block whose hash is not the one held by at least two of the three copies
// (a block one copy lacks or has in excess counts as a different hash); where all three differ, all of them.
export function comparePeers(box: Sandbox): { differsFrom: Partial<Record<PeerName, number>>; noMajorityFrom?: number } {
  const chains = SANDBOX_PEERS.map((name) => box.peers[name].blocks);
  const longest = Math.max(...chains.map((blocks) => blocks.length));
  const differsFrom: Partial<Record<PeerName, number>> = {};
  for (let index = 0; index < longest; index++) {
    const [a, b, c] = chains.map((blocks) => blocks[index]?.hash ?? null);
    const majority = a === b || a === c ? a : b === c ? b : undefined;
    if (majority === undefined) {
      for (const name of SANDBOX_PEERS) differsFrom[name] ??= index; // no copy holds the majority's block
      return { differsFrom, noMajorityFrom: index };
    }
    [a, b, c].forEach((hash, at) => {
      if (hash !== majority) differsFrom[SANDBOX_PEERS[at]] ??= index;
    });
  }
  return { differsFrom };
}
