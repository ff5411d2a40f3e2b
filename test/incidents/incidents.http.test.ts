import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MonitorTransition } from '../../src/modules/incidents/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

for (const dialect of testDialects()) {
  describe(`${dialect}: incidents API`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;

    beforeAll(async () => {
      clock = new ManualClock('2026-04-01T08:00:00.000Z');
      t = await createTestApp({ dialect, clock });
    });
    // Each case has an organization of its own: incident numbers and lists start from nothing, whatever ran before.
    beforeEach(async () => {
      org = await t.createOrg();
    });
    afterAll(async () => t.close());

    async function call(method: 'GET' | 'POST', url: string, body?: unknown, key = org.apiKey) {
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(key),
        ...(body !== undefined && { payload: body as Json }),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : (res.json() as Json) };
    }

    async function monitor(env = 'production', key = org.apiKey): Promise<Json> {
      clock.advance(1);
      const res = await call(
        'POST',
        '/api/v1/monitors',
        { name: `Site ${env}`, target: 'https://example.com', environment: env },
        key,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body!;
    }

    async function down(m: Json, organizationId = org.organizationId): Promise<void> {
      const tr: MonitorTransition = {
        organizationId,
        monitorId: m.id,
        monitorName: m.name,
        from: 'up',
        to: 'down',
        at: clock.now(),
        cause: 'HTTP 503 (expected 200)',
        executionId: null,
      };
      await t.tocsin.database.transaction((tx) => t.tocsin.services.incidents.handleMonitorTransition(tx, tr));
    }

    it('creates an api incident, reads it with its timeline, acknowledges and resolves it', async () => {
      const m = await monitor();
      const created = await call('POST', '/api/v1/incidents', {
        title: 'Checkout errors',
        cause: 'customers report 500s',
        monitor_id: m.id,
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^inc_/),
        number: 1,
        title: 'Checkout errors',
        source: 'api',
        monitor_id: m.id,
        cause: 'customers report 500s',
        status: 'opened',
        acknowledged_at: null,
        resolved_at: null,
        resolved_by: null,
        duration_seconds: 0,
        timeline: [{ type: 'opened', actor: org.userId, message: 'customers report 500s' }],
      });
      const id = created.body!.id as string;
      clock.advance(60_000);
      const acked = await call('POST', `/api/v1/incidents/${id}/acknowledge`);
      expect(acked.status).toBe(200);
      expect(acked.body).toMatchObject({ status: 'acknowledged', acknowledged_by: org.userId, duration_seconds: 60 });
      clock.advance(60_000);
      const resolved = await call('POST', `/api/v1/incidents/${id}/resolve`, {});
      expect(resolved.body).toMatchObject({ status: 'resolved', resolved_by: org.userId, duration_seconds: 120 });
      const again = await call('POST', `/api/v1/incidents/${id}/resolve`);
      expect(again.status).toBe(200);
      expect(again.body!.resolved_at).toBe(resolved.body!.resolved_at);
      const ack = await call('POST', `/api/v1/incidents/${id}/acknowledge`);
      expect(ack.status).toBe(422);
      expect(ack.body!.error.details[0].field).toBe('status');
      const got = await call('GET', `/api/v1/incidents/${id}`);
      expect(got.body!.timeline.map((e: Json) => e.type)).toEqual(['opened', 'acknowledged', 'resolved']);
    });

    it('lists newest first with filters and cursor paging', async () => {
      const m = await monitor();
      clock.advance(1000);
      await down(m);
      for (let i = 0; i < 3; i++) {
        clock.advance(1000);
        expect((await call('POST', '/api/v1/incidents', { title: `API ${i}` })).status).toBe(201);
      }
      const first = await call('GET', '/api/v1/incidents?limit=2');
      expect(first.status).toBe(200);
      expect(first.body!.data.map((i: Json) => i.title)).toEqual(['API 2', 'API 1']);
      const second = await call('GET', `/api/v1/incidents?limit=2&cursor=${first.body!.next_cursor}`);
      expect(second.body!.data.map((i: Json) => i.title)).toEqual(['API 0', 'Site production is down']);
      const bySource = await call('GET', '/api/v1/incidents?source=monitor&status=opened');
      expect(bySource.body!.data).toHaveLength(1);
      expect(bySource.body!.data[0]).toMatchObject({
        source: 'monitor',
        monitor_id: m.id,
        cause: 'HTTP 503 (expected 200)',
        title: 'Site production is down',
      });
      const byMonitor = await call('GET', `/api/v1/incidents?monitor_id=${m.id}`);
      expect(byMonitor.body!.data).toHaveLength(1);
      const future = await call('GET', `/api/v1/incidents?to=2000-01-01T00:00:00.000Z`);
      expect(future.body!.data).toHaveLength(0);
      const open = await call('GET', `/api/v1/incidents?from=2100-01-01T00:00:00.000Z&status=opened`);
      expect(open.body!.data.length).toBeGreaterThan(0);
    });

    it('answers 401, 403 for missing scopes, 404 across organizations, 422 with details', async () => {
      expect((await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/incidents' })).statusCode).toBe(401);
      const readOnly = await t.createOrg({ scopes: ['incidents:read'] });
      const denied = await call('POST', '/api/v1/incidents', { title: 'x' }, readOnly.apiKey);
      expect(denied.status).toBe(403);
      expect(denied.body!.error).toMatchObject({
        code: 'insufficient_scope',
        message: expect.stringContaining('incidents:write'),
      });
      const writeOnly = await t.createOrg({ scopes: ['incidents:write'] });
      expect((await call('GET', '/api/v1/incidents', undefined, writeOnly.apiKey)).body!.error.code).toBe(
        'insufficient_scope',
      );

      const mine = await call('POST', '/api/v1/incidents', { title: 'mine' });
      const other = await t.createOrg();
      for (const [method, url] of [
        ['GET', `/api/v1/incidents/${mine.body!.id}`],
        ['POST', `/api/v1/incidents/${mine.body!.id}/acknowledge`],
        ['POST', `/api/v1/incidents/${mine.body!.id}/resolve`],
        ['GET', '/api/v1/incidents/inc_nope'],
      ] as const) {
        const res = await call(method, url, undefined, other.apiKey);
        expect(res.status, url).toBe(404);
        expect(res.body!.error.code).toBe('not_found');
      }

      const otherMonitor = await monitor('production', other.apiKey);
      const bad = await call('POST', '/api/v1/incidents', { title: 'x', monitor_id: otherMonitor.id });
      expect(bad.status).toBe(422);
      expect(bad.body!.error.details).toEqual([
        { field: 'monitor_id', issue: expect.stringContaining(otherMonitor.id) },
      ]);
      const missing = await call('POST', '/api/v1/incidents', { cause: 'x', severity: 'high' });
      expect(missing.status).toBe(422);
      const fields = missing.body!.error.details.map((d: Json) => d.field);
      expect(fields).toContain('title');
      expect(fields).toContain('severity');
      expect((await call('POST', '/api/v1/incidents', { title: '' })).status).toBe(422);
      expect((await call('GET', '/api/v1/incidents?status=closed')).status).toBe(422);
      const range = await call('GET', '/api/v1/incidents?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z');
      expect(range.status).toBe(422);
      expect((await call('POST', `/api/v1/incidents/${mine.body!.id}/acknowledge`, { note: 'x' })).status).toBe(422);
    });

    it('scopes monitor incidents by the key environments', async () => {
      const team = await t.createOrg();
      const prod = await monitor('production', team.apiKey);
      await down(prod, team.organizationId);
      const stagingKey = await t.tocsin.services.auth.issueKey({
        organizationId: team.organizationId,
        name: 'staging only',
        scopes: ['incidents:read', 'incidents:write'],
        environments: ['staging'],
        userId: team.userId,
        createdBy: team.userId,
      });
      const orgWide = await call('POST', '/api/v1/incidents', { title: 'org wide' }, stagingKey.key);
      expect(orgWide.status).toBe(201);
      const list = await call('GET', '/api/v1/incidents', undefined, stagingKey.key);
      expect(list.body!.data.map((i: Json) => i.title)).toEqual(['org wide']);
      const all = await call('GET', '/api/v1/incidents', undefined, team.apiKey);
      const hidden = all.body!.data.find((i: Json) => i.source === 'monitor');
      expect((await call('GET', `/api/v1/incidents/${hidden.id}`, undefined, stagingKey.key)).status).toBe(404);
      expect((await call('POST', `/api/v1/incidents/${hidden.id}/resolve`, undefined, stagingKey.key)).status).toBe(
        404,
      );
      const linked = await call('POST', '/api/v1/incidents', { title: 'x', monitor_id: prod.id }, stagingKey.key);
      expect(linked.status).toBe(422);
    });
  });
}
