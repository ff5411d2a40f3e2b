/**
 * Subscribers of status pages (DECISIONS §18) through the real app, a real SMTP server and a real webhook receiver,
 * on SQLite and PostgreSQL: double opt-in (24 h link, once), the same answer for a second subscribe, 422 for a bad
 * address, mails with RFC 8058 one-click unsubscribe, unsubscribe by the RFC 8058 POST, the owner's list and removal
 * (audited), signed webhook subscribers, published notices (the notices code's listener, called directly) and
 * maintenance announced, started and ended.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MaintenanceEventsRole } from '../../src/modules/maintenance/index.ts';
import type { NoticePublication } from '../../src/modules/status-pages/index.ts';
import { call } from '../api-access/helpers.ts';
import { startSmtpServer, startWebhookReceiver, type FakeSmtpServer, type ReceivedMail } from '../fakes/index.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const HOUR = 3_600_000;

/** The body of a mail as text (quoted-printable soft breaks joined, =3D decoded). */
function textOf(mail: ReceivedMail): string {
  return mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

/** The first link in the mail to `path` (…/confirm or …/unsubscribe) with its token. */
function linkIn(mail: ReceivedMail, path: string): string {
  const m = new RegExp(`https?://[^\\s"<>]+${path}\\?token=[A-Za-z0-9_-]{43}`).exec(textOf(mail));
  if (!m) throw new Error(`no ${path} link in ${mail.raw}`);
  return m[0];
}

const local = (url: string) => new URL(url).pathname + new URL(url).search;

describe.each(testDialects())('status page subscribers (%s)', (dialect) => {
  let t: TestApp;
  let smtp: FakeSmtpServer;
  let org: TestOrg;
  let pageId: string;
  let slug: string;
  const clock = new ManualClock(Date.parse('2026-11-30T10:00:00.000Z'));
  let n = 0;

  const api = (method: string, url: string, body?: unknown) =>
    call(t, org.apiKey, method, url, body === undefined ? {} : { body });
  const subscribe = (email: unknown, ip = '203.0.113.7') =>
    t.tocsin.app.inject({
      method: 'POST',
      url: `/status/${slug}/subscribe`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email }),
      remoteAddress: ip,
    });
  const pass = () => t.tocsin.services.statusSubscriberDeliveries.runPass();
  const subscribers = async (): Promise<Json[]> => {
    const res = await api('GET', `/api/v1/status-pages/${pageId}/subscribers`);
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: Json[] }).data;
  };
  const publication = (over: Partial<NoticePublication> = {}): NoticePublication => ({
    organizationId: org.organizationId,
    statusPageId: pageId,
    noticeId: `ntc_${String(++n).padStart(26, '0')}`,
    updateId: null,
    kind: 'incident',
    title: 'Checkout errors',
    impact: 'major',
    status: 'investigating',
    bodyMarkdown: 'We see **errors** at checkout <script>alert(1)</script>.',
    publishedAt: new Date(clock.now()),
    ...over,
  });
  const publish = (p: NoticePublication) =>
    t.tocsin.database.transaction((tx) => t.tocsin.services.statusSubscribers.noticePublished(tx, p));
  /** Subscribes and confirms `email`; the mailbox is left empty. */
  const confirmed = async (email: string) => {
    expect((await subscribe(email)).statusCode).toBe(202);
    await pass();
    const mail = smtp.messages.find((m) => m.to.includes(email))!;
    const res = await t.tocsin.app.inject({ method: 'POST', url: local(linkIn(mail, '/confirm')) });
    expect(res.statusCode).toBe(200);
    smtp.reset();
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      dialect,
      clock,
      configFile: { smtp: smtp.url, public_url: 'https://status.example.com' },
    });
  });
  beforeEach(async () => {
    org = await t.createOrg();
    slug = `subs-${++n}-${dialect}`;
    const page = await api('POST', '/api/v1/status-pages', { slug, title: 'Acme <Cloud>' });
    expect(page.statusCode).toBe(201);
    expect(page.json()).toMatchObject({ subscriptions_enabled: false });
    pageId = page.json().id;
    smtp.reset();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('takes subscriptions only when the page enables them; the public page shows the form then', async () => {
    expect((await subscribe('a@example.com')).statusCode).toBe(404);
    expect((await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}` })).body).not.toContain('subscribe');
    const patched = await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ subscriptions_enabled: true });
    const html = await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}` });
    expect(html.body).toContain(`<form class="sub" method="post" action="/status/${slug}/subscribe">`);
    expect(html.headers['content-security-policy']).toContain("form-action 'self'");
    expect((await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: 'yes' })).statusCode).toBe(
      422,
    );
  });

  it('double opt-in: one confirmation mail, the same answer twice, a link that works once', async () => {
    await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    const bad = await subscribe('not an address');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details).toEqual([{ field: 'email', issue: expect.any(String) }]);
    expect(await subscribers()).toEqual([]);

    const first = await subscribe('Reader@Example.com');
    expect(first.statusCode).toBe(202);
    await pass();
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.to).toEqual(['reader@example.com']);
    expect(mail.subject).toBe('Confirm your subscription to Acme <Cloud> status');
    expect(mail.headers['list-unsubscribe']).toMatch(
      new RegExp(`^<https://status\\.example\\.com/status/${slug}/unsubscribe\\?token=[A-Za-z0-9_-]{43}>$`),
    );
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers['message-id']).toMatch(/^<dlv_[0-9a-z]{26}@status\.example\.com>$/);
    expect(textOf(mail)).toContain(`https://status.example.com/status/${slug}`);
    const [pending] = await subscribers();
    expect(pending).toMatchObject({ type: 'email', email: 'reader@example.com', url: null, status: 'pending' });

    // A second subscribe: the same answer, no second subscriber, no second mail (within the resend time).
    const second = await subscribe('reader@example.com');
    expect(second.statusCode).toBe(202);
    expect(second.body).toBe(first.body);
    await pass();
    expect(smtp.messages).toHaveLength(1);
    expect(await subscribers()).toHaveLength(1);

    // Pending subscribers get nothing.
    await publish(publication());
    await pass();
    expect(smtp.messages).toHaveLength(1);

    const confirmUrl = local(linkIn(mail, '/confirm'));
    const page = await t.tocsin.app.inject({ method: 'GET', url: confirmUrl });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<button type="submit">Confirm subscription</button>');
    expect(page.body).toContain('Acme &lt;Cloud&gt;');
    expect((await subscribers())[0]).toMatchObject({ status: 'pending' });
    const done = await t.tocsin.app.inject({ method: 'POST', url: confirmUrl });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are subscribed');
    const [subscriber] = await subscribers();
    expect(subscriber).toMatchObject({ status: 'confirmed', confirmed_at: new Date(clock.now()).toISOString() });

    // Used twice: a clear page, nothing changed.
    const again = await t.tocsin.app.inject({ method: 'POST', url: confirmUrl });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('This link is not valid any more');
    expect(await subscribers()).toEqual([subscriber]);
    // Subscribing a confirmed address again: the same answer, no mail.
    expect((await subscribe('reader@example.com')).body).toBe(first.body);
    await pass();
    expect(smtp.messages).toHaveLength(1);
  });

  it('an expired confirmation link changes nothing; asking again later sends a new one', async () => {
    await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    await subscribe('late@example.com');
    await pass();
    const url = local(linkIn(smtp.messages[0]!, '/confirm'));
    clock.advance(24 * HOUR);
    expect((await t.tocsin.app.inject({ method: 'GET', url })).statusCode).toBe(410);
    const post = await t.tocsin.app.inject({ method: 'POST', url });
    expect(post.statusCode).toBe(410);
    expect(post.body).toContain('older than 24 hours');
    expect((await subscribers())[0]).toMatchObject({ status: 'pending' });
    // Unknown tokens and another page's slug are the same clear page.
    expect((await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}/confirm?token=x` })).statusCode).toBe(410);

    expect((await subscribe('late@example.com')).statusCode).toBe(202);
    await pass();
    expect(smtp.messages).toHaveLength(2);
    const fresh = local(linkIn(smtp.messages[1]!, '/confirm'));
    expect(fresh).not.toBe(url);
    expect((await t.tocsin.app.inject({ method: 'POST', url: fresh })).statusCode).toBe(200);
    expect(await subscribers()).toEqual([expect.objectContaining({ status: 'confirmed' })]);
  });

  it('a confirmation link replaced before it was mailed is not mailed', async () => {
    await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    expect((await subscribe('twice@example.com')).statusCode).toBe(202);
    clock.advance(11 * 60_000);
    expect((await subscribe('twice@example.com', '203.0.113.8')).statusCode).toBe(202);
    await pass();
    expect(smtp.messages).toHaveLength(1);
    const url = local(linkIn(smtp.messages[0]!, '/confirm'));
    expect((await t.tocsin.app.inject({ method: 'POST', url })).statusCode).toBe(200);
    expect(await subscribers()).toEqual([expect.objectContaining({ email: 'twice@example.com', status: 'confirmed' })]);
  });

  it('a published notice mails each confirmed subscriber once; the RFC 8058 POST unsubscribes', async () => {
    await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    await confirmed('one@example.com');
    await confirmed('two@example.com');
    const p = publication();
    await publish(p);
    await publish(p); // the same publication again is not a second message
    await pass();
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual(['one@example.com', 'two@example.com']);
    const mail = smtp.messages.find((m) => m.to[0] === 'one@example.com')!;
    expect(mail.subject).toBe('[Acme <Cloud>] Checkout errors');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers['auto-submitted']).toBe('auto-generated');
    expect(textOf(mail)).toContain('Status: investigating');
    // The Markdown is shown as text in the HTML part: escaped, never interpreted.
    const htmlPart = textOf(mail).split(/Content-Type: text\/html/i)[1]!;
    expect(htmlPart).toContain('&lt;script&gt;');
    expect(htmlPart).not.toContain('<script>');
    const unsubscribeUrl = mail.headers['list-unsubscribe']!.slice(1, -1);
    expect(linkIn(mail, '/unsubscribe')).toBe(unsubscribeUrl);

    // The page behind the link asks; the one-click POST (RFC 8058) unsubscribes.
    const ask = await t.tocsin.app.inject({ method: 'GET', url: local(unsubscribeUrl) });
    expect(ask.statusCode).toBe(200);
    expect(ask.body).toContain('one@example.com will get no more mails');
    expect(await subscribers()).toHaveLength(2);
    const oneClick = await t.tocsin.app.inject({
      method: 'POST',
      url: local(unsubscribeUrl),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('You are unsubscribed');
    expect((await subscribers()).map((s) => s.email)).toEqual(['two@example.com']);
    // Twice is not an error; the GET page then says the subscription is gone.
    expect(
      (
        await t.tocsin.app.inject({
          method: 'POST',
          url: local(unsubscribeUrl),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'List-Unsubscribe=One-Click',
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.tocsin.app.inject({ method: 'GET', url: local(unsubscribeUrl) })).statusCode).toBe(410);

    // An update of the notice: only the remaining subscriber, a new Message-ID.
    smtp.reset();
    await publish({ ...p, updateId: 'upd_1', status: 'identified', bodyMarkdown: 'Found it.' });
    await pass();
    expect(smtp.messages.map((m) => m.to[0])).toEqual(['two@example.com']);
    expect(smtp.messages[0]!.subject).toBe('[Acme <Cloud>] Update: Checkout errors');
    expect(smtp.messages[0]!.headers['message-id']).not.toBe(mail.headers['message-id']);
  });

  it('a retried mail keeps its Message-ID', async () => {
    await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    await confirmed('retry@example.com');
    smtp.failNext({ stage: 'data', code: 451 });
    await publish(publication());
    await pass();
    expect(smtp.messages).toHaveLength(0);
    clock.advance(2 * 60_000);
    await pass();
    expect(smtp.messages).toHaveLength(1);
    clock.advance(HOUR);
    await pass();
    expect(smtp.messages).toHaveLength(1);
  });

  it('the form of the public page subscribes; too many requests from one address are refused', async () => {
    await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    const form = (email: string, ip: string) =>
      t.tocsin.app.inject({
        method: 'POST',
        url: `/status/${slug}/subscribe`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email }).toString(),
        remoteAddress: ip,
      });
    const ok = await form('form@example.com', '198.51.100.1');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/html/);
    expect(ok.body).toContain('Check your inbox');
    const bad = await form('nope', '198.51.100.1');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('does not look like an email address');
    // Five per address and page at once (the bad address was not counted), then one every two minutes.
    for (let i = 0; i < 4; i++) expect((await form(`f${i}@example.com`, '198.51.100.1')).statusCode).toBe(200);
    const limited = await subscribe('f9@example.com', '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect((await subscribe('f9@example.com', '198.51.100.2')).statusCode).toBe(202);
    clock.advance(2 * 60_000);
    expect((await form('f4@example.com', '198.51.100.1')).statusCode).toBe(200);
    expect((await subscribers()).map((s) => s.email).sort()).toEqual([
      'f0@example.com',
      'f1@example.com',
      'f2@example.com',
      'f3@example.com',
      'f4@example.com',
      'f9@example.com',
      'form@example.com',
    ]);
  });

  it('the owner lists and removes subscribers (audited); webhook subscribers receive signed posts', async () => {
    await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    await confirmed('owner-sees@example.com');
    const secret = { value: '' };
    const receiver = await startWebhookReceiver({
      get secret() {
        return secret.value;
      },
      now: () => clock.now(),
    } as { secret: string; now: () => number });
    try {
      const bad = await api('POST', `/api/v1/status-pages/${pageId}/subscribers`, { url: 'ftp://x.example' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.details).toEqual([{ field: 'url', issue: 'must be an http or https URL' }]);
      const hook = await api('POST', `/api/v1/status-pages/${pageId}/subscribers`, { url: receiver.webhookUrl });
      expect(hook.statusCode).toBe(201);
      secret.value = hook.json().signing_secret;
      expect(secret.value).toMatch(/^whsec_/);
      expect(hook.json().subscriber).toMatchObject({ type: 'webhook', url: receiver.webhookUrl, status: 'confirmed' });
      const dup = await api('POST', `/api/v1/status-pages/${pageId}/subscribers`, { url: receiver.webhookUrl });
      expect(dup.statusCode).toBe(422);

      await publish(publication({ title: 'Hook notice' }));
      await pass();
      expect(receiver.verifications).toEqual([{ ok: true }]);
      const [post] = receiver.verified();
      expect(post!.headers['x-service-event']).toBe('status_page.notice_published');
      expect(post!.headers['x-service-delivery']).toMatch(/^dlv_/);
      expect(post!.headers['webhook-id']).toBe(post!.headers['x-service-delivery']);
      expect(post!.json).toMatchObject({
        event: 'status_page.notice_published',
        product: 'Tocsin',
        status_page: { id: pageId, slug, title: 'Acme <Cloud>' },
        message: '[Acme <Cloud>] Hook notice',
        data: { title: 'Hook notice', impact: 'major', status: 'investigating' },
      });

      const list = await subscribers();
      expect(list).toHaveLength(2);
      const paged = await api('GET', `/api/v1/status-pages/${pageId}/subscribers?limit=1`);
      expect(paged.json().data).toHaveLength(1);
      expect(paged.json().next_cursor).toEqual(expect.any(String));
      const email = list.find((s) => s.type === 'email')!;
      expect((await api('DELETE', `/api/v1/status-pages/${pageId}/subscribers/${email.id}`)).statusCode).toBe(204);
      expect((await api('DELETE', `/api/v1/status-pages/${pageId}/subscribers/${email.id}`)).statusCode).toBe(404);
      expect((await subscribers()).map((s) => s.type)).toEqual(['webhook']);
      const other = await t.createOrg();
      const foreign = await call(t, other.apiKey, 'GET', `/api/v1/status-pages/${pageId}/subscribers`);
      expect(foreign.statusCode).toBe(404);
      const audit = await api('GET', `/api/v1/audit-log?target_id=${email.id}`);
      expect(audit.json().data).toEqual([
        expect.objectContaining({
          action: 'status_subscriber.delete',
          target: { type: 'status_subscriber', id: email.id },
        }),
      ]);
      const created = await api('GET', `/api/v1/audit-log?action=status_subscriber.create`);
      expect(created.json().data.map((e: Json) => e.target.id)).toContain(hook.json().subscriber.id);
      expect(JSON.stringify(created.json())).not.toContain(secret.value);

      smtp.reset();
      await publish(publication({ title: 'After removal' }));
      await pass();
      expect(smtp.messages).toHaveLength(0);
      expect(receiver.verified()).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('maintenance listing the page is mailed when announced, when it starts and when it ends', async () => {
    await api('PATCH', `/api/v1/status-pages/${pageId}`, { subscriptions_enabled: true });
    await confirmed('ops@example.com');
    const monitor = await api('POST', '/api/v1/monitors', {
      name: 'API',
      target: 'https://api.example.com/health',
      interval_seconds: 60,
    });
    expect(monitor.statusCode).toBe(201);
    const start = clock.now() + 2 * HOUR;
    const w = await api('POST', '/api/v1/maintenance-windows', {
      name: 'Database upgrade',
      description: 'Short read-only period.',
      monitor_ids: [monitor.json().id],
      schedule: {
        type: 'once',
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(start + HOUR).toISOString(),
      },
      status_page_ids: [pageId],
      announce_minutes_before: 180,
    });
    expect(w.statusCode).toBe(201);
    const s = t.tocsin.services;
    const events = new MaintenanceEventsRole({
      database: t.tocsin.database,
      clock,
      logger: t.tocsin.logger,
      events: s.events,
      incidents: s.incidents,
      monitors: s.monitors,
      windows: s.maintenance,
    });
    clock.advance(61_000);
    await pass();
    expect(smtp.messages.map((m) => m.subject)).toEqual(['[Acme <Cloud>] Scheduled maintenance: Database upgrade']);
    expect(textOf(smtp.messages[0]!)).toContain('Short read-only period.');
    clock.advance(61_000);
    await pass();
    expect(smtp.messages).toHaveLength(1);

    clock.advance(2 * HOUR);
    await events.runPass();
    await pass();
    clock.advance(HOUR);
    await events.runPass();
    await pass();
    expect(smtp.messages.map((m) => m.subject)).toEqual([
      '[Acme <Cloud>] Scheduled maintenance: Database upgrade',
      '[Acme <Cloud>] Maintenance in progress: Database upgrade',
      '[Acme <Cloud>] Maintenance completed: Database upgrade',
    ]);
    for (const m of smtp.messages) expect(m.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });
});

describe('webhook subscribers under the private-target policy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ configFile: { network: { allow_private_targets: false } } });
  });
  afterAll(async () => t.close());

  it('refuses a URL on a private address', async () => {
    const org = await t.createOrg();
    const page = await call(t, org.apiKey, 'POST', '/api/v1/status-pages', {
      body: { slug: 'private-hooks', title: 'P' },
    });
    const res = await call(t, org.apiKey, 'POST', `/api/v1/status-pages/${page.json().id}/subscribers`, {
      body: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([
      { field: 'url', issue: expect.stringMatching(/private|loopback|special/) },
    ]);
    expect(
      (await call(t, org.apiKey, 'GET', `/api/v1/status-pages/${page.json().id}/subscribers`)).json().data,
    ).toEqual([]);
  });
});
