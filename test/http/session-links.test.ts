import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorCode } from '../api-access/helpers.ts';
import { startSmtpServer, type FakeSmtpServer } from '../fakes/smtp.fake.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import {
  acceptInvitation,
  browserOf,
  createPerson,
  inSession,
  mailedToken,
  sessionCookieOf,
  signIn,
  type Browser,
} from '../support/sessions.ts';

const PASSWORD = 'first password 1';
const HOUR = 3_600_000;

describe.each(testDialects())('password reset, invitations and sessions from mailed links (%s)', (dialect) => {
  let t: TestApp;
  let smtp: FakeSmtpServer;
  let clock: ManualClock;
  let org: TestOrg;
  let owner: Browser;
  let n = 0;

  const lookup = (token: string) =>
    inSession(t, null, 'GET', `/api/v1/auth/invitations/lookup?token=${encodeURIComponent(token)}`);
  const pendingEmails = async () =>
    (
      (await inSession(t, owner, 'GET', '/api/v1/auth/organization/members')).json().data as Array<
        Record<string, string>
      >
    )
      .filter((m) => m.status === 'invited')
      .map((m) => m.email);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    clock = new ManualClock(Date.parse('2026-11-24T09:00:00.000Z'));
    t = await createTestApp({
      dialect,
      clock,
      configFile: { smtp: smtp.url, public_url: 'https://tocsin.example.com', http: { trust_proxy: ['loopback'] } },
    });
  });
  beforeEach(async () => {
    n += 1;
    org = await t.createOrg();
    await createPerson(t, org.organizationId, 'owner', `olga${n}@example.com`, PASSWORD);
    owner = await signIn(t, `olga${n}@example.com`, PASSWORD);
    smtp.reset();
  });
  afterAll(async () => {
    t.tocsin.services.alerting.mailer.close();
    await t.close();
    await smtp.close();
  });

  it('resets a password from the mailed link, once, and ends the other sessions', async () => {
    const email = `olga${n}@example.com`;
    const other = await signIn(t, email, PASSWORD);
    const unknown = await inSession(t, null, 'POST', '/api/v1/auth/password-reset', {
      body: { email: 'nobody@example.com' },
    });
    const known = await inSession(t, null, 'POST', '/api/v1/auth/password-reset', { body: { email } });
    expect([unknown.statusCode, known.statusCode]).toEqual([202, 202]);
    expect(unknown.json()).toEqual(known.json());
    expect(smtp.messages.map((m) => m.to)).toEqual([[email]]);
    expect(smtp.messages[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(
      'https://tocsin.example.com/reset-password?token=',
    );
    const token = mailedToken(smtp.messages, email, '/reset-password');

    const short = await inSession(t, owner, 'POST', '/api/v1/auth/password-reset/confirm', {
      body: { token, password: 'short' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().error.details).toEqual([{ field: 'password', issue: 'must be at least 10 characters' }]);
    await signIn(t, email, PASSWORD); // nothing changed

    // Confirmed from the owner's signed-in browser: that session stays, every other one ends.
    const done = await inSession(t, owner, 'POST', '/api/v1/auth/password-reset/confirm', {
      body: { token, password: 'second password 2' },
    });
    expect(done.statusCode).toBe(204);
    expect((await inSession(t, owner, 'GET', '/api/v1/auth/session')).statusCode).toBe(200);
    expect((await inSession(t, other, 'GET', '/api/v1/auth/session')).statusCode).toBe(401);
    const old = await inSession(t, null, 'POST', '/api/v1/auth/sessions', { body: { email, password: PASSWORD } });
    expect(errorCode(old)).toBe('invalid_credentials');
    await signIn(t, email, 'second password 2');

    const reused = await inSession(t, null, 'POST', '/api/v1/auth/password-reset/confirm', {
      body: { token, password: 'third password 3' },
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toMatchObject({ code: 'invalid_token', details: [{ field: 'token' }] });

    // A link expires after an hour.
    smtp.reset();
    await inSession(t, null, 'POST', '/api/v1/auth/password-reset', { body: { email } });
    const late = mailedToken(smtp.messages, email, '/reset-password');
    clock.advance(HOUR);
    const expired = await inSession(t, null, 'POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: late, password: 'third password 3' },
    });
    expect(errorCode(expired)).toBe('invalid_token');
    await signIn(t, email, 'second password 2');
  });

  it('invites a new person: the link is looked up without using it, accepted once by POST, and signs in', async () => {
    const email = `newbie${n}@example.com`;
    const invited = await inSession(t, owner, 'POST', '/api/v1/auth/organization/members', {
      body: { email, role: 'viewer' },
    });
    expect(invited.statusCode).toBe(201);
    const raw = smtp.messages
      .at(-1)!
      .raw.replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(raw).toContain('https://tocsin.example.com/accept-invitation?token=');
    expect(raw).not.toContain('/verify-email');
    const token = mailedToken(smtp.messages, email, '/accept-invitation');

    // Fetching the page and looking up the invitation (what a mail scanner or the page does) accepts nothing.
    await t.tocsin.app.inject({ method: 'GET', url: `/accept-invitation?token=${encodeURIComponent(token)}` });
    await t.tocsin.app.inject({ method: 'GET', url: `/verify-email?token=${encodeURIComponent(token)}` });
    for (let i = 0; i < 2; i += 1) {
      const res = await lookup(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ organization: { name: `Org ${n}` }, email, role: 'viewer', existing_user: false });
    }
    expect(await pendingEmails()).toEqual([email]);

    const noPassword = await acceptInvitation(t, { token, name: 'Newbie' });
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.json().error.details).toEqual([{ field: 'password', issue: 'is required for a new account' }]);
    expect(await pendingEmails()).toEqual([email]);

    const accepted = await acceptInvitation(t, { token, name: 'Newbie', password: 'newbie password' });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.headers['set-cookie']).toMatch(/HttpOnly; SameSite=Lax; Secure$/);
    const newbie = browserOf(accepted);
    expect(newbie.body).toMatchObject({
      user: { email, name: 'Newbie' },
      organization: { id: org.organizationId },
      role: 'viewer',
    });
    expect((await inSession(t, newbie, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    expect(await pendingEmails()).toEqual([]);
    const members = (await inSession(t, owner, 'GET', '/api/v1/auth/organization/members')).json().data;
    expect(members).toContainEqual(expect.objectContaining({ email, role: 'viewer', email_verified: true }));
    await signIn(t, email, 'newbie password');

    const again = await acceptInvitation(t, { token, name: 'Newbie', password: 'newbie password' });
    expect(again.statusCode).toBe(400);
    expect(errorCode(again)).toBe('invalid_token');
    expect(errorCode(await lookup(token))).toBe('invalid_token');
  });

  it('invites an existing user: they prove who they are with their password', async () => {
    const other = await t.createOrg();
    const email = `known${n}@example.com`;
    await createPerson(t, other.organizationId, 'member', email, 'known password 1');
    await inSession(t, owner, 'POST', '/api/v1/auth/organization/members', { body: { email, role: 'admin' } });
    const token = mailedToken(smtp.messages, email, '/accept-invitation');
    expect((await lookup(token)).json()).toMatchObject({ existing_user: true, role: 'admin' });

    const wrong = await acceptInvitation(t, { token, password: 'not their password' });
    expect(wrong.statusCode).toBe(401);
    expect(errorCode(wrong)).toBe('invalid_credentials');
    expect(sessionCookieOf(wrong)).toBeNull();
    expect(await pendingEmails()).toEqual([email]);
    // The wrong password is a failed sign-in of that account, in the organization it belongs to (audit log).
    const failed = await t.tocsin.services.audit.list(
      other.organizationId,
      { action: 'session.sign_in_failed' },
      { limit: 5 },
    );
    expect(failed.data.map((e) => e.changes)).toEqual([{ email: [null, email] }]);

    const right = await acceptInvitation(t, { token, password: 'known password 1' });
    expect(right.statusCode).toBe(201);
    expect(right.json()).toMatchObject({ role: 'admin', organization: { id: org.organizationId } });
    const accepted = await t.tocsin.services.audit.list(
      org.organizationId,
      { action: 'invitation.accept' },
      { limit: 50 },
    );
    expect(accepted.data.some((e) => e.actor.type === 'user' && e.changes.role?.[1] === 'admin')).toBe(true);
    expect(await pendingEmails()).toEqual([]);
  });

  it('refuses an expired invitation link clearly', async () => {
    const email = `late${n}@example.com`;
    await inSession(t, owner, 'POST', '/api/v1/auth/organization/members', { body: { email } });
    const token = mailedToken(smtp.messages, email, '/accept-invitation');
    clock.advance(7 * 24 * HOUR);
    const res = await acceptInvitation(t, { token, name: 'Late', password: 'late password 1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/unknown, already used, replaced by a newer one or expired/);
    expect(errorCode(await lookup(token))).toBe('invalid_token');
    expect(errorCode(await lookup('never-issued'))).toBe('invalid_token');
  });

  it('lists the person’s sessions and ends another one', async () => {
    const email = `olga${n}@example.com`;
    const phone = await inSession(t, null, 'POST', '/api/v1/auth/sessions', {
      body: { email, password: PASSWORD },
      headers: { 'user-agent': 'Phone/1.0', 'x-forwarded-for': '203.0.113.5' },
    });
    const phoneBrowser = browserOf(phone);
    clock.advance(2 * 60_000);
    const listed = await inSession(t, owner, 'GET', '/api/v1/auth/sessions');
    expect(listed.statusCode).toBe(200);
    const data = listed.json().data as Array<Record<string, unknown>>;
    expect(data).toHaveLength(2);
    expect(data.filter((s) => s.current)).toHaveLength(1);
    const phoneEntry = data.find((s) => s.user_agent === 'Phone/1.0')!;
    expect(phoneEntry).toMatchObject({ ip: '203.0.113.5', current: false });
    expect(Object.keys(phoneEntry).sort()).toEqual(['created_at', 'current', 'id', 'ip', 'last_seen_at', 'user_agent']);

    // last_seen_at moves with use (at most once a minute).
    await inSession(t, phoneBrowser, 'GET', '/api/v1/auth/session');
    const seen = (await inSession(t, owner, 'GET', '/api/v1/auth/sessions'))
      .json()
      .data.find((s: Record<string, unknown>) => s.id === phoneEntry.id);
    expect(seen.last_seen_at).toBe(new Date(clock.now()).toISOString());

    // Another person's session is not found; ending needs the CSRF token.
    const stranger = await t.createOrg();
    await createPerson(t, stranger.organizationId, 'owner', `stranger${n}@example.com`, PASSWORD);
    const strangerBrowser = await signIn(t, `stranger${n}@example.com`, PASSWORD);
    const foreign = await inSession(t, strangerBrowser, 'DELETE', `/api/v1/auth/sessions/${String(phoneEntry.id)}`);
    expect(foreign.statusCode).toBe(404);
    const noCsrf = await inSession(t, owner, 'DELETE', `/api/v1/auth/sessions/${String(phoneEntry.id)}`, {
      csrf: false,
    });
    expect(errorCode(noCsrf)).toBe('csrf_failed');
    expect((await inSession(t, phoneBrowser, 'GET', '/api/v1/auth/session')).statusCode).toBe(200);

    const ended = await inSession(t, owner, 'DELETE', `/api/v1/auth/sessions/${String(phoneEntry.id)}`);
    expect(ended.statusCode).toBe(204);
    expect(ended.headers['set-cookie']).toBeUndefined();
    expect((await inSession(t, phoneBrowser, 'GET', '/api/v1/auth/session')).statusCode).toBe(401);
    expect((await inSession(t, owner, 'GET', '/api/v1/auth/sessions')).json().data).toHaveLength(1);
    const twice = await inSession(t, owner, 'DELETE', `/api/v1/auth/sessions/${String(phoneEntry.id)}`);
    expect(twice.statusCode).toBe(404);
  });
});
