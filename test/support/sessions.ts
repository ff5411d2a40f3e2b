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
  await setPassword(t, user.id, password);
  return { userId: user.id };
}

/**
 * The hash of each password this process gave a user, computed once: a hash costs a deliberately slow scrypt (about
 * 0.1 s of CPU, far more on a loaded machine), and tests give the same few passwords to many users. Sharing one salt
 * between test users changes nothing a test checks: sign-in still verifies the password against the stored hash.
 */
const hashes = new Map<string, Promise<string>>();

/** Gives an existing user a password (as a reset would). */
export async function setPassword(t: TestApp, userId: string, password: string): Promise<void> {
  let pending = hashes.get(password);
  if (!pending) {
    pending = hashPassword(password);
    hashes.set(password, pending);
    pending.catch(() => hashes.delete(password));
  }
  const hash = await pending;
  await t.tocsin.database
    .tables<{ app_user: { id: string; password_hash: string | null } }>()
    .updateTable('app_user')
    .set({ password_hash: hash })
    .where('id', '=', userId)
    .execute();
}

/** The token of the last mailed link with this path (`/accept-invitation`, `/reset-password`) to `address`. */
export function mailedToken(messages: Array<{ to: string[]; raw: string }>, address: string, path: string): string {
  const mails = messages.filter((m) => m.to.includes(address));
  if (mails.length === 0) throw new Error(`no mail to ${address}`);
  const raw = mails
    .at(-1)!
    .raw.replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  const found = new RegExp(`${path}\\?token=([\\w%-]+)`).exec(raw);
  if (!found) throw new Error(`no ${path} link in the mail to ${address}`);
  return decodeURIComponent(found[1]!);
}

/** Accepts an invitation by its token, as the web page's button does (POST). */
export function acceptInvitation(
  t: TestApp,
  body: { token: string; name?: string; password?: string },
): Promise<LightMyRequestResponse> {
  return inSession(t, null, 'POST', '/api/v1/auth/invitations/accept', { body });
}
