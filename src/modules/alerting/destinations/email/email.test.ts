import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpServer, type FakeSmtpServer } from '../../../../../test/fakes/index.ts';
import {
  alertEvent,
  delivery,
  destinationRecord,
  providerContext,
  renderCtx,
} from '../../../../../test/fakes/alert-events.ts';
import type { EventType, Mailer, SendOutcome } from '../destination.contract.ts';
import { createMailer } from '../../../../platform/mail/index.ts';
import { emailProvider as provider } from './email.provider.ts';
import { classifySmtpError } from './email.send.ts';

const dest = destinationRecord('email', { address: 'ops@example.com' });
const ROOT = '<incident-inc_1.mon_1@tocsin.example.com>';

describe('email render', () => {
  it.each([
    ['down', '[Tocsin] DOWN: API health – HTTP 503 (expected 200)'],
    ['recovered', '[Tocsin] RECOVERED: API health'],
    ['scheduled_report', '[Tocsin] Scheduled report: Weekly availability'],
  ] as Array<[EventType, string]>)('%s → subject %s', (type, subject) => {
    const mail = provider.render(alertEvent(type), dest, delivery(), renderCtx);
    expect(mail.subject).toBe(subject);
    expect(mail.to).toBe('ops@example.com');
    expect(mail.headers['Auto-Submitted']).toBe('auto-generated');
  });

  it('threads: down is the root, recovered replies to it', () => {
    const down = provider.render(alertEvent('down'), dest, delivery('dlv_a'), renderCtx);
    const recovered = provider.render(alertEvent('recovered'), dest, delivery('dlv_b'), renderCtx);
    expect(down.headers['Message-ID']).toBe(ROOT);
    expect(down.headers['In-Reply-To']).toBeUndefined();
    expect(recovered.headers).toMatchObject({
      'In-Reply-To': ROOT,
      References: ROOT,
      'Message-ID': '<incident-inc_1.recovered.dlv_b@tocsin.example.com>',
    });
  });

  it('escapes HTML and includes both bodies', () => {
    const mail = provider.render(alertEvent('down', { cause: '<img src=x>' }), dest, delivery(), renderCtx);
    expect(mail.html).toContain('&lt;img src=x&gt;');
    expect(mail.text).toContain('<img src=x>');
    expect(mail.text).toContain('Down for 14m (since 2026-03-01T12:03:00Z)');
  });

  it('validates the address', () => {
    expect(provider.validateConfig({ address: 'not an address' })).toEqual([
      { field: 'config.address', issue: 'must be an email address' },
    ]);
  });
});

describe('email send (through nodemailer against the SMTP fake)', () => {
  let smtp: FakeSmtpServer;
  let mailer: Mailer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ rejectRecipients: ['nobody@example.com'] });
    mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'Tocsin <alerts@tocsin.example.com>',
      logger: { info: () => {} },
    });
  });
  afterAll(async () => {
    mailer.close();
    await smtp.close();
  });
  beforeEach(() => smtp.reset());

  const send = async (type: EventType, address = 'ops@example.com', dlv = 'dlv_1') => {
    const d = destinationRecord('email', { address });
    const ctx = providerContext({ mailer, timeoutMs: 5000 });
    return provider.send(provider.render(alertEvent(type), d, delivery(dlv), ctx), d, delivery(dlv), ctx);
  };

  it('delivers down then recovered, threaded', async () => {
    expect(await send('down', undefined, 'dlv_a')).toEqual({ outcome: 'ok', provider_reference: ROOT });
    expect((await send('recovered', undefined, 'dlv_b')).outcome).toBe('ok');
    const [down, recovered] = smtp.messages;
    expect(down!.to).toEqual(['ops@example.com']);
    expect(down!.headers['message-id']).toBe(ROOT);
    expect(down!.headers['auto-submitted']).toBe('auto-generated');
    expect(down!.subject).toBe('[Tocsin] DOWN: API health – HTTP 503 (expected 200)');
    expect(down!.raw).toMatch(/text\/html/);
    expect(recovered!.headers['in-reply-to']).toBe(ROOT);
    expect(recovered!.headers.references).toBe(ROOT);
  });

  it.each([
    [{ stage: 'mail', code: 451 }, 'retry'],
    [{ stage: 'rcpt', code: 450 }, 'retry'],
    [{ stage: 'rcpt', code: 550 }, 'destination_broken'],
    [{ stage: 'data', code: 554 }, 'payload_rejected'],
    [{ stage: 'data', code: 552 }, 'payload_rejected'],
  ] as Array<[{ stage: 'mail' | 'rcpt' | 'data'; code: number }, SendOutcome]>)(
    'SMTP %o → %s',
    async (failure, outcome) => {
      smtp.failNext(failure);
      expect((await send('down')).outcome).toBe(outcome);
    },
  );

  it('a refused recipient → destination_broken', async () => {
    expect((await send('down', 'nobody@example.com')).outcome).toBe('destination_broken');
  });

  it('classifies nodemailer error codes', () => {
    expect(classifySmtpError({ code: 'EAUTH', responseCode: 535 }).outcome).toBe('reauthorize');
    expect(classifySmtpError({ code: 'ECONNECTION' }).outcome).toBe('retry');
    expect(classifySmtpError({ code: 'ETLS' }).outcome).toBe('destination_broken');
  });

  it('a mailer that never answers → retry after the timeout', async () => {
    const stuck: Mailer = { sendMail: () => new Promise(() => {}), close() {} };
    const ctx = providerContext({ mailer: stuck, timeoutMs: 100 });
    const mail = provider.render(alertEvent('down'), dest, delivery(), ctx);
    expect(await provider.send(mail, dest, delivery(), ctx)).toEqual({
      outcome: 'retry',
      reason: 'SMTP timed out after 100 ms',
    });
  });

  it('without SMTP the mailer logs the mail and says it was not sent', async () => {
    const logged: Array<{ obj: object; msg: string }> = [];
    const logMailer = createMailer({
      smtpUrl: null,
      from: 'x@y.z',
      logger: { info: (obj, msg) => logged.push({ obj, msg }) },
    });
    const ctx = providerContext({ mailer: logMailer });
    const mail = provider.render(alertEvent('down'), dest, delivery(), ctx);
    expect(await provider.send(mail, dest, delivery(), ctx)).toEqual({
      outcome: 'ok',
      provider_reference: ROOT,
      not_sent: 'Not sent: no SMTP server is configured (smtp); the mail was written to the server log',
    });
    expect(logged[0]).toMatchObject({ msg: 'email (no SMTP configured)', obj: { mail: { to: 'ops@example.com' } } });
  });
});
