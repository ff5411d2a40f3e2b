import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startAllFakes, type AllFakes } from '../fakes/index.ts';
import { api, WEBHOOKS } from './helpers.ts';

for (const dialect of testDialects()) {
  describe(`one clear detail per field (${dialect})`, () => {
    let t: TestApp;
    let fakes: AllFakes;
    let org: TestOrg;

    beforeAll(async () => {
      fakes = await startAllFakes();
      t = await createTestApp({
        dialect,
        clock: new ManualClock(Date.now()),
        configFile: {
          providers: {
            ...fakes.providers,
            chatapp1_channel: {
              base_url: fakes.chatapp1_channel.url,
              client_id: 'client-id',
              client_secret: 'client-secret',
            },
          },
        },
      });
    });
    // Each case has an organization of its own: "nothing is stored" must not see another case's destinations.
    beforeEach(async () => {
      org = await t.createOrg();
    });
    afterAll(async () => {
      t.tocsin.services.alerting.mailer.close();
      await t.close();
      await fakes.closeAll();
    });

    it('chatapp1_channel with an unknown installation_id is 422 naming config.installation_id; nothing is stored', async () => {
      const res = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'chatapp1_channel',
        config: { installation_id: 'T_UNKNOWN', channel_id: 'C0123456789' },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([{ field: 'config.installation_id', issue: expect.any(String) }]);
      expect((await api(t, org.apiKey, 'GET', WEBHOOKS)).body.data).toEqual([]);
    });

    it('chatapp1_channel with the installation of this organization reuses its bot token', async () => {
      const start = await api(t, org.apiKey, 'GET', `${WEBHOOKS}/slack/install?name=First`);
      const state = new URL(start.body.install_url).searchParams.get('state')!;
      const cb = await t.tocsin.app.inject({
        method: 'GET',
        url: `/integrations/slack/callback?code=good-code&state=${encodeURIComponent(state)}`,
      });
      expect(cb.statusCode).toBe(200);
      const first = /dst_[0-9a-z]+/.exec(cb.body)![0];
      const installation = (await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${first}`)).body.config.installation_id;
      const second = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'chatapp1_channel',
        name: 'Second channel',
        config: { installation_id: installation, channel_id: 'C0123456789' },
      });
      expect(second.status).toBe(201);
      expect(second.body.config.bot_token).toMatch(/^\*+/);
      const sent = await api(t, org.apiKey, 'POST', `${WEBHOOKS}/${second.body.id}/test`);
      expect(sent.body.outcome).toBe('delivered');
      // Moving it to an unknown installation is refused the same way, and changes nothing.
      const moved = await api(t, org.apiKey, 'PATCH', `${WEBHOOKS}/${second.body.id}`, {
        config: { installation_id: 'T_UNKNOWN' },
      });
      expect(moved.status).toBe(422);
      expect(moved.body.error.details).toEqual([{ field: 'config.installation_id', issue: expect.any(String) }]);
      expect((await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${second.body.id}`)).body.config.installation_id).toBe(
        installation,
      );
      // Another organization cannot use it.
      const other = await t.createOrg();
      const foreign = await api(t, other.apiKey, 'POST', WEBHOOKS, {
        type: 'chatapp1_channel',
        config: { installation_id: installation, channel_id: 'C0123456780' },
      });
      expect(foreign.body.error.details).toEqual([{ field: 'config.installation_id', issue: expect.any(String) }]);
    });

    it('expires_at "30d" on an API key answers one detail for the field', async () => {
      const res = await api(t, org.apiKey, 'POST', '/api/v1/api-keys', {
        name: 'ci',
        scopes: ['monitors:read'],
        expires_at: '30d',
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([{ field: 'expires_at', issue: 'must be a valid date-time or null' }]);
    });

    it("a refused body names the rules' problems with the schema's: a blank name and a foreign monitor too", async () => {
      const res = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'generic_webhook',
        name: '   ',
        events: ['down', 'no_such_event'],
        config: { url: 'https://hooks.example.com/tocsin' },
        monitor_ids: ['mon_0000000000000000000000000a'],
      });
      expect(res.status).toBe(422);
      const fields = (res.body.error.details as Array<{ field: string }>).map((d) => d.field);
      expect(fields).toEqual(['events[1]', 'name', 'monitor_ids[0]']);
      expect((await api(t, org.apiKey, 'GET', WEBHOOKS)).body.data).toEqual([]);
    });

    it('an unknown destination type names the type field once', async () => {
      const res = await api(t, org.apiKey, 'POST', WEBHOOKS, { type: 'sms', config: {} });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([{ field: 'type', issue: expect.stringContaining('"generic_webhook"') }]);
    });
  });
}
