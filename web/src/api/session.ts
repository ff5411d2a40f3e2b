import { createContext, useContext } from 'react';

export type Role = 'owner' | 'admin' | 'member' | 'viewer';

/** The body of `GET /api/v1/auth/session` and of every call that signs in (DECISIONS §14). */
export interface SessionInfo {
  user: { id: string; email: string; name: string | null };
  organization: { id: string; name: string; plan: string };
  role: Role;
  csrf_token: string;
}

export interface SessionState {
  session: SessionInfo;
  /** Replaces the session after sign-in, setup or invitation acceptance. */
  signedIn(next: SessionInfo): void;
  signOut(): Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside a signed-in page');
  return state;
}

/** What the role may do, so that the UI shows only that (the API refuses the rest anyway). */
export function can(role: Role) {
  const admin = role === 'owner' || role === 'admin';
  return {
    write: role !== 'viewer',
    admin,
    owner: role === 'owner',
  };
}
