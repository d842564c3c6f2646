// A file made in the worker (an export, a backup) leaves it in parts of PART_BYTES, each transferred to the page,
// which joins them into one Blob: never one huge string or one copy of the whole file in either thread.
const PART_BYTES = 8 * 1024 * 1024;

// Gathers many small chunks into parts of PART_BYTES.
export function partsSink() {
  const parts: ArrayBuffer[] = [];
  let current = new Uint8Array(PART_BYTES);
  let used = 0;
  return {
    push(chunk: Uint8Array) {
      for (let offset = 0; offset < chunk.length;) {
        const take = Math.min(chunk.length - offset, PART_BYTES - used);
        current.set(chunk.subarray(offset, offset + take), used);
        used += take;
        offset += take;
        if (used === PART_BYTES) {
          parts.push(current.buffer);
          current = new Uint8Array(PART_BYTES);
          used = 0;
        }
      }
    },
    finish(): ArrayBuffer[] {
      if (used > 0) parts.push(current.slice(0, used).buffer);
      return parts;
    },
  };
}
