import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call } from '../api-access/helpers.ts';
import { startSmtpServer, type FakeSmtpServer } from '../fakes/smtp.fake.ts';
import { createMonitor, recordEvent } from '../alerting/helpers.ts';
import { acceptInvitation, mailedToken, setPassword } from '../support/sessions.ts';

const MEMBERS = '/api/v1/auth/organization/members';
const INVITATIONS = '/api/v1/auth/organization/invitations';
const WEEK = 7 * 24 * 3_600_000;
const PASSWORD = 'a password of ten';

type Entry = Record<string, unknown>;

/** The token of the one-time invitation link in the last mail to `address`. */
function lastLinkTo(smtp: FakeSmtpServer, address: string): string {
  return mailedToken(smtp.messages, address, '/accept-invitation');
}

describe.each(testDialects())('member invitations (%s)', (dialect) => {
  let t: TestApp;
  let smtp: FakeSmtpServer;
  let clock: ManualClock;
  let inviter: TestOrg;
  /** A verified user of another organization, with a name of their own. */
  let known: { id: string; email: string };

  const invite = (email: string, extra: Entry = {}, key = inviter.apiKey) =>
    call(t, key, 'POST', MEMBERS, { body: { email, role: 'member', ...extra } });
  const list = async (): Promise<Entry[]> => {
    const res = await call(t, inviter.apiKey, 'GET', MEMBERS);
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: Entry[] }).data;
  };
  const entryOf = async (email: string) => (await list()).find((e) => e.email === email);
  // What the web page's button does: the existing user gives their password, a new one chooses it.
  const follow = (token: string) => acceptInvitation(t, { token, password: PASSWORD });

  beforeAll(async () => {
    smtp = await startSmtpServer();
    clock = new ManualClock(Date.parse('2026-11-23T12:00:00.000Z'));
    t = await createTestApp({ dialect, clock, configFile: { smtp: smtp.url } });
  });
  // Each case: a fresh inviting organization, a fresh known user elsewhere, an empty mailbox.
  beforeEach(async () => {
    const { orgs } = t.tocsin.services;
    const other = await t.createOrg();
    const user = await orgs.ensureUser({ email: `someone-${other.organizationId}@elsewhere.example`, name: 'Own' });
    await orgs.addMember(other.organizationId, user.id, 'member');
    await orgs.markEmailVerified(user.id);
    await setPassword(t, user.id, PASSWORD);
    known = { id: user.id, email: user.email };
    inviter = await t.createOrg();
    smtp.reset();
  });
  afterAll(async () => {
    t.tocsin.services.alerting.mailer.close();
    await t.close();
    await smtp.close();
  });

  it('answers, lists and resends the same for another organization’s user as for an unknown address', async () => {
    const unknown = `nobody-${inviter.organizationId}@elsewhere.example`;
    const toKnown = await invite(known.email);
    const toUnknown = await invite(unknown);

    // The invite answers: byte-identical once the address is set aside.
    expect(toKnown.statusCode).toBe(201);
    expect(toUnknown.statusCode).toBe(201);
    expect(toKnown.json()).toEqual({ email: known.email, name: null, role: 'member', status: 'invited' });
    expect(toKnown.body.replace(known.email, 'ADDRESS')).toBe(toUnknown.body.replace(unknown, 'ADDRESS'));
    expect(toKnown.headers['content-type']).toBe(toUnknown.headers['content-type']);

    // The list: two pending invitations of one shape, nothing about the known user.
    const listed = await call(t, inviter.apiKey, 'GET', MEMBERS);
    expect(listed.body).not.toContain(known.id);
    expect(listed.body).not.toContain('Own');
    const a = (await entryOf(known.email))!;
    const b = (await entryOf(unknown))!;
    const sameApartFromIdentity = (e: Entry) => ({ ...e, invitation_id: 'ID', email: 'ADDRESS' });
    expect(sameApartFromIdentity(a)).toEqual(sameApartFromIdentity(b));
    expect(a).toEqual({
      invitation_id: expect.stringMatching(/^inv_/),
      email: known.email,
      name: null,
      role: 'member',
      status: 'invited',
      invited_at: new Date(clock.now()).toISOString(),
      expires_at: new Date(clock.now() + WEEK).toISOString(),
    });

    // Resending: the same answer for each; the known user's id names no member here.
    const resendKnown = await call(t, inviter.apiKey, 'POST', `${INVITATIONS}/${String(a.invitation_id)}/resend`);
    const resendUnknown = await call(t, inviter.apiKey, 'POST', `${INVITATIONS}/${String(b.invitation_id)}/resend`);
    expect([resendKnown.statusCode, resendKnown.body]).toEqual([202, '{"sent":true}']);
    expect([resendUnknown.statusCode, resendUnknown.body]).toEqual([resendKnown.statusCode, resendKnown.body]);
    const byUserId = await call(t, inviter.apiKey, 'POST', `${MEMBERS}/${known.id}/resend-verification`);
    const byOtherId = await call(t, inviter.apiKey, 'POST', `${MEMBERS}/usr_nope/resend-verification`);
    const errorOf = (res: typeof byUserId) => [res.statusCode, res.json().error.code, res.json().error.message];
    expect(errorOf(byUserId)).toEqual([404, 'not_found', 'Member not found.']);
    expect(errorOf(byUserId)).toEqual(errorOf(byOtherId));

    // The mails: one invitation and one resend each, worded alike.
    const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address)).map((m) => m.subject);
    expect(mailsTo(known.email)).toHaveLength(2);
    expect(mailsTo(known.email)).toEqual(mailsTo(unknown));
  });

  it('accepting the link makes the membership: an existing user joins, a new address becomes a user', async () => {
    const unknown = `new-${inviter.organizationId}@example.com`;
    expect((await invite(known.email, { role: 'admin' })).statusCode).toBe(201);
    expect((await invite(unknown, { name: 'New Person' })).statusCode).toBe(201);
    expect(await t.tocsin.services.orgs.findMembership(inviter.organizationId, known.id)).toBeNull();

    const joined = await follow(lastLinkTo(smtp, known.email));
    expect(joined.statusCode).toBe(201);
    expect(joined.json()).toMatchObject({ role: 'admin', organization: { id: inviter.organizationId } });
    expect(await follow(lastLinkTo(smtp, unknown))).toMatchObject({ statusCode: 201 });

    const created = await t.tocsin.services.orgs.ensureUser({ email: unknown });
    expect(await entryOf(known.email)).toEqual({
      user_id: known.id,
      email: known.email,
      name: 'Own',
      role: 'admin',
      status: 'active',
      email_verified: true,
      email_verified_at: expect.any(String),
    });
    expect(await entryOf(unknown)).toEqual({
      user_id: created.id,
      email: unknown,
      name: 'New Person',
      role: 'member',
      status: 'active',
      email_verified: true,
      email_verified_at: new Date(clock.now()).toISOString(),
    });
    expect((await list()).filter((e) => e.status === 'invited')).toEqual([]);
    // An accepted address is a member: inviting it again is a conflict of this organization's own.
    expect((await invite(unknown)).statusCode).toBe(409);
  });

  it('refuses a used, replaced, revoked or expired link', async () => {
    const used = `used-${inviter.organizationId}@example.com`;
    await invite(used);
    const usedLink = lastLinkTo(smtp, used);
    expect((await follow(usedLink)).statusCode).toBe(201);
    const again = await follow(usedLink);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('invalid_token');

    // Two clicks at once: one membership, one refusal.
    const raced = `raced-${inviter.organizationId}@example.com`;
    await invite(raced);
    const racedLink = lastLinkTo(smtp, raced);
    const codes = (await Promise.all([follow(racedLink), follow(racedLink)])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 400]);
    expect((await list()).filter((e) => e.email === raced)).toMatchObject([{ status: 'active' }]);

    const replaced = `replaced-${inviter.organizationId}@example.com`;
    await invite(replaced);
    const first = lastLinkTo(smtp, replaced);
    const pending = (await entryOf(replaced))!;
    await call(t, inviter.apiKey, 'POST', `${INVITATIONS}/${String(pending.invitation_id)}/resend`);
    expect((await follow(first)).statusCode).toBe(400);

    const revoked = `revoked-${inviter.organizationId}@example.com`;
    await invite(revoked);
    const revokedId = String((await entryOf(revoked))!.invitation_id);
    expect((await call(t, inviter.apiKey, 'DELETE', `${INVITATIONS}/${revokedId}`)).statusCode).toBe(204);
    expect((await follow(lastLinkTo(smtp, revoked))).statusCode).toBe(400);
    expect(await entryOf(revoked)).toBeUndefined();
    expect((await call(t, inviter.apiKey, 'DELETE', `${INVITATIONS}/${revokedId}`)).statusCode).toBe(404);

    const late = `late-${inviter.organizationId}@example.com`;
    await invite(late);
    const lateLink = lastLinkTo(smtp, late);
    clock.advance(WEEK);
    expect((await follow(lateLink)).statusCode).toBe(400);
    const stillPending = (await entryOf(late))!;
    expect(stillPending.status).toBe('invited');
    // A resend renews an expired invitation.
    await call(t, inviter.apiKey, 'POST', `${INVITATIONS}/${String(stillPending.invitation_id)}/resend`);
    expect((await follow(lastLinkTo(smtp, late))).statusCode).toBe(201);
    expect((await entryOf(late))!.status).toBe('active');
    expect((await entryOf(replaced))!.status).toBe('invited');
  });

  it('keeps invitations to owners and admins, within the organization, one pending per address', async () => {
    const address = `twice-${inviter.organizationId}@example.com`;
    expect((await invite(address)).statusCode).toBe(201);
    const duplicate = await invite(address.toUpperCase());
    expect(duplicate.statusCode).toBe(409);
    const id = String((await entryOf(address))!.invitation_id);

    const member = await t.createOrg({ role: 'member' });
    expect((await invite('x@example.com', {}, member.apiKey)).statusCode).toBe(403);
    // Another organization's owner neither sees, resends nor revokes it.
    const outsider = await t.createOrg();
    expect((await call(t, outsider.apiKey, 'POST', `${INVITATIONS}/${id}/resend`)).statusCode).toBe(404);
    expect((await call(t, outsider.apiKey, 'DELETE', `${INVITATIONS}/${id}`)).statusCode).toBe(404);
    expect((await call(t, outsider.apiKey, 'GET', MEMBERS)).body).not.toContain(id);

    // Actions that take no body refuse one, and do nothing.
    for (const [method, url] of [
      ['POST', `${INVITATIONS}/${id}/resend`],
      ['DELETE', `${INVITATIONS}/${id}`],
    ] as const) {
      const withBody = await call(t, inviter.apiKey, method, url, { body: { force: true } });
      expect(withBody.statusCode, `${method} ${url}`).toBe(422);
    }
    expect(smtp.messages.filter((m) => m.to.includes(address))).toHaveLength(1);

    const bad = await invite('not-an-address');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details).toEqual([{ field: 'email', issue: 'must be an email address' }]);
    expect((await list()).filter((e) => e.status === 'invited')).toHaveLength(1);
  });

  it('sends the organization email to accepted members only', async () => {
    const { orgs } = t.tocsin.services;
    await orgs.markEmailVerified(inviter.userId);
    const owner = (await orgs.findUser(inviter.userId))!;
    const accepted = `accepted-${inviter.organizationId}@example.com`;
    await invite(accepted);
    await invite(known.email); // verified elsewhere, but has not accepted here
    expect((await follow(lastLinkTo(smtp, accepted))).statusCode).toBe(201);

    const monitorId = await createMonitor(t, inviter.apiKey);
    smtp.reset();
    await recordEvent(t, { organizationId: inviter.organizationId, type: 'down', monitorId, payload: {} });
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    const recipients = smtp.messages.flatMap((m) => m.to).sort();
    expect(recipients).toEqual([accepted, owner.email].sort());
  });
});
