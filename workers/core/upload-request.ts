// Checks an upload request as it crosses the boundary: any value may arrive, so every field is checked.
import type { UploadRequest } from '../api';
import { MAX_DESCRIPTION_LENGTH, MAX_FILES_PER_UPLOAD, MAX_TITLE_LENGTH } from './constants';
import { validateUploadFile } from './documents';
import { ledgerError } from './errors';

function invalid(message: string): never {
  throw ledgerError('ValidationError', message);
}

function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

export function validateUpload(request: UploadRequest): { title: string; description: string; files: UploadRequest['files'] } {
  if (!request || typeof request !== 'object') invalid('The upload is missing its details.');
  const title = typeof request.title === 'string' ? request.title.trim() : '';
  if (title === '') invalid('Enter a title.');
  if (title.length > MAX_TITLE_LENGTH) invalid(`The title is longer than ${MAX_TITLE_LENGTH} characters.`);
  if (request.description !== undefined && typeof request.description !== 'string') invalid('The description must be text.');
  const description = (request.description ?? '').trim();
  if (description.length > MAX_DESCRIPTION_LENGTH) invalid(`The description is longer than ${MAX_DESCRIPTION_LENGTH} characters.`);
  if (request.type !== 'prescription' && request.type !== 'test_report') {
    invalid('Choose a record type: prescription or test report.');
  }
  const files = Array.isArray(request.files) ? request.files : [];
  if (files.length === 0) invalid('Add at least one file.');
  if (files.length > MAX_FILES_PER_UPLOAD) invalid(`An upload holds at most ${MAX_FILES_PER_UPLOAD} files.`);
  for (const file of files) {
    const name = typeof file?.name === 'string' ? file.name : 'A file';
    if (typeof file?.name !== 'string' || !isArrayBuffer(file.bytes)) invalid(`"${name}" could not be read.`);
    const problem = validateUploadFile({ name, type: typeof file.type === 'string' ? file.type : '', bytes: file.bytes });
    if (problem) invalid(problem);
  }
  return { title, description, files };
}
