// A word for the login screen from the screen that signed the user out (a restore), kept for this tab only.
// public/start-app.js reads the same key: the pre-rendered login screen has no such word, so it is not hydrated.
const NOTICE_KEY = 'medledger-sign-in-notice';

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
}

export function peekSignInNotice(): string | null {
  try {
    return sessionStorage.getItem(NOTICE_KEY);
  } catch {
    return null;
  }
}

// Shown once: the login screen clears it after its first render.
export function clearSignInNotice(): void {
  try {
    sessionStorage.removeItem(NOTICE_KEY);
  } catch {
    // nothing to clear
  }
}
