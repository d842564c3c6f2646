// The shape of a sealed part as a record carries it (sealed-fields.ts seals and opens them): checked by the record
// kinds' shapes (records/), which sealing itself reads, so these import nothing of sealing.
import { isKeyWrap } from './key-wraps';
import type { ReaderSealed, SealedPart } from './types';

// base64 characters of a part's data: a sealed title and description (5,200 characters, at most 6 bytes each as JSON) fit
// many times over, and a stored block stays bounded like every other field (record-format.ts)
export const MAX_SEALED_DATA = 200_000;
export const DOCUMENT_KEY = 'document'; // a sealed part's `key` when it is under its file's own document key
export const RECORD_KEY = 'record'; // …when it is under a key of its own, wrapped in the record to its readers

export function isSealedPart(value: unknown): value is SealedPart {
  const part = value as Partial<Record<keyof SealedPart, unknown>> | null;
  return (
    typeof part === 'object' &&
    part !== null &&
    typeof part.key === 'string' &&
    typeof part.iv === 'string' &&
    typeof part.data === 'string' &&
    part.key.length <= 64 &&
    part.iv.length === 16 &&
    part.data.length <= MAX_SEALED_DATA
  );
}

export function isReaderSealed(value: unknown): value is ReaderSealed {
  const sealed = value as Partial<Record<keyof ReaderSealed, unknown>> | null;
  return (
    typeof sealed === 'object' &&
    sealed !== null &&
    isSealedPart(sealed.part) &&
    sealed.part.key === RECORD_KEY &&
    Array.isArray(sealed.wraps) &&
    sealed.wraps.length <= 2 &&
    sealed.wraps.every(isKeyWrap)
  );
}
