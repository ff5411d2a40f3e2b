/**
 * An outage end to end, through the real engine and the public API: a monitor on a local target that starts
 * failing goes down after failure_threshold checks, opens one incident and shows degraded on its public status
 * page; when the target recovers it goes up after success_threshold checks and the incident resolves itself;
 * executions and history show what happened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

describe.each(testDialects())('check engine: a target fails then recovers, end to end on %s', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let target: RunningTarget;
  let status = 200;

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    t = await createTestApp({ dialect, clock });
    target = await startHttpTarget((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : 'unavailable');
    });
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  it('down after the threshold, one incident, degraded page; up after recovery, incident resolved; executions and history', async () => {
    const org = await t.createOrg();
    const call = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
      const res = await t.tocsin.app.inject(
        payload === undefined
          ? { method, url, headers: bearer(org.apiKey) }
          : { method, url, headers: bearer(org.apiKey), payload },
      );
      return { status: res.statusCode, body: res.json() as Json };
    };
    const round = async () => {
      clock.advance(30_000);
      return t.tocsin.services.checks.localRunner.runOnce();
    };

    const monitor = await call('POST', '/api/v1/monitors', {
      name: 'Checkout',
      target: target.url,
      interval_seconds: 30,
      config: { failure_threshold: 3, success_threshold: 2, assertions: [{ type: 'status', equals: 200 }] },
    });
    expect(monitor.status).toBe(201);
    const id = monitor.body.id as string;
    const slug = `shop-${dialect}`;
    expect((await call('POST', '/api/v1/status-pages', { slug, title: 'Shop', monitor_ids: [id] })).status).toBe(201);
    const statusOf = async () => (await call('GET', `/api/v1/monitors/${id}`)).body.status as string;
    const page = async () => (await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}.json` })).json() as Json;

    expect(await round()).toBe(1);
    expect(await round()).toBe(1);
    expect(await statusOf()).toBe('up');
    expect((await page()).monitors[0].status).toBe('operational');

    status = 503;
    await round();
    await round();
    expect(await statusOf()).toBe('up'); // two failures < failure_threshold 3
    await round();
    expect(await statusOf()).toBe('down');
    await round(); // still down: no second incident

    const open = await call('GET', `/api/v1/incidents?monitor_id=${id}`);
    expect(open.body.data).toHaveLength(1);
    expect(open.body.data[0]).toMatchObject({
      source: 'monitor',
      status: 'opened',
      cause: 'HTTP 503 (expected 200)',
      monitor_id: id,
    });
    const degraded = await page();
    expect(degraded.status).toBe('degraded');
    expect(degraded.monitors[0].status).toBe('degraded');
    expect(degraded.incidents).toHaveLength(1);
    const html = await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}` });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('Degraded');

    status = 200;
    await round();
    expect(await statusOf()).toBe('down'); // one success < success_threshold 2
    await round();
    expect(await statusOf()).toBe('up');

    const resolved = await call('GET', `/api/v1/incidents?monitor_id=${id}`);
    expect(resolved.body.data).toHaveLength(1);
    expect(resolved.body.data[0]).toMatchObject({ status: 'resolved', resolved_by: 'auto' });
    expect((await page()).status).toBe('operational');

    const executions = await call('GET', `/api/v1/monitors/${id}/executions?limit=200`);
    const statuses = (executions.body.data as Json[]).map((e) => e.status).reverse();
    expect(statuses).toEqual(['up', 'up', 'down', 'down', 'down', 'down', 'up', 'up']);
    const failed = (executions.body.data as Json[]).find((e) => e.status === 'down')!;
    expect(failed).toMatchObject({
      http_status: 503,
      assertions: [{ type: 'status', equals: 200, passed: false, actual: 503 }],
    });

    const from = new Date(Date.parse('2026-03-01T10:00:00.000Z')).toISOString();
    const to = new Date(clock.now() + 60_000).toISOString();
    const history = await call('GET', `/api/v1/monitors/${id}/history?resolution=minute&from=${from}&to=${to}`);
    expect(history.status).toBe(200);
    const buckets = history.body.data as Json[];
    expect(buckets.reduce((n, b) => n + (b.checks as number), 0)).toBe(8);
    expect(buckets.reduce((n, b) => n + (b.failures as number), 0)).toBe(4);
  });
});
