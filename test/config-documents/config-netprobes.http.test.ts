import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api-access/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers read back

/** icmp, udp and domain monitors declared as code (DECISIONS §19, §20): the document's schema is the API's. */
const DOCUMENT = {
  version: 1,
  monitors: [
    { key: 'gw', type: 'icmp', name: 'Gateway', target: 'gw.example.com', config: { count: 5, max_loss_percent: 20 } },
    {
      key: 'ntp',
      type: 'udp',
      name: 'NTP',
      target: 'ntp.example.com:123',
      config: { send: '1b00', send_encoding: 'hex', assertions: [{ type: 'response_time', less_than: 200 }] },
    },
    {
      key: 'reg',
      type: 'domain',
      name: 'Registration',
      target: 'example.com',
      config: { alert_days_before_expiry: 45 },
    },
  ],
};

describe.each(testDialects())('icmp, udp and domain monitors as code (%s)', (dialect) => {
  let t: TestApp;
  let o: TestOrg;
  const post = (url: string, body: unknown) => call(t, o.apiKey, 'POST', url, { body });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    o = await t.createOrg();
  });
  afterAll(async () => t.close());

  it('applies them with their defaults, and applying again changes nothing', async () => {
    const applied = await post('/api/v1/config/apply', { document: DOCUMENT });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().summary).toEqual({ create: 3, update: 0, delete: 0, unchanged: 0 });
    const monitors = Object.fromEntries(
      ((await call(t, o.apiKey, 'GET', '/api/v1/monitors')).json().data as Json[]).map((m) => [m.name, m]),
    );
    expect(monitors.Gateway.config).toMatchObject({ count: 5, max_loss_percent: 20, assertions: [] });
    expect(monitors.NTP.config).toMatchObject({ send: '1b00', send_encoding: 'hex', expect: null });
    expect(monitors.Registration.config).toMatchObject({ alert_days_before_expiry: 45 });
    const again = await post('/api/v1/config/apply', { document: DOCUMENT });
    expect(again.json().summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: 3 });
  });

  it('refuses a bad key with 422 naming the field, applying nothing', async () => {
    const bad = structuredClone(DOCUMENT) as Json;
    bad.monitors[0].key = 'gw2';
    bad.monitors[0].name = 'Gateway 2';
    bad.monitors[0].config = { count: 50 };
    const res = await post('/api/v1/config/apply', { document: bad });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([
      { field: 'document.monitors[0].config.count', issue: 'must be between 1 and 20' },
    ]);
    const names = ((await call(t, o.apiKey, 'GET', '/api/v1/monitors')).json().data as Json[]).map((m) => m.name);
    expect(names).not.toContain('Gateway 2');
  });
});
