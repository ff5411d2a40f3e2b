import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorTransition } from '../../src/modules/incidents/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

const HOUR = 3_600_000;
const START = Date.parse('2026-04-01T00:00:00.000Z');

for (const dialect of testDialects()) {
  describe(`${dialect}: GET /incidents/history`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let org: TestOrg;
    let stagingKey: string;

    beforeAll(async () => {
      clock = new ManualClock(new Date(START).toISOString());
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
      stagingKey = (
        await t.tocsin.services.auth.issueKey({
          organizationId: org.organizationId,
          name: 'staging only',
          scopes: ['incidents:read', 'incidents:write', 'monitors:read'],
          environments: ['staging'],
          userId: org.userId,
          createdBy: org.userId,
        })
      ).key;
    });
    afterAll(async () => t.close());

    async function call(url: string, key = org.apiKey, method: 'GET' | 'POST' = 'GET', body?: Json) {
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(key),
        ...(body !== undefined && { payload: body }),
      });
      return { status: res.statusCode, body: res.json() as Json };
    }

    /** A monitor of `environment` goes down at `at`: its incident opens then. */
    async function downAt(at: number, environment: string, owner: TestOrg = org): Promise<void> {
      clock.set(at);
      const made = await call('/api/v1/monitors', owner.apiKey, 'POST', {
        name: `Site ${environment} ${at}`,
        target: 'https://example.com',
        environment,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const transition: MonitorTransition = {
        organizationId: owner.organizationId,
        monitorId: made.body.id,
        monitorName: made.body.name,
        from: 'up',
        to: 'down',
        at,
        cause: 'HTTP 503 (expected 200)',
        executionId: null,
      };
      await t.tocsin.database.transaction((tx) => t.tocsin.services.incidents.handleMonitorTransition(tx, transition));
    }

    async function apiIncidentAt(at: number, title: string): Promise<void> {
      clock.set(at);
      expect((await call('/api/v1/incidents', org.apiKey, 'POST', { title })).status).toBe(201);
    }

    it('counts the incidents opened per hour and per day that the caller may see, every bucket present', async () => {
      const other = await t.createOrg();
      await downAt(START - 2 * HOUR, 'production'); // before the range: not counted, though still open
      await downAt(START + 30 * 60_000, 'production');
      await downAt(START + 40 * 60_000, 'staging');
      await apiIncidentAt(START + 50 * 60_000, 'no monitor');
      await downAt(START + 5 * HOUR + 1, 'production');
      await downAt(START + 23 * HOUR + 59 * 60_000, 'staging');
      await downAt(START + 26 * HOUR, 'production'); // the next day
      await downAt(START + 3 * HOUR, 'production', other); // another organization's
      clock.set(START + 30 * HOUR);

      const range = `from=${new Date(START).toISOString()}&to=${new Date(START + 24 * HOUR).toISOString()}`;
      const hours = await call(`/api/v1/incidents/history?resolution=hour&${range}`);
      expect(hours.status, JSON.stringify(hours.body)).toBe(200);
      expect(hours.body.data).toHaveLength(24);
      expect(hours.body.data[0]).toEqual({
        start: '2026-04-01T00:00:00.000Z',
        end: '2026-04-01T01:00:00.000Z',
        opened: 3,
      });
      const opened = hours.body.data.map((b: Json) => b.opened);
      expect(opened[5]).toBe(1);
      expect(opened[23]).toBe(1);
      expect(opened.reduce((a: number, b: number) => a + b, 0)).toBe(5);

      // The same as counting the list's incidents opened in the range.
      const list = await call(`/api/v1/incidents?limit=200&from=${new Date(START).toISOString()}`);
      const inRange = list.body.data.filter((i: Json) => {
        const at = Date.parse(i.opened_at);
        return at >= START && at < START + 24 * HOUR;
      });
      expect(inRange).toHaveLength(5);

      // A staging key sees its environment's monitors' incidents and those of no monitor.
      const staging = await call(`/api/v1/incidents/history?resolution=hour&${range}`, stagingKey);
      expect(staging.body.data.map((b: Json) => b.opened).reduce((a: number, b: number) => a + b, 0)).toBe(3);
      expect(staging.body.data[0].opened).toBe(2);
      expect(staging.body.data[23].opened).toBe(1);

      const days = await call(
        `/api/v1/incidents/history?resolution=day&from=${new Date(START - HOUR).toISOString()}&to=${new Date(START + 30 * HOUR).toISOString()}`,
      );
      expect(days.body.data).toEqual([
        { start: '2026-03-31T00:00:00.000Z', end: '2026-04-01T00:00:00.000Z', opened: 1 },
        { start: '2026-04-01T00:00:00.000Z', end: '2026-04-02T00:00:00.000Z', opened: 5 },
        { start: '2026-04-02T00:00:00.000Z', end: '2026-04-03T00:00:00.000Z', opened: 1 },
      ]);

      // Defaults: the last 24 hours by hour, ending with the current one.
      const defaults = await call('/api/v1/incidents/history');
      expect(defaults.body.data).toHaveLength(24);
      expect(defaults.body.data.at(-1).end).toBe(new Date(START + 30 * HOUR).toISOString());
      expect(defaults.body.data.at(-4)).toMatchObject({ start: new Date(START + 26 * HOUR).toISOString(), opened: 1 });
    });

    it('answers 422 naming the field for a backwards or too long range and a minute resolution; 403 without the scope', async () => {
      const from = '2026-04-02T00:00:00.000Z';
      const to = '2026-04-01T00:00:00.000Z';
      const backwards = await call(`/api/v1/incidents/history?from=${from}&to=${to}`);
      expect(backwards.status).toBe(422);
      expect(backwards.body.error.details).toEqual([expect.objectContaining({ field: 'from' })]);
      const long = await call(`/api/v1/incidents/history?from=2025-12-01T00:00:00.000Z&to=${from}`);
      expect(long.status).toBe(422);
      expect(long.body.error.details).toEqual([expect.objectContaining({ field: 'resolution' })]);
      const days = await call(`/api/v1/incidents/history?resolution=day&from=2026-01-01T00:00:00.000Z&to=${from}`);
      expect(days.status).toBe(200);
      const minute = await call('/api/v1/incidents/history?resolution=minute');
      expect(minute.status).toBe(422);
      const readOnlyMonitors = await t.tocsin.services.auth.issueKey({
        organizationId: org.organizationId,
        name: 'monitors only',
        scopes: ['monitors:read'],
        environments: ['production'],
        userId: org.userId,
        createdBy: org.userId,
      });
      expect((await call('/api/v1/incidents/history', readOnlyMonitors.key)).status).toBe(403);
    });
  });
}
