import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startAllFakes, startWebhookReceiver, type AllFakes, type WebhookReceiver } from '../fakes/index.ts';
import { api, createMonitor, WEBHOOKS } from './helpers.ts';

for (const dialect of testDialects()) {
  describe(`destinations API (${dialect})`, () => {
    let t: TestApp;
    let fakes: AllFakes;
    let receiver: WebhookReceiver;
    let secret = '';
    let owner: TestOrg;
    let member: TestOrg;
    let other: TestOrg;

    beforeAll(async () => {
      fakes = await startAllFakes();
      receiver = await startWebhookReceiver({
        get secret() {
          return secret;
        },
      } as { secret: string });
      const clock = new ManualClock(Date.now());
      t = await createTestApp({
        dialect,
        clock,
        configFile: {
          providers: {
            ...fakes.providers,
            chatapp1_channel: {
              base_url: fakes.chatapp1_channel.url,
              client_id: 'client-id',
              client_secret: 'client-secret',
            },
          },
          smtp: fakes.smtp.url,
        },
      });
      owner = await t.createOrg();
      member = await t.createOrg({ role: 'member' });
      other = await t.createOrg();
    });
    afterAll(async () => {
      t.tocsin.services.alerting.mailer.close();
      await t.close();
      await receiver.close();
      await fakes.closeAll();
    });

    it('creates a generic webhook: signing secret once, defaults, masked reads; attaches monitors from either side', async () => {
      const mon = await createMonitor(t, owner.apiKey);
      const created = await api(t, owner.apiKey, 'POST', WEBHOOKS, {
        type: 'generic_webhook',
        name: 'Hook',
        config: { url: receiver.webhookUrl },
        monitor_ids: [mon],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        type: 'generic_webhook',
        events: ['down', 'recovered'],
        payload_format: 'standard',
        monitor_ids: [mon],
        last_success_at: null,
        needs_reauthorization: false,
      });
      expect(created.body.signing_secret).toMatch(/^whsec_/);
      secret = created.body.signing_secret;
      const read = await api(t, owner.apiKey, 'GET', `${WEBHOOKS}/${created.body.id}`);
      expect(read.body.signing_secret).toBeUndefined();
      expect(JSON.stringify(read.body)).not.toContain(secret.slice(6, 20));
      const monitor = await api(t, owner.apiKey, 'GET', `/api/v1/monitors/${mon}`);
      expect(monitor.body.config.alert_destination_ids).toEqual([created.body.id]);
      // And from the monitor side.
      const mon2 = await createMonitor(t, owner.apiKey, [created.body.id]);
      expect(
        [...(await api(t, owner.apiKey, 'GET', `${WEBHOOKS}/${created.body.id}`)).body.monitor_ids].sort(),
      ).toEqual([mon, mon2].sort());
      // Detach one through the destination.
      const patched = await api(t, owner.apiKey, 'PATCH', `${WEBHOOKS}/${created.body.id}`, {
        monitor_ids: [mon2],
        payload_format: 'legacy',
        events: ['down'],
      });
      expect(patched.body).toMatchObject({ monitor_ids: [mon2], payload_format: 'legacy', events: ['down'] });
      expect((await api(t, owner.apiKey, 'GET', `/api/v1/monitors/${mon}`)).body.config.alert_destination_ids).toEqual(
        [],
      );
      // Test send through the pipeline.
      const test = await api(t, owner.apiKey, 'POST', `${WEBHOOKS}/${created.body.id}/test`);
      expect(test.status).toBe(200);
      expect(test.body).toMatchObject({ outcome: 'delivered', attempts: 1 });
      expect(test.body.delivery_id).toMatch(/^dlv_/);
      expect(test.body.destination.last_success_at).not.toBeNull();
      expect(receiver.verified().some((r) => r.headers['x-service-delivery'] === test.body.delivery_id)).toBe(true);
      // Delete detaches.
      expect((await api(t, owner.apiKey, 'DELETE', `${WEBHOOKS}/${created.body.id}`)).status).toBe(204);
      expect((await api(t, owner.apiKey, 'GET', `/api/v1/monitors/${mon2}`)).body.config.alert_destination_ids).toEqual(
        [],
      );
      expect((await api(t, owner.apiKey, 'GET', `${WEBHOOKS}/${created.body.id}`)).status).toBe(404);
    });

    it('seals secrets at rest, masks them on read and never logs them', async () => {
      const key = fakes.oncall_pager1.integrationKey;
      const created = await api(t, owner.apiKey, 'POST', WEBHOOKS, {
        type: 'oncall_pager1',
        name: 'PD',
        config: { integration_key: key },
      });
      expect(created.status).toBe(201);
      expect(created.body.config.integration_key).not.toBe(key);
      expect(created.body.config.integration_key).toMatch(/\*+.{4}$/);
      expect(JSON.stringify(created.body)).not.toContain(key);
      const list = await api(t, owner.apiKey, 'GET', WEBHOOKS);
      expect(JSON.stringify(list.body)).not.toContain(key);
      const rows = await t.tocsin.database
        .tables<{ destination: { id: string; config: string; sealed_secrets: string } }>()
        .selectFrom('destination')
        .selectAll()
        .execute();
      expect(JSON.stringify(rows)).not.toContain(key);
      const test = await api(t, owner.apiKey, 'POST', `${WEBHOOKS}/${created.body.id}/test`);
      expect(test.body.outcome).toBe('delivered');
      expect(t.logs.text).not.toContain(key);
      // PATCH without the secret keeps it.
      const renamed = await api(t, owner.apiKey, 'PATCH', `${WEBHOOKS}/${created.body.id}`, { name: 'PagerDuty' });
      expect(renamed.body.config.integration_key).toBe(created.body.config.integration_key);
    });

    it('lists with pagination', async () => {
      // Two destinations of its own, so that a page of one has a next page whatever ran before.
      for (const name of ['Mail', 'Mail 2']) {
        await api(t, owner.apiKey, 'POST', WEBHOOKS, { type: 'email', name, config: { address: 'ops@example.com' } });
      }
      const page = await api(t, owner.apiKey, 'GET', `${WEBHOOKS}?limit=1`);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.next_cursor).toEqual(expect.any(String));
    });

    it('answers errors: member → 403 forbidden, missing scope → 403 insufficient_scope, other org → 404, bad config → 422 with details', async () => {
      const m = await api(t, member.apiKey, 'GET', WEBHOOKS);
      expect(m.status).toBe(403);
      expect(m.body.error.code).toBe('forbidden');
      expect(
        (await api(t, member.apiKey, 'POST', WEBHOOKS, { type: 'email', config: { address: 'a@example.com' } })).body
          .error.code,
      ).toBe('forbidden');
      const readOnly = await t.createOrg({ scopes: ['destinations:read'] });
      const noScope = await api(t, readOnly.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        config: { address: 'a@example.com' },
      });
      expect(noScope.body.error.code).toBe('insufficient_scope');
      const mine = await api(t, owner.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        config: { address: 'ops@example.com' },
      });
      for (const [method, url] of [
        ['GET', ''],
        ['PATCH', ''],
        ['DELETE', ''],
        ['POST', '/test'],
      ] as const) {
        const res = await api(
          t,
          other.apiKey,
          method,
          `${WEBHOOKS}/${mine.body.id}${url}`,
          method === 'PATCH' ? { name: 'x' } : undefined,
        );
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      const bad = await api(t, owner.apiKey, 'POST', WEBHOOKS, {
        type: 'oncall_pager2',
        config: { api_key: 'k', region: 'mars', extra: 1 },
        events: ['down', 'nope'],
      });
      expect(bad.status).toBe(422);
      expect(bad.body.error.details).toEqual(
        expect.arrayContaining([
          { field: 'config.region', issue: expect.any(String) },
          { field: 'config.extra', issue: expect.any(String) },
          { field: 'events[1]', issue: expect.any(String) },
        ]),
      );
      const unknownType = await api(t, owner.apiKey, 'POST', WEBHOOKS, { type: 'sms', config: {} });
      expect(unknownType.status).toBe(422);
      const fmt = await api(t, owner.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        config: { address: 'ops@example.com' },
        payload_format: 'legacy',
      });
      expect(fmt.body.error.details).toEqual([{ field: 'payload_format', issue: expect.any(String) }]);
      const badMon = await api(t, owner.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        config: { address: 'ops@example.com' },
        monitor_ids: ['mon_nope'],
      });
      expect(badMon.body.error.details).toEqual([{ field: 'monitor_ids[0]', issue: expect.any(String) }]);
      const typeChange = await api(t, owner.apiKey, 'PATCH', `${WEBHOOKS}/${mine.body.id}`, {
        type: 'generic_webhook',
      });
      expect(typeChange.status).toBe(422);
      const unknownDst = await api(t, owner.apiKey, 'POST', '/api/v1/monitors', {
        target: 'https://x.example.com',
        interval_seconds: 60,
        config: { alert_destination_ids: ['dst_unknown'] },
      });
      expect(unknownDst.body.error.details[0].field).toBe('config.alert_destination_ids[0]');
    });

    it('Slack app install: install URL with state, callback stores the token sealed, channel picked by PATCH', async () => {
      const start = await api(t, owner.apiKey, 'GET', `${WEBHOOKS}/slack/install?name=Slack%20ops`);
      expect(start.status).toBe(200);
      const url = new URL(start.body.install_url);
      expect(url.searchParams.get('client_id')).toBe('client-id');
      const state = url.searchParams.get('state')!;
      const bad = await t.tocsin.app.inject({
        method: 'GET',
        url: `/integrations/slack/callback?code=good-code&state=forged`,
      });
      expect(bad.statusCode).toBe(400);
      const cb = await t.tocsin.app.inject({
        method: 'GET',
        url: `/integrations/slack/callback?code=good-code&state=${encodeURIComponent(state)}`,
      });
      expect(cb.statusCode).toBe(200);
      const id = /dst_[0-9a-z]+/.exec(cb.body)![0];
      const replay = await t.tocsin.app.inject({
        method: 'GET',
        url: `/integrations/slack/callback?code=good-code&state=${encodeURIComponent(state)}`,
      });
      expect(replay.statusCode).toBe(400);
      const picked = await api(t, owner.apiKey, 'PATCH', `${WEBHOOKS}/${id}`, {
        config: { channel_id: 'C0123456789' },
      });
      expect(picked.status).toBe(200);
      expect(picked.body).toMatchObject({
        type: 'chatapp1_channel',
        name: 'Slack ops',
        config: { channel_id: 'C0123456789' },
      });
      expect(JSON.stringify(picked.body)).not.toContain(fakes.chatapp1_channel.botToken);
      const ok = await api(t, owner.apiKey, 'POST', `${WEBHOOKS}/${id}/test`);
      expect(ok.body.outcome).toBe('delivered');
      fakes.chatapp1_channel.failNext('token_revoked');
      const revoked = await api(t, owner.apiKey, 'POST', `${WEBHOOKS}/${id}/test`);
      expect(revoked.body.outcome).toBe('failed');
      expect(revoked.body.destination.needs_reauthorization).toBe(true);
    });

    it('refuses private webhook targets when network.allow_private_targets is false', async () => {
      const strict = await createTestApp({ dialect, configFile: { network: { allow_private_targets: false } } });
      try {
        const o = await strict.createOrg();
        const res = await api(strict, o.apiKey, 'POST', WEBHOOKS, {
          type: 'generic_webhook',
          config: { url: 'http://127.0.0.1:9/hook' },
        });
        expect(res.status).toBe(422);
        expect(res.body.error.details).toEqual([
          { field: 'config.url', issue: expect.stringMatching(/private|loopback/) },
        ]);
      } finally {
        await strict.close();
      }
    });
  });
}
