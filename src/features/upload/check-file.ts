import { ACCEPTED_EXTENSIONS, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from '../../../workers/core/constants';
import { MIME_TYPES, UNKNOWN_MIME_TYPES } from '../../../workers/core/file-types';
import { checkFileName, fileExtension, fileNameMessage, mimeEssence } from '../../../workers/core/text-input';

export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

// A file that was not added: the screen shows the name isolated from the text around it (<bdi>).
export interface FileRejection {
  name: string; // '' when the file has no name; cut short and hidden characters spelled out when the name is refused
  reason: string;
}

// Checked from name, type and size only, before any byte is read (a 2 GB file is never loaded);
// the worker's validateUploadFile stays the final judge and words its messages the same.
export function checkFile(file: { name: string; type: string; size: number }): FileRejection | null {
  const { name, problem } = checkFileName(file.name);
  if (problem) return problem;
  const extension = fileExtension(name);
  if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(extension)) {
    return { name, reason: `is not an accepted file type (${ACCEPTED_EXTENSIONS.join(', ')})` };
  }
  if (file.size === 0) return { name, reason: 'is empty' };
  if (file.size > MAX_FILE_BYTES) return { name, reason: `is larger than ${MAX_FILE_BYTES / (1024 * 1024)} MB` };
  const mime = mimeEssence(file.type);
  if (!UNKNOWN_MIME_TYPES.includes(mime) && !MIME_TYPES[extension].includes(mime)) {
    return { name, reason: `is named ${extension} but its type is ${mime}` };
  }
  return null;
}

export function tooManyFiles(name: string): FileRejection {
  return { name, reason: `was not added: an upload holds at most ${MAX_FILES_PER_UPLOAD} files` };
}

// The whole message as one string, as the worker words it.
export function rejectionMessage(rejection: FileRejection): string {
  return fileNameMessage(rejection);
}

// Same name, size and modification time: the same file picked twice.
export function fileKey(file: File): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}
