import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

/** A heartbeat token is the monitor's credential: the request line never shows it, however the path is encoded. */
describe('request log and heartbeat tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  async function loggedUrl(method: 'GET' | 'POST', url: string): Promise<{ status: number; url: string }> {
    const res = await t.tocsin.app.inject({ method, url });
    const id = String(res.headers['x-request-id']);
    const line = t.logs.lines.find((l) => l.includes(id) && /"msg":"request( failed)?"/.test(l));
    expect(line, `no request line for ${url}`).toBeDefined();
    expect(line).not.toContain('s3cretTok');
    return { status: res.statusCode, url: JSON.parse(line!).url as string };
  }

  it.each([
    ['POST', '/api/v1/heartbeats/s3cretToken123', 404, '/api/v1/heartbeats/[redacted]'],
    ['GET', '/api/v1/heartbeats/s3cretToken123?x=1', 404, '/api/v1/heartbeats/[redacted]?x=1'],
    ['POST', '/api/v1/heartbeats/s3cretTok%41en', 404, '/api/v1/heartbeats/[redacted]'],
    ['POST', '/api/v1/heartbeats/s3cretTok%zzen', 400, '/api/v1/heartbeats/[redacted]'],
    ['GET', '/api/v1/heartbeats/s3cretTok%E0%A4%A', 400, '/api/v1/heartbeats/[redacted]'],
    ['POST', `/api/v1/heartbeats/s3cretTok${'x'.repeat(600)}`, 414, '/api/v1/heartbeats/[redacted]'],
  ] as const)('%s %s (%i) is logged as %s', async (method, url, status, logged) => {
    expect(await loggedUrl(method, url)).toEqual({ status, url: logged });
  });

  it('leaves other paths as they are', async () => {
    expect((await loggedUrl('GET', '/api/v1/monitors/mon_x')).url).toBe('/api/v1/monitors/mon_x');
  });
});
