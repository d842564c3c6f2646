import type { LedgerErrorName } from '../../workers/core/errors';

// Errors the worker raises on purpose carry a message meant for the user (workers/core/errors.ts).
const USER_FACING: readonly LedgerErrorName[] = [
  'LoginError',
  'AccessDeniedError',
  'ValidationError',
  'IntegrityError',
  'StorageError',
  'ReadOnlyError',
  'NotFoundError',
];

export function errorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : undefined;
}

// The worker's message for its own errors; the fallback for anything unexpected (a bug, a dead worker).
export function userMessage(error: unknown, fallback: string): string {
  const name = errorName(error);
  if (name && (USER_FACING as readonly string[]).includes(name) && typeof (error as Error).message === 'string') {
    return (error as Error).message;
  }
  return fallback;
}

// What a query keeps as its error: comlink's errors are Errors, anything else is wrapped.
export function asError(error: unknown): Error {
  return error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)
    ? (error as Error)
    : new Error(String(error));
}
