import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionsStore } from '../../src/modules/checks/executions/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { execution } from '../store/executions.fixtures.ts';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');

describe.each(testDialects())('executions and history over HTTP (%s)', (dialect) => {
  let t: TestApp;
  let owner: TestOrg;
  let other: TestOrg;
  let monitorId: string;
  const ids: string[] = [];

  const get = (key: string, url: string) => t.tocsin.app.inject({ method: 'GET', url, headers: bearer(key) });

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock: new ManualClock(NOW) });
    owner = await t.createOrg();
    other = await t.createOrg();
    const res = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(owner.apiKey),
      payload: { target: 'https://prod.example.com' },
    });
    expect(res.statusCode).toBe(201);
    monitorId = (res.json() as { id: string }).id;
    const batch = Array.from({ length: 120 }, (_, i) =>
      execution({
        organizationId: owner.organizationId,
        monitorId,
        startedAt: NOW - 2 * 3_600_000 + i * 60_000,
        status: i % 10 === 0 ? 'down' : 'up',
        intervalSeconds: 60,
      }),
    );
    await t.tocsin.database.transaction((tx) => new ExecutionsStore().recordBatch(tx, batch));
    ids.push(...batch.map((e) => e.id));
  });
  afterAll(async () => t.close());

  it('lists executions newest first in the DECISIONS §5 shape, and reads one', async () => {
    const res = await get(owner.apiKey, `/api/v1/monitors/${monitorId}/executions?limit=2&status=down`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Array<Record<string, unknown>>; next_cursor: string | null };
    expect(body.data).toHaveLength(2);
    expect(Object.keys(body.data[0]!)).toEqual([
      'id',
      'monitor_id',
      'region_code',
      'started_at',
      'status',
      'in_maintenance',
      'duration_ms',
      'timings',
      'http_status',
      'assertions',
      'error',
      'details',
    ]);
    expect(body.data[0]!.details).toBeNull(); // kept facts are the gRPC method probe's only
    expect(body.data[0]).toMatchObject({
      id: ids[110],
      monitor_id: monitorId,
      region_code: 'eu-west',
      status: 'down',
      http_status: 503,
      error: { code: 'assertion_failed', message: 'status 503' },
    });
    expect(body.data[0]!.started_at).toBe(new Date(NOW - 2 * 3_600_000 + 110 * 60_000).toISOString());
    expect(body.data[0]!.timings).toEqual({
      dns_ms: 3,
      connect_ms: 10,
      tls_ms: 25,
      ttfb_ms: 70,
      download_ms: 12,
      total_ms: 120,
    });
    const next = await get(
      owner.apiKey,
      `/api/v1/monitors/${monitorId}/executions?limit=2&status=down&cursor=${body.next_cursor}`,
    );
    expect((next.json() as { data: Array<{ id: string }> }).data.map((e) => e.id)).toEqual([ids[90], ids[80]]);
    const one = await get(owner.apiKey, `/api/v1/executions/${ids[5]}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      id: ids[5],
      status: 'up',
      assertions: [{ type: 'status', equals: 200, passed: true, actual: 200 }],
      error: null,
    });
    const ranged = await get(
      owner.apiKey,
      `/api/v1/monitors/${monitorId}/executions?from=${new Date(NOW - 600_000).toISOString()}&region_code=eu-west`,
    );
    expect((ranged.json() as { data: unknown[] }).data).toHaveLength(10);
  });

  it('hides other organizations and environments (404), and checks scopes', async () => {
    expect((await get(other.apiKey, `/api/v1/monitors/${monitorId}/executions`)).statusCode).toBe(404);
    expect((await get(other.apiKey, `/api/v1/executions/${ids[0]}`)).statusCode).toBe(404);
    expect((await get(other.apiKey, `/api/v1/monitors/${monitorId}/history`)).statusCode).toBe(404);
    const stagingKey = await t.tocsin.services.auth.issueKey({
      organizationId: owner.organizationId,
      name: 'staging only',
      scopes: ['executions:read', 'monitors:read'],
      environments: ['staging'],
      userId: owner.userId,
      createdBy: owner.userId,
    });
    expect((await get(stagingKey.key, `/api/v1/monitors/${monitorId}/executions`)).statusCode).toBe(404);
    expect((await get(stagingKey.key, `/api/v1/executions/${ids[0]}`)).statusCode).toBe(404);
    expect((await get(owner.apiKey, '/api/v1/executions/exe_01kaaaaaaaaaaaaaaaaaaaaaaa')).statusCode).toBe(404);
    expect((await get(owner.apiKey, '/api/v1/executions/nonsense')).statusCode).toBe(404);
    const noScope = await t.createOrg({ scopes: ['monitors:read'] });
    expect((await get(noScope.apiKey, `/api/v1/monitors/${monitorId}/executions`)).statusCode).toBe(403);
  });

  it('answers 422 for bad query parameters', async () => {
    for (const q of ['status=sideways', 'from=yesterday', 'limit=0', 'limit=500', 'cursor=%21%21']) {
      const res = await get(owner.apiKey, `/api/v1/monitors/${monitorId}/executions?${q}`);
      expect(res.statusCode, q).toBe(422);
      expect((res.json() as { error: { code: string } }).error.code).toBe('validation_failed');
    }
    const from = new Date(NOW - 3 * 86_400_000).toISOString();
    for (const q of [
      'resolution=week',
      `resolution=minute&from=${from}`,
      `resolution=minute&from=${new Date(NOW - 40 * 86_400_000).toISOString()}&to=${new Date(NOW - 39.5 * 86_400_000).toISOString()}`,
      `from=${new Date(NOW + 1000).toISOString()}`,
      'to=soon',
    ]) {
      const res = await get(owner.apiKey, `/api/v1/monitors/${monitorId}/history?${q}`);
      expect(res.statusCode, q).toBe(422);
    }
  });

  it('serves history oldest first at each resolution', async () => {
    const res = await get(owner.apiKey, `/api/v1/monitors/${monitorId}/history`);
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: Array<Record<string, unknown>> }).data;
    expect(data).toHaveLength(24);
    expect(Object.keys(data[0]!)).toEqual([
      'start',
      'end',
      'checks',
      'failures',
      'uptime_percent',
      'p50_ms',
      'p95_ms',
      'p99_ms',
    ]);
    expect(data[0]!.uptime_percent).toBeNull();
    const filled = data.filter((b) => (b.checks as number) > 0);
    expect(filled.map((b) => b.checks)).toEqual([60, 60]);
    expect(filled[0]).toMatchObject({ failures: 6, uptime_percent: 90 });
    expect(Math.abs((filled[0]!.p50_ms as number) - 120) / 120).toBeLessThanOrEqual(0.01);
    const minutes = await get(
      owner.apiKey,
      `/api/v1/monitors/${monitorId}/history?resolution=minute&from=${new Date(NOW - 3_600_000).toISOString()}&to=${new Date(NOW).toISOString()}`,
    );
    expect((minutes.json() as { data: unknown[] }).data).toHaveLength(60);
    const days = await get(
      owner.apiKey,
      `/api/v1/monitors/${monitorId}/history?resolution=day&from=${new Date(NOW - 90 * 86_400_000).toISOString()}&region_code=eu-west`,
    );
    const dayData = (days.json() as { data: Array<{ checks: number; start: string }> }).data;
    expect(dayData.at(-1)!.checks).toBe(120);
    expect(dayData[0]!.start < dayData[1]!.start).toBe(true);
  });

  it('documents the routes and schemas in OpenAPI', async () => {
    const doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/monitors/{id}/executions',
        '/api/v1/executions/{id}',
        '/api/v1/monitors/{id}/history',
      ]),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Execution', 'ExecutionList', 'ExecutionTimings', 'History', 'HistoryBucket']),
    );
  });
});
