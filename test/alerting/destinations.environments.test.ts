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

    const destination = async (monitorIds: string[], name = 'Ops') => {
      const dst = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        name,
        config: { address: 'ops@example.com' },
        monitor_ids: monitorIds,
      });
      expect(dst.status).toBe(201);
      return dst.body.id as string;
    };
    const listedTo = async (key: string) =>
      ((await api(t, key, 'GET', `${WEBHOOKS}?limit=100`)).body.data as Array<{ id: string }>).map((d) => d.id);
    const deliveriesTo = async (id: string) =>
      (
        await t.tocsin.database
          .tables<{ delivery: { destination_id: string | null } }>()
          .selectFrom('delivery')
          .select('destination_id')
          .where('destination_id', '=', id)
          .execute()
      ).length;

    /** Every verb of a destination from the staging key: 404, as for a destination that does not exist. */
    const expectHiddenFromStaging = async (id: string) => {
      for (const [method, url, body] of [
        ['GET', `${WEBHOOKS}/${id}`, undefined],
        ['PATCH', `${WEBHOOKS}/${id}`, { config: { address: 'attacker@example.net' } }],
        ['PATCH', `${WEBHOOKS}/${id}`, { name: 'mine now' }],
        ['POST', `${WEBHOOKS}/${id}/test`, undefined],
        ['DELETE', `${WEBHOOKS}/${id}`, undefined],
      ] as const) {
        const res = await api(t, stagingKey, method, url, body);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      expect(await listedTo(stagingKey)).not.toContain(id);
      expect(await deliveriesTo(id)).toBe(0);
    };

    it('a destination that alerts a production monitor is 404 to a staging key on every verb and absent from its list', async () => {
      const id = await destination([production, staging]);
      const before = (await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${id}`)).body;
      await expectHiddenFromStaging(id);
      // Nothing changed: the owner sees the same destination, address and links.
      const after = await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${id}`);
      expect(after.body).toEqual(before);
      expect(await linksSeenByOwner(id)).toEqual([production, staging].sort());
      expect(await listedTo(org.apiKey)).toContain(id);
      // Nor can the staging key send its scheduled reports there: the destination does not exist for it.
      const schedule = await api(t, stagingKey, 'POST', '/api/v1/scheduled-reports', {
        report_type: 'availability',
        frequency: 'daily',
        time_of_day: '08:00',
        timezone: 'UTC',
        destination_ids: [id],
      });
      expect(schedule.status).toBe(422);
      expect(schedule.body.error.details).toEqual([
        { field: 'destination_ids[0]', issue: `destination ${id} does not exist in this organization` },
      ]);
    });

    it("a destination of staging monitors only, or of none yet, is the staging key's to read, change and delete", async () => {
      const onlyStaging = await destination([staging]);
      const unused = await destination([]);
      const listed = await listedTo(stagingKey);
      expect(listed).toEqual(expect.arrayContaining([onlyStaging, unused]));
      const read = await api(t, stagingKey, 'GET', `${WEBHOOKS}/${onlyStaging}`);
      expect(read.body.monitor_ids).toEqual([staging]);
      const renamed = await api(t, stagingKey, 'PATCH', `${WEBHOOKS}/${unused}`, {
        name: 'Renamed',
        monitor_ids: [staging],
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Renamed', monitor_ids: [staging] });
      // Once a production monitor is linked to it (by the owner), it is hidden from the staging key.
      expect(
        (await api(t, org.apiKey, 'PATCH', `${WEBHOOKS}/${unused}`, { monitor_ids: [staging, production] })).status,
      ).toBe(200);
      await expectHiddenFromStaging(unused);
      expect((await api(t, stagingKey, 'DELETE', `${WEBHOOKS}/${onlyStaging}`)).status).toBe(204);
    });

    it('a destination that receives a production scheduled report is hidden from a staging key until the schedule is gone', async () => {
      const id = await destination([]);
      const schedule = await api(t, org.apiKey, 'POST', '/api/v1/scheduled-reports', {
        report_type: 'availability',
        frequency: 'daily',
        time_of_day: '08:00',
        timezone: 'UTC',
        destination_ids: [id],
      });
      expect(schedule.status).toBe(201);
      await expectHiddenFromStaging(id);
      expect((await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${id}`)).status).toBe(200);
      expect((await api(t, org.apiKey, 'DELETE', `/api/v1/scheduled-reports/${schedule.body.id}`)).status).toBe(204);
      expect((await api(t, stagingKey, 'GET', `${WEBHOOKS}/${id}`)).status).toBe(200);
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

    it('a staging key may delete a destination once it alerts no production monitor any more', async () => {
      const id = await destination([production, staging]);
      expect((await api(t, stagingKey, 'DELETE', `${WEBHOOKS}/${id}`)).status).toBe(404);
      expect(await linksSeenByOwner(id)).toEqual([production, staging].sort());
      await api(t, org.apiKey, 'PATCH', `${WEBHOOKS}/${id}`, { monitor_ids: [staging] });
      expect((await api(t, stagingKey, 'DELETE', `${WEBHOOKS}/${id}`)).status).toBe(204);
    });
  });
}
