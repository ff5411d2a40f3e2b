import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { api, WEBHOOKS } from './helpers.ts';

for (const dialect of testDialects()) {
  describe(`destinations and environments (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let stagingKey = '';
    let production = '';
    let staging = '';

    const monitorIn = async (environment: string) => {
      const res = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
        name: `${environment} API`,
        target: 'https://api.example.com/health',
        interval_seconds: 60,
        environment,
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const linksSeenByOwner = async (id: string) =>
      [...(await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${id}`)).body.monitor_ids].sort();

    beforeAll(async () => {
      t = await createTestApp({ dialect, clock: new ManualClock(Date.now()) });
      org = await t.createOrg();
      const key = await t.tocsin.services.auth.issueKey({
        organizationId: org.organizationId,
        name: 'staging only',
        scopes: [...SCOPES],
        environments: ['staging'],
        userId: org.userId,
        createdBy: org.userId,
      });
      stagingKey = key.key;
      production = await monitorIn('production');
      staging = await monitorIn('staging');
    });
    afterAll(async () => {
      await t.close();
    });

    it('a staging key reads only the staging monitor ids of a destination (get and list)', async () => {
      const dst = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        config: { address: 'ops@example.com' },
        monitor_ids: [production, staging],
      });
      expect(dst.status).toBe(201);
      expect(await linksSeenByOwner(dst.body.id)).toEqual([production, staging].sort());
      const read = await api(t, stagingKey, 'GET', `${WEBHOOKS}/${dst.body.id}`);
      expect(read.body.monitor_ids).toEqual([staging]);
      const list = await api(t, stagingKey, 'GET', WEBHOOKS);
      expect(JSON.stringify(list.body)).not.toContain(production);
      expect(list.body.data.find((d: { id: string }) => d.id === dst.body.id).monitor_ids).toEqual([staging]);
    });

    it("PATCH monitor_ids from a staging key replaces only staging links and leaves production's", async () => {
      const dst = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        config: { address: 'ops@example.com' },
        monitor_ids: [production, staging],
      });
      const emptied = await api(t, stagingKey, 'PATCH', `${WEBHOOKS}/${dst.body.id}`, { monitor_ids: [] });
      expect(emptied.status).toBe(200);
      expect(emptied.body.monitor_ids).toEqual([]);
      expect(await linksSeenByOwner(dst.body.id)).toEqual([production]);
      const again = await api(t, stagingKey, 'PATCH', `${WEBHOOKS}/${dst.body.id}`, { monitor_ids: [staging] });
      expect(again.body.monitor_ids).toEqual([staging]);
      expect(await linksSeenByOwner(dst.body.id)).toEqual([production, staging].sort());
      // The production monitor's own view is unchanged throughout.
      const monitor = await api(t, org.apiKey, 'GET', `/api/v1/monitors/${production}`);
      expect(monitor.body.config.alert_destination_ids).toContain(dst.body.id);
    });

    it('naming a production monitor from a staging key is 422 on that index, and nothing changes', async () => {
      const before = (await api(t, org.apiKey, 'GET', `${WEBHOOKS}?limit=100`)).body.data.length;
      const created = await api(t, stagingKey, 'POST', WEBHOOKS, {
        type: 'email',
        config: { address: 'ops@example.com' },
        monitor_ids: [staging, production],
      });
      expect(created.status).toBe(422);
      expect(created.body.error.details).toEqual([{ field: 'monitor_ids[1]', issue: expect.any(String) }]);
      expect(JSON.stringify(created.body)).not.toMatch(/production/i);
      expect((await api(t, org.apiKey, 'GET', `${WEBHOOKS}?limit=100`)).body.data.length).toBe(before);

      const dst = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        name: 'Before',
        config: { address: 'ops@example.com' },
        monitor_ids: [staging],
      });
      const patched = await api(t, stagingKey, 'PATCH', `${WEBHOOKS}/${dst.body.id}`, {
        name: 'After',
        monitor_ids: [production],
      });
      expect(patched.status).toBe(422);
      expect(patched.body.error.details).toEqual([{ field: 'monitor_ids[0]', issue: expect.any(String) }]);
      const after = await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${dst.body.id}`);
      expect(after.body).toMatchObject({ name: 'Before', monitor_ids: [staging] });
    });

    it('a staging key cannot delete a destination that also alerts production monitors (409); it can once they are gone', async () => {
      const dst = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        config: { address: 'ops@example.com' },
        monitor_ids: [production, staging],
      });
      const refused = await api(t, stagingKey, 'DELETE', `${WEBHOOKS}/${dst.body.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('conflict');
      expect(await linksSeenByOwner(dst.body.id)).toEqual([production, staging].sort());
      await api(t, org.apiKey, 'PATCH', `${WEBHOOKS}/${dst.body.id}`, { monitor_ids: [staging] });
      expect((await api(t, stagingKey, 'DELETE', `${WEBHOOKS}/${dst.body.id}`)).status).toBe(204);
    });
  });
}
