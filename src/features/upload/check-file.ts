import { ACCEPTED_EXTENSIONS, MAX_FILE_BYTES } from '../../../workers/core/constants';

export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

// Checked from name and size only, before any byte is read (a 2 GB file is never loaded);
// the worker's validateUploadFile stays the final judge. Messages match it word for word.
export function checkFile(file: { name: string; size: number }): string | null {
  if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) {
    return `"${file.name}" is not an accepted file type (${ACCEPTED_EXTENSIONS.join(', ')})`;
  }
  if (file.size === 0) return `"${file.name}" is empty`;
  if (file.size > MAX_FILE_BYTES) return `"${file.name}" is larger than ${MAX_FILE_BYTES / (1024 * 1024)} MB`;
  return null;
}

// Same name, size and modification time: the same file picked twice.
export function fileKey(file: File): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}
