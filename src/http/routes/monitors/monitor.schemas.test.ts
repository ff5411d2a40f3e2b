import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detailsFromAjv, installValidation } from '../../plugins/validation.plugin.ts';
import { MONITOR_SHARED_SCHEMAS, MonitorCreateBody, MonitorPatchBody } from './monitor.schemas.ts';

/**
 * The route schemas are the one check of a monitor body's shape: each case gets the exact `details` the API
 * answers with (the rules a schema cannot say are the monitors module's, see monitor.validation.test.ts).
 */
let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  installValidation(app);
  for (const schema of MONITOR_SHARED_SCHEMAS) app.addSchema(schema);
  app.post('/monitors', { schema: { body: MonitorCreateBody } }, async (request) => request.body);
  app.patch('/monitors', { schema: { body: MonitorPatchBody } }, async (request) => request.body);
  app.setErrorHandler((error: FastifyError, _request, reply) =>
    reply.code(422).send(error.validation ? detailsFromAjv(error.validation) : { unexpected: error.message }),
  );
  await app.ready();
});
afterAll(async () => app.close());

async function send(method: 'POST' | 'PATCH', body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await app.inject({
    method,
    url: '/monitors',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: res.statusCode, body: res.json() };
}

describe('create body: refused by its schema, with precise details', () => {
  it.each([
    [{}, [{ field: 'target', issue: 'is required' }]],
    [{ type: 'tcp' }, [{ field: 'target', issue: 'is required' }]],
    [{ target: 'https://e.com', extra: 1 }, [{ field: 'extra', issue: 'is not a known field for monitors' }]],
    [
      { target: 'https://e.com', type: 'ftp' },
      [
        {
          field: 'type',
          issue:
            'must be one of http, tls, tcp, dns, grpc, heartbeat, icmp, udp, domain, smtp, websocket, postgres, mysql, redis',
        },
      ],
    ],
    [{ target: 42 }, [{ field: 'target', issue: 'must be a string' }]],
    [{ target: '' }, [{ field: 'target', issue: 'must not be empty' }]],
    [{ target: `https://e.com/${'a'.repeat(2100)}` }, [{ field: 'target', issue: 'must be at most 2048 characters' }]],
    [{ target: 'https://e.com/a\u0000b' }, [{ field: 'target', issue: 'must not contain control characters' }]],
    [{ target: 'https://e.com', name: '' }, [{ field: 'name', issue: 'must not be empty' }]],
    [{ target: 'https://e.com', name: 'a\u0000b' }, [{ field: 'name', issue: 'must not contain control characters' }]],
    [{ target: 'https://e.com', name: 'x'.repeat(201) }, [{ field: 'name', issue: 'must be at most 200 characters' }]],
    [{ target: 'https://e.com', name: ['x'] }, [{ field: 'name', issue: 'must be a string' }]],
    [
      { target: 'https://e.com', interval_seconds: 0 },
      [{ field: 'interval_seconds', issue: 'must be between 1 and 86400' }],
    ],
    [{ target: 'https://e.com', interval_seconds: 1.5 }, [{ field: 'interval_seconds', issue: 'must be an integer' }]],
    [{ target: 'https://e.com', interval_seconds: '60' }, [{ field: 'interval_seconds', issue: 'must be an integer' }]],
    [
      { target: 'https://e.com', region_codes: [] },
      [{ field: 'region_codes', issue: 'must list at least one region' }],
    ],
    [{ target: 'https://e.com', region_codes: 'local' }, [{ field: 'region_codes', issue: 'must be an array' }]],
    [
      { target: 'https://e.com', region_codes: ['local', 'local'] },
      [{ field: 'region_codes[1]', issue: 'is listed twice' }],
    ],
    [
      { target: 'https://e.com', region_codes: ['local', 5] },
      [{ field: 'region_codes[1]', issue: 'must be a string' }],
    ],
    [
      { target: 'https://e.com', tags: ['ok', ''] },
      [{ field: 'tags[1]', issue: 'must be 1-64 letters, digits, spaces or _ . : / = -' }],
    ],
    [
      { target: 'https://e.com', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      [{ field: 'tags', issue: 'must have at most 50 items' }],
    ],
    [
      { target: 'https://e.com', environment: 'Prod' },
      [{ field: 'environment', issue: 'must be lower-case letters, digits, _ or -' }],
    ],
    [{ target: 'https://e.com', paused: 'yes' }, [{ field: 'paused', issue: 'must be true or false' }]],
    [{ target: 'https://e.com', config: [] }, [{ field: 'config', issue: 'must be an object' }]],
    [
      { target: 'https://e.com', config: { timeout_ms: 50 } },
      [{ field: 'config.timeout_ms', issue: 'must be between 100 and 60000' }],
    ],
    [
      { target: 'https://e.com', config: { failure_threshold: 0 } },
      [{ field: 'config.failure_threshold', issue: 'must be between 1 and 100' }],
    ],
    [
      { target: 'https://e.com', config: { success_threshold: 101 } },
      [{ field: 'config.success_threshold', issue: 'must be between 1 and 100' }],
    ],
    [
      { target: 'https://e.com', config: { alert_destination_ids: ['dst_x'] } },
      [{ field: 'config.alert_destination_ids[0]', issue: 'must be a destination id (dst_…)' }],
    ],
    [
      { target: 'https://e.com', config: { alert_latency_ms: 0 } },
      [{ field: 'config.alert_latency_ms', issue: 'must be between 1 and 600000' }],
    ],
    [
      { target: 'https://e.com', config: { reminder_interval_minutes: 20000 } },
      [{ field: 'config.reminder_interval_minutes', issue: 'must be between 1 and 10080' }],
    ],
    [
      { target: 'https://e.com', config: { method: 'FETCH' } },
      [{ field: 'config.method', issue: 'must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' }],
    ],
    [{ target: 'https://e.com', config: { headers: [] } }, [{ field: 'config.headers', issue: 'must be an object' }]],
    [
      { target: 'https://e.com', config: { headers: { 'x-a': 1 } } },
      [{ field: 'config.headers.x-a', issue: 'must be a string' }],
    ],
    [
      { target: 'https://e.com', config: { headers: { 'x-a': 'a\r\nb' } } },
      [{ field: 'config.headers.x-a', issue: 'must be one line of at most 8192 characters' }],
    ],
    [{ target: 'https://e.com', config: { body: 5 } }, [{ field: 'config.body', issue: 'must be a string' }]],
    [
      { target: 'https://e.com', config: { follow_redirects: 'no' } },
      [{ field: 'config.follow_redirects', issue: 'must be true or false' }],
    ],
    [
      { target: 'https://e.com', config: { verify_tls: 0 } },
      [{ field: 'config.verify_tls', issue: 'must be true or false' }],
    ],
    [
      { target: 'https://e.com', config: { assertions: {} } },
      [{ field: 'config.assertions', issue: 'must be an array' }],
    ],
    [
      { type: 'tls', target: 'e.com', config: { alert_days_before_expiry: 0 } },
      [{ field: 'config.alert_days_before_expiry', issue: 'must be between 1 and 365' }],
    ],
    [
      { type: 'dns', target: 'e.com', config: { record_type: 'SRV' } },
      [{ field: 'config.record_type', issue: 'must be one of A, AAAA, CNAME, MX, TXT, NS' }],
    ],
    [
      { type: 'dns', target: 'e.com', config: { expected: [''] } },
      [{ field: 'config.expected[0]', issue: 'must be a non-empty answer' }],
    ],
    [
      { type: 'grpc', target: 'g:1', config: { tls: 'yes' } },
      [{ field: 'config.tls', issue: 'must be true or false' }],
    ],
    [{ type: 'grpc', target: 'g:1', config: { service: 7 } }, [{ field: 'config.service', issue: 'must be a string' }]],
    [
      { type: 'heartbeat', config: { grace_seconds: -1 } },
      [{ field: 'config.grace_seconds', issue: 'must be between 0 and 86400' }],
    ],
    [{ type: 'heartbeat', config: { timeout_ms: 'x' } }, [{ field: 'config.timeout_ms', issue: 'must be an integer' }]],
    [
      { type: 'smtp', target: 'mx.e.com', config: { tls_mode: 'tls' } },
      [{ field: 'config.tls_mode', issue: 'must be one of none, starttls, implicit' }],
    ],
    [
      { type: 'smtp', target: 'mx.e.com', config: { send: 'x' } },
      [{ field: 'config.send', issue: 'is not a known field for smtp monitors' }],
    ],
    [
      { type: 'websocket', target: 'wss://e.com/ws', config: { expect: '' } },
      [{ field: 'config.expect', issue: 'must not be empty' }],
    ],
    [
      { type: 'websocket', target: 'wss://e.com/ws', config: { send: 42 } },
      [{ field: 'config.send', issue: 'must be a string' }],
    ],
    [
      { target: 'https://e.com', config: { cron: '* * * * *' } },
      [{ field: 'config.cron', issue: 'is not a known field for http monitors' }],
    ],
    [
      { type: 'tcp', target: 'h:1', config: { method: 'GET' } },
      [{ field: 'config.method', issue: 'is not a known field for tcp monitors' }],
    ],
    [
      {
        target: 'https://e.com',
        config: { assertions: Array.from({ length: 21 }, () => ({ type: 'status', equals: 200 })) },
      },
      [{ field: 'config.assertions', issue: 'must have at most 20 items' }],
    ],
    [
      { target: 'https://e.com', config: { assertions: [{ equals: 200 }] } },
      [{ field: 'config.assertions[0].type', issue: 'is required' }],
    ],
    [[], [{ field: 'body', issue: 'must be a JSON object' }]],
  ])('%j', async (input, expected) => {
    const res = await send('POST', input);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(expected);
  });

  it('lists every problem of shape at once', async () => {
    const res = await send('POST', {
      target: 'https://e.com',
      interval_seconds: -5,
      tags: 'x',
      config: { timeout_ms: 1, bogus: true },
    });
    expect((res.body as Array<{ field: string }>).map((d) => d.field).sort()).toEqual([
      'config.bogus',
      'config.timeout_ms',
      'interval_seconds',
      'tags',
    ]);
  });
});

describe('create body: accepted shapes', () => {
  it.each([
    { target: 'https://e.com' },
    {
      type: 'tls',
      target: 'e.com:443',
      config: { verify_tls: false, ca_certificate: null, alert_days_before_expiry: 30 },
    },
    { type: 'tcp', target: 'db:5432', config: { timeout_ms: null } },
    { type: 'dns', target: 'e.com', config: { record_type: 'MX', resolver: '1.1.1.1', expected: ['mx.e.com'] } },
    { type: 'grpc', target: 'g:1', config: { tls: true, service: 'x' } },
    { type: 'heartbeat', config: { grace_seconds: 0 } },
    {
      type: 'smtp',
      target: 'mx.e.com:587',
      config: { tls_mode: 'starttls', verify_tls: false, alert_days_before_expiry: 7 },
    },
    {
      type: 'websocket',
      target: 'wss://e.com/ws',
      config: { headers: { Origin: 'https://e.com' }, send: 'hi', expect: 'ok' },
    },
    {
      target: 'https://e.com',
      config: {
        method: 'POST',
        headers: { 'x-a': 'b' },
        body: '{}',
        assertions: [{ type: 'json', path: '$.a', equals: null }],
        content_ignore_patterns: ['\\d+'],
        intelligence_incidents: true,
      },
    },
  ])('%j', async (input) => {
    const res = await send('POST', input);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('is an http monitor when type is absent', async () => {
    expect((await send('POST', { target: 'https://e.com' })).body).toEqual({ target: 'https://e.com', type: 'http' });
  });
});

describe('assertions: the schema words its findings as the checks module does', () => {
  const withAssertion = (assertion: unknown) => ({ target: 'https://e.com', config: { assertions: [assertion] } });
  it.each([
    [{ type: 'teapot' }, 'config.assertions[0].type', 'must be one of status, response_time, header, body, json'],
    [{ type: 'status', in: [200, 'x'] }, 'config.assertions[0].in[1]', 'must be an integer HTTP status (100-599)'],
    [{ type: 'status', in: [] }, 'config.assertions[0].in', 'must be a non-empty array of HTTP statuses'],
    [
      { type: 'response_time', less_than: '5' },
      'config.assertions[0].less_than',
      'must be a positive number of milliseconds',
    ],
    [{ type: 'json', path: '$.a', exists: 'yes' }, 'config.assertions[0].exists', 'must be a boolean'],
    ['status', 'config.assertions[0]', 'must be an object'],
  ])('%j', async (assertion, field, issue) => {
    const res = await send('POST', withAssertion(assertion));
    expect(res.status).toBe(422);
    expect(res.body).toEqual([{ field, issue }]);
  });

  it('leaves the rest to the checks module: a fraction of a millisecond and many statuses pass the schema', async () => {
    expect((await send('POST', withAssertion({ type: 'response_time', less_than: 700_000.5 }))).status).toBe(200);
    const statuses = Array.from({ length: 30 }, (_, i) => 200 + i);
    expect((await send('POST', withAssertion({ type: 'status', in: statuses }))).status).toBe(200);
  });
});

describe('patch body', () => {
  it.each([
    [{ type: 'tcp' }, [{ field: 'type', issue: 'cannot be changed; create a new monitor instead' }]],
    [{ id: 'mon_x' }, [{ field: 'id', issue: 'is not a known field for monitors' }]],
    [{ interval_seconds: 'often' }, [{ field: 'interval_seconds', issue: 'must be an integer' }]],
    [{ config: { timeout_ms: 1 } }, [{ field: 'config.timeout_ms', issue: 'must be between 100 and 60000' }]],
    [{ config: { cron: 1 } }, [{ field: 'config.cron', issue: 'is not a known field for monitors' }]],
    [{ config: 'x' }, [{ field: 'config', issue: 'must be an object' }]],
    [[], [{ field: 'body', issue: 'must be a JSON object' }]],
  ])('%j', async (input, expected) => {
    const res = await send('PATCH', input);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(expected);
  });

  it("takes any type's config keys (the monitor's type is checked after the merge) and null", async () => {
    const res = await send('PATCH', { config: { method: null, grace_seconds: 30, record_type: 'A' } });
    expect(res.status).toBe(200);
  });
});
