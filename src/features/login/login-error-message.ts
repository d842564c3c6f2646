import { MESSAGES } from '../../../workers/core/errors';
import { errorName } from '../../ledger/error-message';

// The worker's LoginError carries the catalogue text; anything else is an unexpected failure.
export function loginErrorMessage(error: unknown): string {
  if (errorName(error) === 'LoginError' && error instanceof Object && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return MESSAGES.loginFailed;
}
