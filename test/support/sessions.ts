import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../src/modules/auth/index.ts';
import type { Role } from '../../src/modules/orgs/index.ts';
import type { TestApp } from './app.ts';

/** A signed-in browser: its cookie header value and the CSRF token of the session. */
export interface Browser {
  cookie: string;
  csrf: string;
  body: Record<string, unknown>;
}

/** The `tocsin_session=…` pair a response sets (for a Cookie header), or null. */
export function sessionCookieOf(res: LightMyRequestResponse): string | null {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const found = all.find((c) => c.startsWith('tocsin_session='));
  return found ? found.split(';')[0]! : null;
}

export function browserOf(res: LightMyRequestResponse): Browser {
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error(`no session cookie in ${res.statusCode} ${res.body}`);
  const body = res.json() as Record<string, unknown>;
  return { cookie, csrf: body.csrf_token as string, body };
}

/** A call made by a browser: the session cookie, and the CSRF token unless `csrf: false`. */
export function inSession(
  t: TestApp,
  browser: Browser | null,
  method: string,
  url: string,
  o: { body?: unknown; csrf?: boolean | string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const csrf = o.csrf === false ? undefined : typeof o.csrf === 'string' ? o.csrf : browser?.csrf;
  return t.tocsin.app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...(browser && { cookie: browser.cookie }),
      ...(csrf !== undefined && { 'x-csrf-token': csrf }),
      ...(o.body !== undefined && { 'content-type': 'application/json' }),
      ...o.headers,
    },
    ...(o.body !== undefined && { payload: JSON.stringify(o.body) }),
  });
}

export async function signIn(t: TestApp, email: string, password: string): Promise<Browser> {
  const res = await inSession(t, null, 'POST', '/api/v1/auth/sessions', { body: { email, password } });
  if (res.statusCode !== 201) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return browserOf(res);
}

/** A person with a password and a membership of `organizationId` (the way an accepted invitation leaves them). */
export async function createPerson(
  t: TestApp,
  organizationId: string,
  role: Role,
  email: string,
  password: string,
): Promise<{ userId: string }> {
  const { orgs } = t.tocsin.services;
  const user = await orgs.ensureUser({ email, name: email.split('@')[0]! });
  await orgs.addMember(organizationId, user.id, role);
  await orgs.markEmailVerified(user.id);
  const hash = await hashPassword(password);
  await t.tocsin.database
    .tables<{ app_user: { id: string; password_hash: string | null } }>()
    .updateTable('app_user')
    .set({ password_hash: hash })
    .where('id', '=', user.id)
    .execute();
  return { userId: user.id };
}
