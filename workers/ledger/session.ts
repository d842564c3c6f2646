// The signed-in user of this worker: every other call is checked against it.
import type { LedgerService } from '../api';
import { accessDenied } from '../core/access';
import { DEMO_PASSWORD } from '../core/constants';
import { USERS, findUser } from '../core/directory';
import { MESSAGES, ledgerError } from '../core/errors';
import type { User } from '../core/types';
import { fail } from './deps';
import type { LedgerStore } from './store';

export function createSession(store: LedgerStore, recordDueExpiries: () => Promise<void>, actorChanged: () => void) {
  let actor: User | null = null;

  function setActor(next: User | null): void {
    if (next?.id !== actor?.id) actorChanged(); // a job or sandbox of one user never carries over to the next
    actor = next;
  }

  // Every call but the session ones: a signed-in user, the stored ledger loaded, due expiries recorded.
  async function enter(): Promise<User> {
    const signedIn = actor;
    if (!signedIn) throw accessDenied();
    await store.ready();
    await recordDueExpiries().catch(() => undefined); // reads still end at expiry by the clock if storage refuses
    return signedIn;
  }

  const api: Pick<LedgerService, 'signIn' | 'resumeSession' | 'signOut'> = {
    async signIn(email, password, role) {
      setActor(null);
      try {
        const wanted = typeof email === 'string' ? email.trim().toLowerCase() : '';
        const user = USERS.find((candidate) => candidate.email.toLowerCase() === wanted);
        if (!user || password !== DEMO_PASSWORD) fail('LoginError', MESSAGES.invalidCredentials);
        if (user.role !== role) fail('LoginError', MESSAGES.wrongRole(user.role));
        await store.ready(); // a ledger that cannot load is the unexpected failure of the login screen
        setActor(user);
        return structuredClone(user);
      } catch (error) {
        if (error instanceof Error && error.name === 'LoginError') throw error;
        throw ledgerError('LoginError', MESSAGES.loginFailed);
      }
    },

    async resumeSession(userId) {
      setActor((typeof userId === 'string' && findUser(userId)) || null); // only the id is trusted, looked up again
      return actor && structuredClone(actor);
    },

    async signOut() {
      setActor(null);
    },
  };
  return { api, enter };
}
