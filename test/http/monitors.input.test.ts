import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api-access/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

/**
 * A monitor body is checked by its route schema (shape) and then by the monitors module (rules a schema cannot say):
 * one 422 names the fields at fault for both, and nothing changes.
 */
describe.each(testDialects())('monitor bodies: shape and domain problems in one answer (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let id: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect, configFile: { regions: ['local', 'eu-west'] } });
    org = await t.createOrg();
    id = (await json('POST', '/api/v1/monitors', { target: 'https://shop.example.com' })).body.id as string;
  });
  afterAll(async () => t.close());

  async function json(method: string, url: string, body?: unknown) {
    const res = await call(t, org.apiKey, method, url, body === undefined ? {} : { body });
    return { status: res.statusCode, body: (res.body === '' ? undefined : res.json()) as Json };
  }
  const fieldsOf = (res: { body: Json }) => (res.body.error.details as Array<{ field: string }>).map((d) => d.field);
  const count = async () => (await json('GET', '/api/v1/monitors')).body.data.length as number;

  it('create: every problem at once, and nothing stored', async () => {
    const before = await count();
    const res = await json('POST', '/api/v1/monitors', {
      target: 'ftp://x',
      interval_seconds: -5,
      tags: 'x',
      region_codes: ['mars'],
      config: { timeout_ms: 1, bogus: true, headers: { 'bad name': 'x' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'interval_seconds', issue: 'must be between 1 and 86400' },
      { field: 'tags', issue: 'must be an array' },
      { field: 'config.bogus', issue: 'is not a known field for http monitors' },
      { field: 'config.timeout_ms', issue: 'must be between 100 and 60000' },
      { field: 'target', issue: 'must be an http:// or https:// URL' },
      { field: 'region_codes[0]', issue: 'must be one of the regions local, eu-west' },
      { field: 'config.headers.bad name', issue: 'is not a valid header name' },
    ]);
    expect(await count()).toBe(before);
  });

  it('create: with an unknown type only the fields every type shares are judged (by the schema)', async () => {
    const res = await json('POST', '/api/v1/monitors', { type: 'ftp', target: 'ftp://x', interval_seconds: -5 });
    expect(res.body.error.details).toEqual([
      {
        field: 'type',
        issue:
          'must be one of http, tls, tcp, dns, grpc, heartbeat, icmp, udp, domain, smtp, websocket, postgres, mysql, redis',
      },
      { field: 'interval_seconds', issue: 'must be between 1 and 86400' },
    ]);
  });

  it('update: every problem at once, after the merge, and the monitor unchanged', async () => {
    const before = (await json('GET', `/api/v1/monitors/${id}`)).body;
    const res = await json('PATCH', `/api/v1/monitors/${id}`, {
      target: 'ftp://x',
      paused: 'yes',
      config: { grace_seconds: 30, confirm_regions: 2, timeout_ms: 'x' },
    });
    expect(res.status).toBe(422);
    expect(fieldsOf(res).sort()).toEqual([
      'config.confirm_regions',
      'config.grace_seconds',
      'config.timeout_ms',
      'paused',
      'target',
    ]);
    expect((await json('GET', `/api/v1/monitors/${id}`)).body).toEqual(before);
  });

  it('update: a body that is not an object is 422 on body, and a missing monitor with a good body 404', async () => {
    expect((await json('PATCH', `/api/v1/monitors/${id}`, [1])).body.error.details).toEqual([
      { field: 'body', issue: 'must be a JSON object' },
    ]);
    expect((await json('PATCH', '/api/v1/monitors/mon_01m80c64tfdbtrcmt3t76vgq8j', { name: 'x' })).status).toBe(404);
  });
});
