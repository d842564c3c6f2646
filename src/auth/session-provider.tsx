import { startTransition, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Role } from '../../workers/core/types';
import { useLedger, useLedgerContext } from '../ledger/use-ledger';
import { SessionContext, type SessionState, type SessionValue } from './session-context';
import { SERVER_LEDGER_NOTICE, leaveSignInNotice, peekSignInNotice } from '../components/sign-in-notice';
import { SESSION_KEY } from './session-key';
import { clearStoredUser, readStoredUserId, storeUser } from './session-storage';
import { earlyResume, type EarlyResume } from './early-resume';

const SIGNED_OUT: SessionState = { status: 'signed-out', user: null };
const SIGNED_OUT_KINDS: readonly ['signed-out'] = ['signed-out'];

export function SessionProvider({ children }: { children: ReactNode }) {
  const service = useLedger();
  const { versions, answers } = useLedgerContext();
  // A fresh object per request, so the same id stored again (another tab) is resumed again. The first one may have
  // been asked for before React ran (src/start/first-data.ts).
  const [resume, setResume] = useState<{ id: string; early?: EarlyResume } | null>(() => {
    const id = readStoredUserId();
    return id ? { id, early: earlyResume(service, id) } : null;
  });
  const [state, setState] = useState<SessionState>(() => {
    const answered = resume?.early?.answered;
    if (answered?.user) return { status: 'signed-in', user: answered.user };
    return resume && !answered ? { status: 'loading', user: null } : SIGNED_OUT;
  });

  // The worker signed the user out because this device took the sync server's ledger (on Connect, or again after a
  // reset): the login screen says why, and the screens stop asking for what is now refused.
  useEffect(() => {
    let seen = versions.versions()['signed-out'];
    return versions.subscribe(SIGNED_OUT_KINDS, () => {
      const now = versions.versions()['signed-out'];
      if (now === seen) return; // a reset also calls every listener
      seen = now;
      if (!peekSignInNotice()) leaveSignInNotice(SERVER_LEDGER_NOTICE);
      const id = readStoredUserId();
      if (id) setResume({ id });
    });
  }, [versions]);

  // Resume the stored id through the worker; whatever else the entry claims is ignored (docs/decisions/session-lookup.md).
  useEffect(() => {
    if (!resume) return;
    let current = true;
    (resume.early?.promise ?? service.resumeSession(resume.id)).then(
      (user) => {
        if (!current) return;
        answers.keepFor(user?.id ?? null); // before any screen of theirs renders
        if (user) {
          storeUser(user);
          // the whole signed-in screen renders now: in a transition, in slices that leave the main thread free
          // (unless it already has: an early resume's answer was there for the first render)
          startTransition(() =>
            setState((previous) => (previous.user?.id === user.id ? previous : { status: 'signed-in', user })),
          );
        } else {
          clearStoredUser();
          setState(SIGNED_OUT);
        }
      },
      (error: unknown) => {
        console.error('MedLedger: could not resume the session', error);
        if (current) setState(SIGNED_OUT);
      },
    );
    return () => {
      current = false;
    };
  }, [service, answers, resume]);

  const signIn = useCallback(
    async (email: string, password: string, role: Role) => {
      const user = await service.signIn(email, password, role);
      answers.keepFor(user.id);
      storeUser(user);
      startTransition(() => {
        setResume(null);
        setState({ status: 'signed-in', user });
      });
      return user;
    },
    [service, answers],
  );

  const signOut = useCallback(async () => {
    answers.keepFor(null);
    clearStoredUser();
    setResume(null);
    setState(SIGNED_OUT);
    try {
      await service.signOut();
    } catch (error) {
      console.error('MedLedger: sign-out in the ledger failed', error);
    }
  }, [service, answers]);

  // Another tab signed in or out: follow it (each tab has its own worker session).
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== SESSION_KEY && event.key !== null) return;
      const id = readStoredUserId();
      if (!id) {
        void signOut();
        return;
      }
      setState((previous) => (previous.user?.id === id ? previous : { status: 'loading', user: null }));
      setResume({ id });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [signOut]);

  const value = useMemo<SessionValue>(() => ({ ...state, signIn, signOut }), [state, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
