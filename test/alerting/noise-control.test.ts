import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import type { MonitorTransition } from '../../src/modules/incidents/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, LogCapture, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startAllFakes, startWebhookReceiver, type AllFakes, type WebhookReceiver } from '../fakes/index.ts';
import { api, WEBHOOKS } from './helpers.ts';

/** A monitor transition as the check engine makes it: the incident opens and `down` goes into the outbox. */
async function goDown(tocsin: Tocsin, org: TestOrg, monitorId: string, name: string, at: number): Promise<void> {
  const tr: MonitorTransition = {
    organizationId: org.organizationId,
    monitorId,
    monitorName: name,
    from: 'up',
    to: 'down',
    at,
    cause: 'HTTP 503 (expected 200)',
    executionId: null,
  };
  await tocsin.database.transaction((tx) => tocsin.services.incidents.handleMonitorTransition(tx, tr));
}

async function createMonitors(t: TestApp, key: string, n: number, destinationIds: string[], tags: string[] = []) {
  const out: Array<{ id: string; name: string }> = [];
  for (let i = 1; i <= n; i++) {
    const name = `Service ${String(i).padStart(2, '0')}`;
    const res = await api(t, key, 'POST', '/api/v1/monitors', {
      name,
      target: `https://service-${i}.example.com/health`,
      interval_seconds: 60,
      tags,
      config: { alert_destination_ids: destinationIds },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    out.push({ id: res.body.id as string, name });
  }
  return out;
}

for (const dialect of testDialects()) {
  describe(`grouping: 30 downs in a 60 s window are one message per destination (${dialect})`, () => {
    let t: TestApp;
    let fakes: AllFakes;
    let hook: WebhookReceiver;
    let second: Tocsin | null = null;
    const secret = { value: '' };
    let clock: ManualClock;

    beforeAll(async () => {
      fakes = await startAllFakes();
      clock = new ManualClock(Date.parse('2026-11-29T02:00:00.000Z'));
      hook = await startWebhookReceiver({
        get secret() {
          return secret.value;
        },
        now: () => clock.now(),
      } as { secret: string });
      t = await createTestApp({ dialect, clock, configFile: { providers: fakes.providers, smtp: fakes.smtp.url } });
    });
    afterAll(async () => {
      second?.services.alerting.mailer.close();
      await second?.close();
      t.tocsin.services.alerting.mailer.close();
      await t.tocsin.close().catch(() => undefined);
      await t.db.drop();
      await hook.close();
      await fakes.closeAll();
    });

    it('groups per destination, keeps pagers per monitor, and survives a restart inside the window', async () => {
      const org = await t.createOrg();
      const create = async (body: Record<string, unknown>) => {
        const res = await api(t, org.apiKey, 'POST', WEBHOOKS, body);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body as { id: string; signing_secret?: string; group_window_seconds: number };
      };
      const webhook = await create({
        type: 'generic_webhook',
        name: 'Group hook',
        group_window_seconds: 60,
        config: { url: hook.webhookUrl },
      });
      secret.value = webhook.signing_secret!;
      expect(webhook.group_window_seconds).toBe(60);
      const slack = await create({
        type: 'chatapp1_webhook',
        group_window_seconds: 60,
        config: { url: fakes.chatapp1_webhook.webhookUrl },
      });
      const discord = await create({
        type: 'chatapp2_webhook',
        group_window_seconds: 60,
        config: { url: fakes.chatapp2_webhook.webhookUrl },
      });
      const mail = await create({ type: 'email', group_window_seconds: 60, config: { address: 'ops@example.com' } });
      const pager = await create({
        type: 'oncall_pager1',
        config: { integration_key: fakes.oncall_pager1.integrationKey },
      });
      // A pager keeps one alert per monitor: a window on it is refused, nothing saved.
      const refused = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'oncall_pager1',
        name: 'Grouped pager',
        group_window_seconds: 60,
        config: { integration_key: fakes.oncall_pager1.integrationKey },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'group_window_seconds' })]);
      const listed = await api(t, org.apiKey, 'GET', WEBHOOKS);
      expect(listed.body.data).toHaveLength(5);
      const tooLong = await api(t, org.apiKey, 'PATCH', `${WEBHOOKS}/${slack.id}`, { group_window_seconds: 901 });
      expect(tooLong.status).toBe(422);

      const monitors = await createMonitors(t, org.apiKey, 30, [webhook.id, slack.id, discord.id, mail.id, pager.id]);
      fakes.resetAll();
      hook.reset();

      // 15 go down at once, 15 more 20 s later (another fan-out round joins the open group).
      const start = clock.now();
      for (const m of monitors.slice(0, 15)) await goDown(t.tocsin, org, m.id, m.name, clock.now());
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      clock.advance(20_000);
      for (const m of monitors.slice(15)) await goDown(t.tocsin, org, m.id, m.name, clock.now());
      await t.tocsin.services.alerting.pipeline.runUntilIdle();

      // The pager had every monitor at once; the grouped destinations nothing yet.
      expect(fakes.oncall_pager1.requests).toHaveLength(30);
      expect(hook.requests).toHaveLength(0);
      expect(fakes.chatapp1_webhook.requests).toHaveLength(0);
      expect(fakes.chatapp2_webhook.requests).toHaveLength(0);
      expect(fakes.smtp.messages).toHaveLength(0);

      // The process stops inside the window; another one on the same database sends the groups when it ends.
      t.tocsin.services.alerting.mailer.close();
      await t.tocsin.close();
      second = await createTocsin(t.config, {
        clock,
        migrate: false,
        background: false,
        logger: createLogger({ level: 'warn', pretty: false, destination: new LogCapture() }),
      });
      clock.advance(39_000);
      await second.services.alerting.pipeline.runUntilIdle();
      expect(hook.requests).toHaveLength(0);
      clock.set(start + 60_000);
      await second.services.alerting.pipeline.runUntilIdle();
      await second.services.alerting.pipeline.runUntilIdle();

      // Generic webhook: one signed alert_group with the 30 downs, each a standard body without the envelope.
      expect(hook.verified()).toHaveLength(1);
      const body = hook.requests[0]!.json as {
        event: string;
        organization: { id: string };
        data: { events: Array<Record<string, unknown>> };
      };
      expect(hook.requests[0]!.headers['x-service-event']).toBe('alert_group');
      expect(body.event).toBe('alert_group');
      expect(body.organization.id).toBe(org.organizationId);
      expect(body.data.events).toHaveLength(30);
      expect(body.data.events.map((e) => (e.monitor as { id: string }).id).sort()).toEqual(
        monitors.map((m) => m.id).sort(),
      );
      for (const e of body.data.events) {
        expect(e).toMatchObject({ event: 'down', id: expect.stringMatching(/^evt_/) });
        expect(e).not.toHaveProperty('organization');
        expect(e).not.toHaveProperty('destination');
        expect(e).not.toHaveProperty('product');
      }

      // Slack and Discord: one message each, naming every monitor.
      expect(fakes.chatapp1_webhook.requests).toHaveLength(1);
      const slackText = JSON.stringify(fakes.chatapp1_webhook.requests[0]!.json);
      expect(slackText).toContain('30 monitors down');
      for (const m of monitors) expect(slackText).toContain(m.name);
      expect(fakes.chatapp2_webhook.requests).toHaveLength(1);
      const discordText = JSON.stringify(fakes.chatapp2_webhook.requests[0]!.json);
      for (const m of monitors) expect(discordText).toContain(m.name);

      // Email through the real SMTP server: one mail listing the monitors.
      const mails = fakes.smtp.messages.filter((m) => m.to.includes('ops@example.com'));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('[Tocsin] 30 monitors down');
      expect(mails[0]!.raw).toContain('Service 30');

      // Nothing more goes out later, and every grouped delivery reads as delivered within its group.
      clock.advance(10 * 60_000);
      await second.services.alerting.pipeline.runUntilIdle();
      expect(hook.requests).toHaveLength(1);
      expect(fakes.chatapp1_webhook.requests).toHaveLength(1);
      const incidents = await second.app.inject({
        method: 'GET',
        url: `/api/v1/incidents?monitor_id=${monitors[29]!.id}`,
        headers: { authorization: `Bearer ${org.apiKey}` },
      });
      const incidentId = incidents.json().data[0].id as string;
      const deliveries = await second.app.inject({
        method: 'GET',
        url: `/api/v1/incidents/${incidentId}/deliveries`,
        headers: { authorization: `Bearer ${org.apiKey}` },
      });
      const rows = deliveries.json().data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response rows
      const toHook = rows.find((r) => r.destination?.id === webhook.id)!;
      expect(toHook).toMatchObject({ outcome: 'delivered', group_delivery_id: expect.stringMatching(/^dlv_/) });
      expect(toHook.group_delivery_id).not.toBe(toHook.id);
      expect(rows.find((r) => r.destination?.id === pager.id)).toMatchObject({
        outcome: 'delivered',
        group_delivery_id: null,
      });
    });
  });

  describe(`silences hold notifications back; incidents still open (${dialect})`, () => {
    let t: TestApp;
    let hook: WebhookReceiver;
    const secret = { value: '' };
    let clock: ManualClock;
    let org: TestOrg;

    beforeAll(async () => {
      clock = new ManualClock(Date.parse('2026-11-29T02:00:00.000Z'));
      hook = await startWebhookReceiver({
        get secret() {
          return secret.value;
        },
        now: () => clock.now(),
      } as { secret: string });
      t = await createTestApp({ dialect, clock });
    });
    beforeEach(async () => {
      org = await t.createOrg();
      hook.reset();
    });
    afterAll(async () => {
      await t.close();
      await hook.close();
    });

    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      api(t, org.apiKey, method, url, body);
    const setup = async (n: number, tags: string[] = []) => {
      const created = await call('POST', WEBHOOKS, { type: 'generic_webhook', config: { url: hook.webhookUrl } });
      secret.value = created.body.signing_secret;
      const monitors = await createMonitors(t, org.apiKey, n, [created.body.id as string], tags);
      return { destinationId: created.body.id as string, monitors };
    };
    const deliveriesOf = async (monitorId: string) => {
      const inc = await call('GET', `/api/v1/incidents?monitor_id=${monitorId}`);
      expect(inc.body.data).toHaveLength(1);
      expect(inc.body.data[0].status).toBe('opened');
      return (await call('GET', `/api/v1/incidents/${inc.body.data[0].id}/deliveries`)).body.data as Array<
        Record<string, unknown>
      >;
    };

    it('a silence by monitor, by tag, by event or by destination holds; deliveries say silenced with its id', async () => {
      const { destinationId, monitors } = await setup(5, ['db']);
      const [a, b, c, d, e] = monitors as [(typeof monitors)[0], ...typeof monitors];
      const until = new Date(clock.now() + 3_600_000).toISOString();
      const byMonitor = await call('POST', '/api/v1/silences', {
        matchers: { monitor_ids: [a.id] },
        ends_at: until,
        comment: 'deploying a',
      });
      expect(byMonitor.status, JSON.stringify(byMonitor.body)).toBe(201);
      expect(byMonitor.body).toMatchObject({
        state: 'active',
        comment: 'deploying a',
        matchers: { monitor_ids: [a.id] },
      });
      await goDown(t.tocsin, org, a.id, a.name, clock.now());
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      expect(hook.requests).toHaveLength(0);
      expect(await deliveriesOf(a.id)).toEqual([
        expect.objectContaining({
          outcome: 'silenced',
          status: 'silenced',
          silence_id: byMonitor.body.id,
          attempts: 0,
        }),
      ]);

      // Events: a silence of `recovered` only lets `down` through.
      const recoveredOnly = await call('POST', '/api/v1/silences', {
        matchers: { events: ['recovered'], monitor_ids: [b.id] },
        ends_at: until,
        comment: 'only downs',
      });
      expect(recoveredOnly.status).toBe(201);
      await goDown(t.tocsin, org, b.id, b.name, clock.now());
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      expect(hook.verified().map((r) => (r.json as { monitor: { id: string } }).monitor.id)).toEqual([b.id]);

      // Destination and tag matchers (the tag also covers a monitor tagged later).
      const byDestination = await call('POST', '/api/v1/silences', {
        matchers: { destination_ids: [destinationId], monitor_ids: [c.id] },
        ends_at: until,
        comment: 'hook down for c',
      });
      expect(byDestination.status).toBe(201);
      await goDown(t.tocsin, org, c.id, c.name, clock.now());
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      const byTag = await call('POST', '/api/v1/silences', {
        matchers: { tags: ['db'] },
        ends_at: until,
        comment: 'db work',
      });
      await goDown(t.tocsin, org, d.id, d.name, clock.now());
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      expect(hook.requests).toHaveLength(1);
      expect((await deliveriesOf(c.id))[0]).toMatchObject({ outcome: 'silenced', silence_id: byDestination.body.id });
      expect((await deliveriesOf(d.id))[0]).toMatchObject({ outcome: 'silenced', silence_id: byTag.body.id });

      // Ended early: the next down of e (also tagged db) goes out.
      const ended = await call('POST', `/api/v1/silences/${byTag.body.id}/end`);
      expect(ended.status).toBe(200);
      expect(ended.body).toMatchObject({ state: 'ended', ends_at: new Date(clock.now()).toISOString() });
      await goDown(t.tocsin, org, e.id, e.name, clock.now());
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      expect(hook.requests).toHaveLength(2);
      const active = await call('GET', '/api/v1/silences');
      expect(active.body.data.map((s: { id: string }) => s.id)).not.toContain(byTag.body.id);
      const all = await call('GET', '/api/v1/silences?include_ended=true');
      expect(all.body.data).toHaveLength(4);
      expect((await call('DELETE', `/api/v1/silences/${byTag.body.id}`)).status).toBe(204);
      expect((await call('GET', `/api/v1/silences/${byTag.body.id}`)).status).toBe(404);
      // A silence that ended does not hold what it held in the past back into being sent.
      expect((await deliveriesOf(d.id))[0]).toMatchObject({ outcome: 'silenced' });
    });

    it('mute for N minutes through the API, then notifications resume', async () => {
      const { monitors } = await setup(1);
      const m = monitors[0]!;
      const muted = await call('POST', `/api/v1/monitors/${m.id}/mute`, { minutes: 30 });
      expect(muted.status, JSON.stringify(muted.body)).toBe(201);
      expect(muted.body).toMatchObject({
        matchers: { monitor_ids: [m.id], tags: [], events: [], destination_ids: [] },
        starts_at: new Date(clock.now()).toISOString(),
        ends_at: new Date(clock.now() + 30 * 60_000).toISOString(),
        comment: 'Muted for 30 minutes',
      });
      await goDown(t.tocsin, org, m.id, m.name, clock.now());
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      expect(hook.requests).toHaveLength(0);
      // Recovered inside the mute: held too. After it, the next outage alerts.
      clock.advance(31 * 60_000);
      const tr: MonitorTransition = {
        organizationId: org.organizationId,
        monitorId: m.id,
        monitorName: m.name,
        from: 'down',
        to: 'up',
        at: clock.now(),
        cause: null,
        executionId: null,
      };
      await t.tocsin.database.transaction((tx) => t.tocsin.services.incidents.handleMonitorTransition(tx, tr));
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      expect(hook.verified().map((r) => (r.json as { event: string }).event)).toEqual(['recovered']);
      expect((await call('POST', `/api/v1/monitors/mon_00000000000000000000000000/mute`, { minutes: 5 })).status).toBe(
        404,
      );
      expect((await call('POST', `/api/v1/monitors/${m.id}/mute`, { minutes: 0 })).status).toBe(422);
    });

    it('bad input is a 422 naming each field and saves nothing', async () => {
      const other = await t.createOrg();
      const foreign = await createMonitors(t, other.apiKey, 1, []);
      const now = clock.now();
      const bad = await call('POST', '/api/v1/silences', {
        matchers: {
          monitor_ids: [foreign[0]!.id],
          events: ['down', 'exploded'],
          destination_ids: ['dst_00000000000000000000000000'],
        },
        starts_at: new Date(now + 60_000).toISOString(),
        ends_at: new Date(now + 30_000).toISOString(),
        comment: 'x',
      });
      expect(bad.status).toBe(422);
      expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
        ['ends_at', 'matchers.destination_ids[0]', 'matchers.events[1]', 'matchers.monitor_ids[0]'].sort(),
      );
      const empty = await call('POST', '/api/v1/silences', {
        matchers: {},
        ends_at: new Date(now + 60_000).toISOString(),
        comment: 'everything',
      });
      expect(empty.status).toBe(422);
      expect(empty.body.error.details).toEqual([expect.objectContaining({ field: 'matchers' })]);
      const past = await call('POST', '/api/v1/silences', {
        matchers: { tags: ['x'] },
        ends_at: new Date(now - 1).toISOString(),
        comment: 'late',
      });
      expect(past.body.error.details).toEqual([expect.objectContaining({ field: 'ends_at' })]);
      const unknown = await call('POST', '/api/v1/silences', {
        matchers: { tags: ['x'] },
        ends_at: new Date(now + 60_000).toISOString(),
        comment: 'x',
        severity: 'high',
      });
      expect(unknown.status).toBe(422);
      expect((await call('GET', '/api/v1/silences?include_ended=true')).body.data).toEqual([]);
    });
  });
}
