import type { User } from '../../workers/core/types';
import type { LedgerRemote } from '../ledger/ledger-context';

// The stored session, resumed through the worker as soon as it starts (src/start/first-data.ts), before React's code
// is here: the session provider's first render is then signed in (or out) at once, and it asks no second time.
export interface EarlyResume {
  promise: Promise<User | null>;
  answered?: { user: User | null };
}

let early: { service: LedgerRemote; id: string; resume: EarlyResume } | null = null;

export function resumeEarly(service: LedgerRemote, id: string): Promise<User | null> {
  const resume: EarlyResume = { promise: service.resumeSession(id) };
  resume.promise.then(
    (user) => void (resume.answered = { user }),
    () => undefined, // the session provider reports it
  );
  early = { service, id, resume };
  return resume.promise;
}

// The early resume of `id` by this worker, if there was one.
export function earlyResume(service: LedgerRemote, id: string): EarlyResume | undefined {
  return early?.service === service && early.id === id ? early.resume : undefined;
}
