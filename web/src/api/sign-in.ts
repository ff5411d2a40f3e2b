import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useApi } from './context';
import type { SessionInfo } from './session';

/** Only a path of this app may be a `next` target (never another origin: `//host` or `https:`). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** After any call that signs in: keep the session, then go to the page that was asked for. */
export function useSignedIn(): (info: SessionInfo) => void {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (info) => {
    api.setCsrfToken(info.csrf_token);
    queryClient.setQueryData(['session'], info);
    queryClient.setQueryData(['setup'], { needed: false });
    void navigate(safeNext(params.get('next')), { replace: true });
  };
}
