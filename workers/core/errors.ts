// Errors cross the worker boundary as Error with a fixed `name` and the exact catalogue message
// (MESSAGES below: the product's exact texts); the UI branches on `name`, never on instanceof.

export const MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  wrongRole: (role: string) => `Please select the correct user type. This account is registered as a ${role}.`,
  loginFailed: 'Login failed. Please try again.',
  accessDenied: 'Access denied: Insufficient permissions',
  deleteDenied: 'Access denied: Only patients can delete their own documents',
} as const;

export type LedgerErrorName =
  | 'LoginError' // wrong credentials or wrong user type
  | 'AccessDeniedError' // not allowed to read or change this
  | 'ValidationError' // bad input: the message names the problem
  | 'IntegrityError' // stored bytes or blocks fail their check
  | 'StorageError' // persistence refused a write: nothing was stored
  | 'ReadOnlyError' // the stored chain failed verification: writes are refused
  | 'NotFoundError'
  | 'CancelledError';

export function ledgerError(name: LedgerErrorName, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
