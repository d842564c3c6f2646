// The signed-in user of this worker: every other call is checked against it. Signing in unlocks the user's
// signing key with their password; the session keeps it, non-extractable, in memory and in storage until
// Logout, so a reload resumes only a session whose key is there (docs/decisions/signed-blocks.md). The user's
// encryption key, which opens the document keys wrapped to them, is unlocked and kept the same way
// (docs/decisions/document-keys-travel-wrapped.md).
import type { LedgerService } from '../api';
import { accessDenied } from '../core/access';
import { USERS, findUser } from '../core/directory';
import { MESSAGES, ledgerError } from '../core/errors';
import { encryptionKeyMatches } from '../core/key-wraps';
import { keyMatches, unlockUserKeys } from '../core/signatures';
import type { KeyEnrolment, User } from '../core/types';
import { FIRST_SCREEN_KEY, SESSION_KEY } from '../storage/ledger-storage';
import { fail, type LedgerDeps } from './deps';
import type { LedgerStore } from './store';

const KEY_NOT_ENROLLED =
  'This browser’s key for your account is not the one the records enrol, so you cannot sign in here. Reset the local data, or restore a backup of these records.';

// What storage keeps of the session: whose it is and their unwrapped key (structured clone keeps it non-extractable).
interface StoredSession {
  userId: string;
  signingKey: CryptoKey;
  encryptionKey?: CryptoKey; // absent when the ledger enrols no encryption key for the user
}

function isStoredSession(value: unknown): value is StoredSession {
  const session = value as Partial<StoredSession> | null | undefined;
  return typeof session?.userId === 'string' && session.signingKey instanceof CryptoKey;
}

export function createSession(
  deps: LedgerDeps,
  store: LedgerStore,
  recordDueExpiries: () => Promise<void>,
  actorChanged: () => void,
  // a long ledger's returning user with a kept first screen, and the keys its genesis enrols (first-screen.ts)
  earlyScreen: () => Promise<{ userId: string; enrolment: KeyEnrolment } | null> = async () => null,
) {
  let actor: User | null = null;
  let signingKey: CryptoKey | null = null;
  let encryptionKey: CryptoKey | null = null;
  let resumedEarly: KeyEnrolment | null = null; // the genesis's enrolment the session was resumed against, until the load

  function setActor(next: User | null, key: CryptoKey | null = null, decrypting: CryptoKey | null = null): void {
    if (next?.id !== actor?.id) actorChanged(); // a job or sandbox of one user never carries over to the next
    actor = next;
    signingKey = next ? key : null;
    encryptionKey = next ? decrypting : null;
  }

  // The user's unlocked encryption key when it is the one the chain enrols, else null (a ledger made before keys
  // travelled enrols none: document keys then stay on the device that made them).
  async function enrolledEncryptionKey(
    userId: string,
    key: CryptoKey | undefined,
    enrolment = store.state().enrolment,
  ): Promise<CryptoKey | null> {
    const enrolled = enrolment?.encryption?.[userId];
    if (!key || !enrolled) return null;
    return (await encryptionKeyMatches(key, enrolled)) ? key : null;
  }

  const encryptionEnrolled = (userId: string, enrolment = store.state().enrolment) =>
    enrolment?.encryption?.[userId] !== undefined;

  // The public key the chain enrolled for `userId` (the stored copy when the chain cannot be read, e.g. an old format).
  function enrolledKey(userId: string): string | undefined {
    return store.state().enrolment?.users[userId] ?? store.storedKeys()?.users[userId]?.publicKey;
  }

  // The stored session of `user` when its key is the one enrolled for them (and their decryption key, where the
  // chain enrols one): an edited id finds no key.
  async function storedSessionOf(user: User, enrolment: KeyEnrolment | null, enrolled: string | undefined) {
    const stored = await deps.storage.readMeta(SESSION_KEY);
    if (!isStoredSession(stored) || stored.userId !== user.id || !enrolled) return null;
    if (!(await keyMatches(stored.signingKey, enrolled))) return null;
    const storedKey = stored.encryptionKey instanceof CryptoKey ? stored.encryptionKey : undefined;
    const decrypting = await enrolledEncryptionKey(user.id, storedKey, enrolment);
    if (!decrypting && encryptionEnrolled(user.id, enrolment)) return null;
    return { user, signingKey: stored.signingKey, decrypting, enrolment };
  }

  // Before a long ledger's blocks are read (store.ts beforeLoad): the session of a user with a kept first screen,
  // checked against the genesis alone, so that their resume answers at once while the blocks are read.
  let earlyResume: ReturnType<typeof storedSessionOf> | null = null;
  function prepareEarlyResume(): ReturnType<typeof storedSessionOf> {
    earlyResume ??= earlyScreen().then((screen) => {
      const user = screen && findUser(screen.userId);
      return user ? storedSessionOf(user, screen.enrolment, screen.enrolment.users[user.id]) : null;
    });
    return earlyResume.catch(() => null);
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
      earlyResume = Promise.resolve(null); // the stored session is replaced
      try {
        const wanted = typeof email === 'string' ? email.trim().toLowerCase() : '';
        const user = USERS.find((candidate) => candidate.email.toLowerCase() === wanted);
        if (!user || typeof password !== 'string') fail('LoginError', MESSAGES.invalidCredentials);
        await store.ready(); // a ledger that cannot load is the unexpected failure of the login screen
        const wrapped = store.storedKeys()?.users[user.id];
        const unlocked = wrapped ? await unlockUserKeys(wrapped, password) : null;
        const key = unlocked?.signingKey;
        if (!key) fail('LoginError', MESSAGES.invalidCredentials); // the password is checked by unwrapping the key
        const enrolled = enrolledKey(user.id);
        // a stored key the chain does not enrol would sign blocks every later load refuses
        if (!enrolled || !(await keyMatches(key, enrolled))) fail('LoginError', KEY_NOT_ENROLLED);
        if (user.role !== role) fail('LoginError', MESSAGES.wrongRole(user.role));
        const decrypting = await enrolledEncryptionKey(user.id, unlocked.encryptionKey);
        // nor a decryption key that is not the enrolled one: what is sealed to them would show as sealed
        if (!decrypting && encryptionEnrolled(user.id)) fail('LoginError', KEY_NOT_ENROLLED);
        const session: StoredSession = { userId: user.id, signingKey: key, ...(decrypting ? { encryptionKey: decrypting } : {}) };
        await deps.storage.commit({ meta: { [SESSION_KEY]: session } });
        setActor(user, key, decrypting);
        return structuredClone(user);
      } catch (error) {
        if (error instanceof Error && error.name === 'LoginError') throw error;
        throw ledgerError('LoginError', MESSAGES.loginFailed);
      }
    },

    // Only the id is read from the page, and only a stored session of that user whose key matches the
    // enrolled one resumes it: an edited id finds no key and signs out.
    async resumeSession(userId) {
      const user = (typeof userId === 'string' && findUser(userId)) || null;
      if (user && actor?.id === user.id && signingKey) return structuredClone(user);
      setActor(null);
      if (!user) return null;
      const early = store.loaded() ? null : await prepareEarlyResume();
      if (early?.user.id === user.id) {
        setActor(user, early.signingKey, early.decrypting);
        resumedEarly = early.enrolment;
        return structuredClone(user);
      }
      await store.ready();
      const resumable = await storedSessionOf(user, store.state().enrolment, enrolledKey(user.id));
      if (!resumable) return null;
      setActor(user, resumable.signingKey, resumable.decrypting);
      return structuredClone(user);
    },

    async signOut() {
      setActor(null);
      earlyResume = Promise.resolve(null); // the stored session goes
      await deps.storage.commit({ deleteMeta: [SESSION_KEY, FIRST_SCREEN_KEY] });
    },
  };
  // Once the load is shown: a session resumed against the genesis alone holds when the loaded chain enrols the
  // same keys (another tab may have replaced the ledger meanwhile); false when it was ended.
  function confirmEarlyResume(): boolean {
    const early = resumedEarly;
    resumedEarly = null;
    const user = actor;
    if (!early || !user) return true;
    const enrolment = store.state().enrolment;
    const same =
      enrolment?.users[user.id] === early.users[user.id] && enrolment?.encryption?.[user.id] === early.encryption?.[user.id];
    if (!same) setActor(null);
    return same;
  }

  return {
    api,
    confirmEarlyResume,
    prepareEarlyResume: () => prepareEarlyResume().then(() => undefined),
    enter,
    actor: () => actor,
    signingKey: (author: string) => (actor?.id === author ? (signingKey ?? undefined) : undefined),
    // the signed-in user's key for opening document keys wrapped to them; never leaves the worker
    encryptionKey: (userId: string) => (actor?.id === userId ? (encryptionKey ?? undefined) : undefined),
  };
}
