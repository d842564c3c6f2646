import { createContext } from 'react';
import type { Role, User } from '../../workers/core/types';

export type SessionState =
  { status: 'loading'; user: null } | { status: 'signed-out'; user: null } | { status: 'signed-in'; user: User };

export type SessionValue = SessionState & {
  signIn: (email: string, password: string, role: Role) => Promise<User>;
  signOut: () => Promise<void>;
};

export const SessionContext = createContext<SessionValue | null>(null);
