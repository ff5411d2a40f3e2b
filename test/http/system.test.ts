import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

describe('system routes and error envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers health and readiness', async () => {
    const health = await t.tocsin.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['x-request-id']).toMatch(/^req_/);
    const ready = await t.tocsin.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({
      status: 'ready',
      database: 'sqlite',
      checks: {
        lateness_p50_ms: null,
        lateness_p99_ms: null,
        claimed_last_minute: 0,
        backlog: 0,
        oldest_due_age_ms: 0,
        shedding: false,
      },
    });
  });

  it('echoes a valid client request id and replaces an invalid one', async () => {
    const ok = await t.tocsin.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const bad = await t.tocsin.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'has spaces' },
    });
    expect(bad.headers['x-request-id']).toMatch(/^req_/);
  });

  it('answers unknown routes with the envelope', async () => {
    const res = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body.error.code).toBe('not_found');
    expect(body.error.request_id).toBe(res.headers['x-request-id']);
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await t.tocsin.app.inject({ method: 'DELETE', url: '/healthz' });
    expect(res.statusCode).toBe(405);
    expect(res.json().error.code).toBe('method_not_allowed');
    expect(res.headers.allow).toContain('GET');
  });

  it('logs every request once with id, status and duration', async () => {
    const res = await t.tocsin.app.inject({ method: 'GET', url: '/healthz' });
    const id = res.headers['x-request-id'];
    const lines = t.logs.lines.filter((l) => l.includes(String(id)));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ status: 200, method: 'GET' });
    expect(typeof entry.durationMs).toBe('number');
  });

  it('writes a valid JSON request line for a client request id and a url that needs escaping', async () => {
    const res = await t.tocsin.app.inject({
      method: 'GET',
      url: '/api/v1/monitors/mon_x?q=a\\b%22c',
      headers: { 'x-request-id': 'client.id:1-2_3' },
    });
    expect(res.headers['x-request-id']).toBe('client.id:1-2_3');
    const line = t.logs.lines.find((l) => l.includes('client.id:1-2_3') && l.includes('"msg":"request"'));
    const entry = JSON.parse(line!);
    expect(entry).toMatchObject({
      reqId: 'client.id:1-2_3',
      method: 'GET',
      url: '/api/v1/monitors/mon_x?q=a\\b%22c',
      route: '/api/v1/monitors/:id',
      status: 401,
    });
  });

  it('masks credentials of the URL in the request line', async () => {
    const res = await t.tocsin.app.inject({
      method: 'GET',
      url: '/api/v1/monitors?limit=5&api_key=tsk_pasted_in_url&Token=verif-123&signature=abc',
    });
    const line = t.logs.lines.find((l) => l.includes(String(res.headers['x-request-id'])));
    expect(line).toBeDefined();
    expect(line).not.toMatch(/tsk_pasted_in_url|verif-123|abc&|=abc/);
    expect(JSON.parse(line!).url).toBe(
      '/api/v1/monitors?limit=5&api_key=[redacted]&Token=[redacted]&signature=[redacted]',
    );
  });

  it('masks URL passwords in any log line', async () => {
    t.tocsin.app.log.warn({ target: 'https://bob:hunter2@example.test/x' }, 'cannot reach postgres://app:pw@db/tocsin');
    const line = t.logs.lines.find((l) => l.includes('cannot reach'));
    expect(line).toContain('https://bob:[redacted]@example.test/x');
    expect(line).toContain('postgres://app:[redacted]@db/tocsin');
    expect(line).not.toMatch(/hunter2|:pw@/);
  });
});
