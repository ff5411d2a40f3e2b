import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp, type TestOrg } from '../support/app.ts';

/** The error envelope and request ids, for failures no single resource owns. */
describe('error envelope', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
  });
  afterAll(async () => t.close());

  it('answers an unexpected failure with 500 internal_error, no stack trace, and the request id in the logs', async () => {
    const monitors = t.tocsin.services.monitors;
    const original = monitors.list.bind(monitors);
    monitors.list = () => Promise.reject(new Error('disk on fire at /srv/secret/path.ts:12'));
    try {
      const res = await t.tocsin.app.inject({
        method: 'GET',
        url: '/api/v1/monitors',
        headers: { ...bearer(org.apiKey), 'x-request-id': 'trace-500' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.headers['x-request-id']).toBe('trace-500');
      expect(res.json()).toEqual({
        error: {
          code: 'internal_error',
          message: 'Something went wrong on our side; quote the request id.',
          request_id: 'trace-500',
        },
      });
      expect(res.body).not.toContain('disk on fire');
      expect(res.body).not.toContain('.ts:');
      const logged = t.logs.lines
        .filter((l) => l.includes('trace-500'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(logged.some((l) => l.msg === 'unhandled error' && JSON.stringify(l).includes('disk on fire'))).toBe(true);
      expect(logged.some((l) => l.status === 500)).toBe(true);
    } finally {
      monitors.list = original;
    }
  });

  it('never logs the bearer key', async () => {
    await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/monitors', headers: bearer(org.apiKey) });
    expect(t.logs.text).not.toContain(org.apiKey);
  });

  it('gives every error response a JSON envelope with the same request id as the header', async () => {
    const cases = [
      { method: 'GET' as const, url: '/nope' },
      { method: 'PUT' as const, url: '/healthz' },
      { method: 'GET' as const, url: '/api/v1/monitors' },
      {
        method: 'POST' as const,
        url: '/api/v1/monitors',
        headers: { ...bearer(org.apiKey), 'content-type': 'application/json' },
        payload: '{',
      },
      {
        method: 'POST' as const,
        url: '/api/v1/monitors',
        headers: { ...bearer(org.apiKey), 'content-type': 'text/plain' },
        payload: 'x',
      },
    ];
    for (const c of cases) {
      const res = await t.tocsin.app.inject(c);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.headers['content-type']).toContain('application/json');
      const body = res.json() as { error: { request_id: string; code: string; message: string } };
      expect(body.error.request_id).toBe(res.headers['x-request-id']);
      expect(body.error.request_id).toMatch(/^req_[0-9a-z]{26}$/);
    }
  });

  it('generates distinct request ids', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++)
      ids.add(String((await t.tocsin.app.inject({ method: 'GET', url: '/healthz' })).headers['x-request-id']));
    expect(ids.size).toBe(50);
  });

  it('accepts a trailing slash on routes', async () => {
    const res = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/monitors/', headers: bearer(org.apiKey) });
    expect(res.statusCode).toBe(200);
  });
});
