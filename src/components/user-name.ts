import { findUser } from '../../workers/core/directory';

// A listed user's name, or the id itself when no listed user has it.
export function userName(id: string): string {
  return findUser(id)?.name ?? id;
}
