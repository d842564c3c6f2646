// A word for the login screen from the screen that signed the user out (a restore, a device that took the sync
// server's ledger), kept for this tab only until the next sign-in. The login screen subscribes: the word may be left
// after it has rendered. public/start-app.js reads the same key: the pre-rendered login screen has no such word, so
// it is not hydrated.
const NOTICE_KEY = 'medledger-sign-in-notice';
const listeners = new Set<() => void>();

export const RESTORED_NOTICE =
  'Your backup was restored. Sign in again: the restored records are signed with the keys from the backup.';

export const SERVER_LEDGER_NOTICE =
  "This device now holds the sync server's ledger. Sign in again: its records are signed with the server's keys.";

export function leaveSignInNotice(text: string): void {
  try {
    sessionStorage.setItem(NOTICE_KEY, text);
  } catch {
    // storage refused: the user is signed out all the same, only without the explanation
  }
  for (const listener of listeners) listener();
}

export function subscribeSignInNotice(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function peekSignInNotice(): string | null {
  try {
    return sessionStorage.getItem(NOTICE_KEY);
  } catch {
    return null;
  }
}

// Said until the user signs in again: the login screen clears it then, so a remount never loses it.
export function clearSignInNotice(): void {
  try {
    sessionStorage.removeItem(NOTICE_KEY);
  } catch {
    // nothing to clear
  }
  for (const listener of listeners) listener();
}
