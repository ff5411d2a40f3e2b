/**
 * Tocsin's close() releases what the process opened for mail even when its background roles never started (tests, the
 * CLI's commands): a mail sent by a request goes through the pooled SMTP transport, whose connection stays open
 * between mails. Left open, it kept an SMTP server's close waiting for its 30 s grace period (the subscribers test
 * spent 60 of its 63 s so), and a real server sees a client that never says QUIT.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../api-access/helpers.ts';
import { startSmtpServer, type FakeSmtpServer } from '../fakes/smtp.fake.ts';
import { createTestApp } from '../support/app.ts';

describe('close() without background roles', () => {
  let smtp: FakeSmtpServer | undefined;
  afterAll(async () => {
    await smtp?.close();
  });

  it('closes the SMTP connection a request opened', async () => {
    smtp = await startSmtpServer();
    const t = await createTestApp({ configFile: { smtp: smtp.url }, background: false });
    const org = await t.createOrg();
    // An invitation is mailed while the request is answered (members service), through the process's one mailer.
    const invited = await call(t, org.apiKey, 'POST', '/api/v1/auth/organization/members', {
      body: { email: 'invitee@example.com', role: 'member' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(smtp.messages.map((m) => m.to)).toEqual([['invitee@example.com']]);
    expect(smtp.openConnections(), 'the pooled connection stays open between mails').toBe(1);

    await t.close();
    // The client's QUIT reaches the server within milliseconds; the bound only catches a connection left open.
    await expect.poll(() => smtp!.openConnections(), { timeout: 5_000 }).toBe(0);
  });
});
