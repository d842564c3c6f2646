// A file's encrypted bytes as they travel between devices: one FileDoc when small, else FileChunkDocs that a
// receiving device counts as they land (workers/core/sync-protocol.ts). Shape checks only: the content id is
// checked over the joined bytes by whoever takes them.
import { FILE_CHUNK_BYTES, MAX_SYNC_FILE_BYTES, type FileEntry } from './sync-protocol';

// The slices of `bytes` in order: views, not copies (an Automerge document copies them when it is made).
export function splitFile(bytes: Uint8Array, chunkBytes = FILE_CHUNK_BYTES): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.byteLength; start += chunkBytes) chunks.push(bytes.subarray(start, start + chunkBytes));
  return chunks;
}

// Chunks a file of `size` bytes travels in: 0 for a file sent whole (one FileDoc).
export function chunkCount(size: number, chunkBytes = FILE_CHUNK_BYTES): number {
  return size > chunkBytes ? Math.ceil(size / chunkBytes) : 0;
}

// Bytes chunk `index` of a file of `size` bytes holds: all but the last are full.
export function chunkLength(size: number, index: number, chunkBytes = FILE_CHUNK_BYTES): number {
  return Math.min(chunkBytes, size - index * chunkBytes);
}

// Why an entry's chunk list cannot be the file it describes, or null: the count must follow from its size, so a
// peer cannot make a receiver fetch more documents than the file's bytes need.
export function chunkListProblem(entry: Pick<FileEntry, 'size' | 'chunks' | 'url'>): string | null {
  if (entry.chunks === undefined) return null;
  if (entry.size > MAX_SYNC_FILE_BYTES) return `oversized file: more than ${MAX_SYNC_FILE_BYTES} bytes`;
  if (!Array.isArray(entry.chunks) || entry.chunks.some((url) => typeof url !== 'string')) return 'malformed chunk list';
  if (entry.chunks.length !== chunkCount(entry.size)) return 'chunk count does not match the file size';
  if (entry.chunks[0] !== entry.url) return 'file url is not its first chunk';
  return null;
}

// A peer's chunk document as the bytes it adds, or why it is not chunk `index` of the file `entry` names.
export function chunkBytes(doc: unknown, entry: Pick<FileEntry, 'cid' | 'size'>, index: number): Uint8Array | string {
  const chunk = doc as { kind?: unknown; cid?: unknown; index?: unknown; bytes?: unknown } | null | undefined;
  if (chunk?.kind !== 'medledger-file-chunk' || !(chunk.bytes instanceof Uint8Array)) return 'malformed file chunk';
  if (chunk.cid !== entry.cid || chunk.index !== index) return 'file chunk of another file or place';
  if (chunk.bytes.byteLength !== chunkLength(entry.size, index)) return 'file chunk size does not match its entry';
  return chunk.bytes;
}

// The file's bytes from its chunks, in order; null when they do not add up to `size`.
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array | null {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  if (total !== size) return null;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
