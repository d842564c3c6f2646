// Content ids as `ipfs add` gives them (UnixFS, 256 KiB chunks, CIDv0), with the IPFS importer: loaded only where a
// content id is computed (workers/core/documents.ts contentId) or a backup is written (backup-file.ts).
import { importBytes, type ImporterOptions, type WritableStorage } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import { IPFS_CHUNK_BYTES, IPFS_MAX_CHILDREN } from './constants';

// Only the root CID is wanted: every block is hashed, then dropped.
const discardBlocks: WritableStorage = { put: (cid) => cid };

// Kubo's `ipfs add` defaults, spelled out so a change of the importer's own defaults cannot change ids.
export function ipfsAddDefaults(): ImporterOptions {
  return {
    cidVersion: 0,
    rawLeaves: false, // leaves stay UnixFS file nodes in dag-pb, as `ipfs add` does with CIDv0
    chunker: fixedSize({ chunkSize: IPFS_CHUNK_BYTES }),
    layout: balanced({ maxChildrenPerNode: IPFS_MAX_CHILDREN }),
    reduceSingleLeafToSelf: true, // a one-chunk file is a single node, not a root over one leaf
  };
}

export async function ipfsAddId(bytes: Uint8Array): Promise<string> {
  const { cid } = await importBytes(bytes, discardBlocks, ipfsAddDefaults());
  return cid.toString();
}
