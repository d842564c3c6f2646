import type { User } from '../../workers/core/types';
import { SESSION_KEY } from './session-key';

// Only the id is trusted (docs/decisions/session-lookup.md): the role and name are looked up again in the user list.
// No storage (the build's pre-render in Node) is signed out.
export function readStoredUserId(storage: Storage | undefined = globalThis.localStorage): string | null {
  if (!storage) return null;
  const raw = storage.getItem(SESSION_KEY);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && 'id' in parsed && typeof parsed.id === 'string' && parsed.id) {
      return parsed.id;
    }
  } catch {
    // not JSON: treated as signed out below
  }
  storage.removeItem(SESSION_KEY);
  return null;
}

export function storeUser(user: User, storage: Storage = localStorage): void {
  storage.setItem(SESSION_KEY, JSON.stringify(user));
}

export function clearStoredUser(storage: Storage = localStorage): void {
  storage.removeItem(SESSION_KEY);
}
