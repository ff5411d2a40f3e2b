import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The CSRF token of a session, derived from its secret token (so it is bound to the session and needs no row):
 * a page of this origin reads it from the session answer; another site can read neither it nor the cookie.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}

/** Whether `presented` is the session's CSRF token (constant-time). */
export function csrfMatches(sessionToken: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const actual = Buffer.from(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
