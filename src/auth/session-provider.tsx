import { startTransition, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Role } from '../../workers/core/types';
import { useLedger, useLedgerContext } from '../ledger/use-ledger';
import { SessionContext, type SessionState, type SessionValue } from './session-context';
import { SESSION_KEY, clearStoredUser, readStoredUserId, storeUser } from './session-storage';

const SIGNED_OUT: SessionState = { status: 'signed-out', user: null };
const REPLACED: readonly ['reset'] = ['reset']; // the whole ledger was replaced (a reset, a restore, a sync server's ledger taken)

export function SessionProvider({ children }: { children: ReactNode }) {
  const service = useLedger();
  // A fresh object per request, so the same id stored again (another tab) is resumed again.
  const [resume, setResume] = useState<{ id: string } | null>(() => {
    const id = readStoredUserId();
    return id ? { id } : null;
  });
  const [state, setState] = useState<SessionState>(() => (resume ? { status: 'loading', user: null } : SIGNED_OUT));

  // After the ledger was replaced the worker may have signed the user out (a device that took a sync server's ledger
  // again): ask it again rather than show a screen whose every call is refused.
  const { versions } = useLedgerContext();
  useEffect(
    () =>
      versions.subscribe(REPLACED, () => {
        const id = readStoredUserId();
        if (id) setResume({ id });
      }),
    [versions],
  );

  // Resume the stored id through the worker; whatever else the entry claims is ignored (docs/decisions/session-lookup.md).
  useEffect(() => {
    if (!resume) return;
    let current = true;
    service.resumeSession(resume.id).then(
      (user) => {
        if (!current) return;
        if (user) {
          storeUser(user);
          // the whole signed-in screen renders now: in a transition, in slices that leave the main thread free
          startTransition(() => setState({ status: 'signed-in', user }));
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
  }, [service, resume]);

  const signIn = useCallback(
    async (email: string, password: string, role: Role) => {
      const user = await service.signIn(email, password, role);
      storeUser(user);
      startTransition(() => {
        setResume(null);
        setState({ status: 'signed-in', user });
      });
      return user;
    },
    [service],
  );

  const signOut = useCallback(async () => {
    clearStoredUser();
    setResume(null);
    setState(SIGNED_OUT);
    try {
      await service.signOut();
    } catch (error) {
      console.error('MedLedger: sign-out in the ledger failed', error);
    }
  }, [service]);

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
