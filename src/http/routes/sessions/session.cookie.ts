import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientInfo, SessionInfo, SignedIn } from '../../../modules/auth/index.ts';
import { DomainError } from '../../../platform/errors.ts';
import { SESSION_COOKIE } from '../../plugins/auth.plugin.ts';

/** Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when the public URL is https. */
export function setSessionCookie(reply: FastifyReply, signedIn: SignedIn, publicUrl: string, now: number): void {
  const maxAge = Math.max(0, Math.floor((signedIn.expiresAt - now) / 1000));
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${signedIn.token}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`,
  );
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  reply.header('set-cookie', `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`);
}

export function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { userAgent: typeof agent === 'string' ? agent : null, ip: request.ip, requestId: request.id };
}

/**
 * The endpoints that sign in without a session (setup, sign-in, reset, accept) have no CSRF token to check; a
 * browser's `Origin`, when sent, must then be this installation (its public URL or the host it was reached at).
 */
export function checkOrigin(request: FastifyRequest, publicUrl: string): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const allowed = new Set([new URL(publicUrl).origin, `${request.protocol}://${request.host}`]);
  if (!allowed.has(origin))
    throw new DomainError(
      'csrf_failed',
      `Requests from ${origin} may not sign in here; open Tocsin at its own address.`,
    );
}

export function presentSession(info: SessionInfo): Record<string, unknown> {
  return {
    user: { id: info.user.id, email: info.user.email, name: info.user.name },
    organization: { id: info.organization.id, name: info.organization.name, plan: info.organization.plan },
    role: info.role,
    csrf_token: info.csrfToken,
  };
}
