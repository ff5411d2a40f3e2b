import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ApiError } from '../api/client';
import { useApi } from '../api/context';
import { SessionContext, type SessionInfo, type SessionState } from '../api/session';

/**
 * Pages behind sign-in. Without a session: to /setup when no organization exists yet, else to /sign-in with
 * the page asked for in `next`, so that an alert link opened cold lands on its incident after signing in.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const location = useLocation();
  const session = useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        const info = await api.json<SessionInfo>('GET', '/api/v1/auth/session');
        api.setCsrfToken(info.csrf_token);
        return info;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
  const setup = useQuery({
    queryKey: ['setup'],
    queryFn: () => api.json<{ needed: boolean }>('GET', '/api/v1/auth/setup'),
    enabled: session.data === null,
  });
  const state = useMemo<SessionState | null>(
    () =>
      session.data
        ? {
            session: session.data,
            signedIn: (next) => {
              api.setCsrfToken(next.csrf_token);
              queryClient.setQueryData(['session'], next);
            },
            signOut: async () => {
              await api.json('DELETE', '/api/v1/auth/session');
              api.setCsrfToken(null);
              queryClient.clear();
              queryClient.setQueryData(['session'], null);
            },
          }
        : null,
    [api, queryClient, session.data],
  );

  if (session.isError) {
    return (
      <main className="centered">
        <h1>Tocsin</h1>
        <p role="alert">The server cannot be reached: {session.error.message}</p>
        <button type="button" onClick={() => void session.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  if (session.data === null) {
    if (setup.data?.needed) return <Navigate to="/setup" replace />;
    if (setup.data || setup.isError) {
      const next = `${location.pathname}${location.search}`;
      return <Navigate to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
    }
  }
  if (!state) {
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  }
  return <SessionContext value={state}>{children}</SessionContext>;
}
