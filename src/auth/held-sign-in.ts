import type { Role } from '../../workers/core/types';

// The pre-rendered login takes input before the app's code has run; a Sign In pressed then is held by
// public/start-app.js (it marks <html> with this class and says "Signing in..."), and the app signs in with the
// form's fields when it starts: src/start/mount-app.tsx reads them, the login screen signs in with them.
export const SIGN_IN_HELD = 'sign-in-held';
// Set on <html> when the app runs: from then on the login's own handler answers a submit, not public/start-app.js.
export const APP_RUNNING = 'app-running';

export interface SignInFields {
  email: string;
  password: string;
  role: Role;
}

let held: SignInFields | null = null;

// The login form's fields by name, disabled or not (FormData would skip a disabled fieldset's).
export function signInFieldsOf(form: HTMLFormElement): SignInFields {
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | RadioNodeList | null)?.value ?? '';
  return { email: value('email').trim(), password: value('password'), role: value('role') === 'doctor' ? 'doctor' : 'patient' };
}

export function holdSignIn(fields: SignInFields): void {
  held = fields;
}

export function peekHeldSignIn(): SignInFields | null {
  return held;
}

// True once, for the screen that signs in with the held fields (StrictMode runs a mount's effect twice).
export function takeHeldSignIn(): boolean {
  const was = held !== null;
  held = null;
  return was;
}
