// Checks an upload request as it crosses the boundary: any value may arrive, so every field is checked.
import type { FileInput, UploadRequest } from '../api';
import { MAX_FILES_PER_UPLOAD } from './constants';
import { validateUploadFile } from './documents';
import { ledgerError } from './errors';
import { canonicalFileType } from './file-types';
import { checkFileName, checkText } from './text-input';

function invalid(message: string): never {
  throw ledgerError('ValidationError', message);
}

export function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

// The request's text as it is stored: normalised by the rules of text-input.ts; each file's type its extension's usual one.
export function validateUpload(request: UploadRequest): { title: string; description: string; files: FileInput[] } {
  if (!request || typeof request !== 'object') invalid('The upload is missing its details.');
  const title = checkText('title', typeof request.title === 'string' ? request.title : '');
  if (title.problem) invalid(title.problem);
  if (request.description !== undefined && typeof request.description !== 'string') invalid('The description must be text.');
  const description = checkText('description', request.description ?? '');
  if (description.problem) invalid(description.problem);
  if (request.type !== 'prescription' && request.type !== 'test_report') {
    invalid('Choose a record type: prescription or test report.');
  }
  const files = Array.isArray(request.files) ? request.files : [];
  if (files.length === 0) invalid('Add at least one file.');
  if (files.length > MAX_FILES_PER_UPLOAD) invalid(`An upload holds at most ${MAX_FILES_PER_UPLOAD} files.`);
  const checked = files.map((file) => {
    const name = typeof file?.name === 'string' ? file.name : 'A file';
    if (typeof file?.name !== 'string' || !isArrayBuffer(file.bytes)) invalid(`"${name}" could not be read.`);
    const type = typeof file.type === 'string' ? file.type : '';
    const problem = validateUploadFile({ name, type, bytes: file.bytes });
    if (problem) invalid(problem);
    const stored = checkFileName(name).name;
    return { name: stored, type: canonicalFileType(stored), bytes: file.bytes }; // the rule accepts it (file-types.ts)
  });
  return { title: title.text, description: description.text, files: checked };
}
