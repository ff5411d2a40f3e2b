import { describe, expect, it } from 'vitest';
import { validateAssertion } from '../checks/index.ts';
import { confirmRegionsOf, validateMonitor, type ValidationContext } from './index.ts';

const ctx: ValidationContext = {
  regions: ['local', 'eu-west', 'us-east'],
  defaultRegion: 'eu-west',
  defaultIntervalSeconds: 60,
  defaultEnvironment: 'production',
  validateAssertion,
};

const COMMON_DEFAULTS = {
  timeout_ms: 10_000,
  failure_threshold: 2,
  success_threshold: 1,
  confirm_regions: null,
  alert_destination_ids: [],
  alert_latency_ms: null,
  reminder_interval_minutes: null,
};

function ok(input: Record<string, unknown>) {
  const r = validateMonitor(input, ctx);
  if (!r.ok) throw new Error(`expected valid, got ${JSON.stringify(r.details)}`);
  return r.value;
}

function details(input: Record<string, unknown>) {
  const r = validateMonitor(input, ctx);
  if (r.ok) throw new Error('expected a validation failure');
  return r.details;
}

describe('validateMonitor defaults', () => {
  it('fills every default from {"target": url} (DECISIONS §4)', () => {
    expect(ok({ target: 'https://example.com/health?x=1' })).toEqual({
      name: 'example.com',
      type: 'http',
      target: 'https://example.com/health?x=1',
      interval_seconds: 60,
      region_codes: ['eu-west'],
      tags: [],
      environment: 'production',
      paused: false,
      config: {
        ...COMMON_DEFAULTS,
        method: 'GET',
        headers: {},
        body: null,
        follow_redirects: true,
        verify_tls: true,
        assertions: [],
      },
    });
  });

  it('names a monitor after host:port when the URL has a port', () => {
    expect(ok({ target: 'http://example.com:8080/' }).name).toBe('example.com:8080');
  });

  it('trims the target and the name', () => {
    const v = ok({ target: '  https://example.com  ', name: '  Home  ' });
    expect(v.target).toBe('https://example.com');
    expect(v.name).toBe('Home');
  });

  it('uses the context for interval, region and environment', () => {
    const v = validateMonitor(
      { target: 'https://a.example' },
      { ...ctx, defaultIntervalSeconds: 15, defaultRegion: 'us-east', defaultEnvironment: 'staging' },
    );
    expect(v.ok && v.value).toMatchObject({ interval_seconds: 15, region_codes: ['us-east'], environment: 'staging' });
  });

  it.each([
    ['tls', 'example.com:443', { alert_days_before_expiry: 14 }, 'example.com:443'],
    ['tls', 'https://example.com', { alert_days_before_expiry: 14 }, 'example.com'],
    ['tls', 'example.com', { alert_days_before_expiry: 14 }, 'example.com'],
    ['tcp', 'db.internal:5432', {}, 'db.internal:5432'],
    ['tcp', '[::1]:22', {}, '[::1]:22'],
    ['dns', 'example.com', { record_type: 'A', resolver: null, expected: [] }, 'example.com'],
    ['grpc', 'grpc.example.com:50051', { tls: false, service: '' }, 'grpc.example.com:50051'],
    ['smtp', 'mx.example.com', { tls_mode: 'none', alert_days_before_expiry: 14, assertions: [] }, 'mx.example.com'],
    [
      'smtp',
      'mx.example.com:587',
      { tls_mode: 'none', alert_days_before_expiry: 14, assertions: [] },
      'mx.example.com:587',
    ],
    [
      'websocket',
      'wss://example.com:8443/ws?x=1',
      { headers: {}, send: null, expect: null, verify_tls: true, assertions: [] },
      'example.com:8443',
    ],
  ])('%s %s gets its type defaults', (type, target, typeDefaults, name) => {
    const v = ok({ type, target });
    expect(v.config).toEqual({ ...COMMON_DEFAULTS, ...typeDefaults });
    expect(v.name).toBe(name);
  });

  it('heartbeat needs no target and defaults its grace to max(60 s, 20% of the interval)', () => {
    const v = ok({ type: 'heartbeat' });
    expect(v.name).toBe('Heartbeat');
    expect(v.config).toEqual({ ...COMMON_DEFAULTS, grace_seconds: 60 });
    expect(ok({ type: 'heartbeat', interval_seconds: 3600 }).config.grace_seconds).toBe(720);
    expect(ok({ type: 'heartbeat', config: { grace_seconds: 0 } }).config.grace_seconds).toBe(0);
  });

  it('null in a config key means the default', () => {
    const v = ok({
      target: 'https://e.com',
      config: { method: null, timeout_ms: null, assertions: null, headers: null },
    });
    expect(v.config).toMatchObject({ method: 'GET', timeout_ms: 10_000, assertions: [], headers: {} });
  });
});

describe('validateMonitor accepts full input for every type', () => {
  it('http with every config key', () => {
    const config = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Token': 'abc' },
      body: '{"ping":true}',
      timeout_ms: 5000,
      follow_redirects: false,
      verify_tls: false,
      failure_threshold: 3,
      success_threshold: 2,
      confirm_regions: 2,
      alert_destination_ids: ['dst_01m80c64tfdbtrcmt3t76vgq8j'],
      alert_latency_ms: 800,
      reminder_interval_minutes: 30,
      assertions: [
        { type: 'status', equals: 200 },
        { type: 'status', in: [200, 204] },
        { type: 'response_time', less_than: 500 },
        { type: 'header', name: 'content-type', equals: 'application/json' },
        { type: 'header', name: 'content-type', contains: 'json' },
        { type: 'header', name: 'server', matches: '^nginx' },
        { type: 'body', contains: 'ok' },
        { type: 'body', not_contains: 'error' },
        { type: 'body', matches: 'v\\d+' },
        { type: 'json', path: '$.status', equals: 'ok' },
        { type: 'json', path: '$.items', contains: 3 },
        { type: 'json', path: '$.meta.id', exists: true },
      ],
    };
    const v = ok({
      name: 'API',
      type: 'http',
      target: 'https://api.example.com/v1',
      interval_seconds: 30,
      region_codes: ['eu-west', 'us-east'],
      tags: ['prod', 'team:core', 'a/b=c'],
      environment: 'staging',
      paused: true,
      config,
    });
    expect(v).toMatchObject({
      name: 'API',
      interval_seconds: 30,
      region_codes: ['eu-west', 'us-east'],
      tags: ['prod', 'team:core', 'a/b=c'],
      environment: 'staging',
      paused: true,
    });
    expect(v.config).toEqual(config);
  });

  it('tls, dns, grpc and heartbeat keys', () => {
    expect(
      ok({ type: 'tls', target: 'e.com:443', config: { alert_days_before_expiry: 30 } }).config
        .alert_days_before_expiry,
    ).toBe(30);
    expect(
      ok({
        type: 'dns',
        target: 'e.com',
        config: { record_type: 'MX', resolver: '1.1.1.1:53', expected: ['mx.e.com'] },
      }).config,
    ).toMatchObject({
      record_type: 'MX',
      resolver: '1.1.1.1:53',
      expected: ['mx.e.com'],
    });
    expect(ok({ type: 'dns', target: 'e.com', config: { resolver: '2001:db8::1' } }).config.resolver).toBe(
      '2001:db8::1',
    );
    expect(ok({ type: 'grpc', target: 'g:50051', config: { tls: true, service: 'pkg.Svc' } }).config).toMatchObject({
      tls: true,
      service: 'pkg.Svc',
    });
    expect(ok({ type: 'heartbeat', config: { grace_seconds: 120, failure_threshold: 1 } }).config).toMatchObject({
      grace_seconds: 120,
      failure_threshold: 1,
    });
  });
});

describe('validateMonitor: the rules a schema cannot say, with precise details', () => {
  it.each([
    [{}, [{ field: 'target', issue: 'is required' }]],
    [{ target: 'ftp://e.com' }, [{ field: 'target', issue: 'must be an http:// or https:// URL' }]],
    [{ target: 'https://' }, [{ field: 'target', issue: 'must be an http:// or https:// URL' }]],
    [{ type: 'tcp', target: 'db.internal' }, [{ field: 'target', issue: 'must be host:port' }]],
    [{ type: 'tcp', target: 'db:70000' }, [{ field: 'target', issue: 'must be host:port' }]],
    [{ type: 'grpc', target: 'https://g.example' }, [{ field: 'target', issue: 'must be host:port' }]],
    [{ type: 'dns', target: '10.0.0.1' }, [{ field: 'target', issue: 'must be a domain name' }]],
    [
      { type: 'tls', target: 'not a host' },
      [{ field: 'target', issue: 'must be host:port, a host, or an https:// URL' }],
    ],
    [{ target: 'https://e.com', name: '   ' }, [{ field: 'name', issue: 'must not be blank' }]],
    [
      { target: 'https://e.com', region_codes: ['mars'] },
      [{ field: 'region_codes[0]', issue: 'must be one of the regions local, eu-west, us-east' }],
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
      { target: 'https://e.com', config: { confirm_regions: 2 } },
      [{ field: 'config.confirm_regions', issue: 'must not exceed the number of regions (1)' }],
    ],
    [
      { target: 'https://e.com', config: { headers: { 'bad name': 'x' } } },
      [{ field: 'config.headers.bad name', issue: 'is not a valid header name' }],
    ],
    [
      { type: 'dns', target: 'e.com', config: { resolver: 'dns.google' } },
      [{ field: 'config.resolver', issue: 'must be an IP address, optionally with :port' }],
    ],
    [
      { type: 'smtp', target: 'smtp://mx.e.com' },
      [{ field: 'target', issue: 'must be host:port or a host (port 25, 465 for implicit TLS)' }],
    ],
    [
      { type: 'smtp', target: 'mx.e.com', config: { assertions: [{ type: 'status', equals: 220 }] } },
      [
        {
          field: 'config.assertions[0].type',
          issue: 'must be body or response_time for an smtp monitor (body reads the banner)',
        },
      ],
    ],
    [
      { type: 'smtp', target: 'mx.e.com', config: { assertions: [{ type: 'body', matches: '(' }] } },
      [{ field: 'config.assertions[0].matches', issue: expect.stringContaining('regular expression') }],
    ],
    [{ type: 'websocket', target: 'https://e.com/ws' }, [{ field: 'target', issue: 'must be a ws:// or wss:// URL' }]],
    [
      { type: 'websocket', target: 'ws://e.com/', config: { headers: { 'Sec-WebSocket-Key': 'x' } } },
      [{ field: 'config.headers.Sec-WebSocket-Key', issue: 'is set by the WebSocket handshake' }],
    ],
    [
      {
        type: 'websocket',
        target: 'ws://e.com/',
        config: { assertions: [{ type: 'json', path: '$.a', exists: true }] },
      },
      [
        {
          field: 'config.assertions[0].type',
          issue: 'must be body or response_time for a websocket monitor (body reads the first message)',
        },
      ],
    ],
  ])('%j', (input, expected) => {
    expect(details(input)).toEqual(expected);
  });

  it('lists every problem at once', () => {
    const d = details({
      target: 'ftp://x',
      name: ' ',
      region_codes: ['mars'],
      config: { confirm_regions: 2, bogus: true },
    });
    expect(d.map((x) => x.field).sort()).toEqual([
      'config.bogus',
      'config.confirm_regions',
      'name',
      'region_codes[0]',
      'target',
    ]);
  });
});

describe('assertions: every kind, with the path of the offending field', () => {
  const at = (a: unknown, index = 0) => {
    const assertions = Array.from({ length: index + 1 }, (_, i) => (i === index ? a : { type: 'status', equals: 200 }));
    return details({ target: 'https://e.com', config: { assertions } });
  };

  it.each([
    [{ type: 'status', equals: 'x' }, 'config.assertions[0].equals'],
    [{ type: 'status', equals: 99 }, 'config.assertions[0].equals'],
    [{ type: 'status', in: [] }, 'config.assertions[0].in'],
    [{ type: 'status', in: [200, 'x'] }, 'config.assertions[0].in[1]'],
    [{ type: 'status', equals: 200, in: [200] }, 'config.assertions[0].in'],
    [{ type: 'status' }, 'config.assertions[0]'],
    [{ type: 'response_time', less_than: -1 }, 'config.assertions[0].less_than'],
    [{ type: 'response_time', less_than: '500' }, 'config.assertions[0].less_than'],
    [{ type: 'response_time', equals: 5 }, 'config.assertions[0].equals'],
    [{ type: 'header', contains: 'json' }, 'config.assertions[0].name'],
    [{ type: 'header', name: 'bad name', contains: 'json' }, 'config.assertions[0].name'],
    [{ type: 'header', name: 'x', equals: 5 }, 'config.assertions[0].equals'],
    [{ type: 'header', name: 'x', contains: '' }, 'config.assertions[0].contains'],
    [{ type: 'header', name: 'x', matches: '(' }, 'config.assertions[0].matches'],
    [{ type: 'header', name: 'x' }, 'config.assertions[0]'],
    [{ type: 'body', contains: 5 }, 'config.assertions[0].contains'],
    [{ type: 'body', not_contains: '' }, 'config.assertions[0].not_contains'],
    [{ type: 'body', matches: '[' }, 'config.assertions[0].matches'],
    [{ type: 'body', equals: 'x' }, 'config.assertions[0].equals'],
    [{ type: 'json', equals: 1 }, 'config.assertions[0].path'],
    [{ type: 'json', path: 'status', equals: 1 }, 'config.assertions[0].path'],
    [{ type: 'json', path: '$.a[', equals: 1 }, 'config.assertions[0].path'],
    [{ type: 'json', path: '$.a', exists: 'yes' }, 'config.assertions[0].exists'],
    [{ type: 'json', path: '$.a', matches: 'x' }, 'config.assertions[0].matches'],
    [{ type: 'teapot' }, 'config.assertions[0].type'],
    [{ equals: 200 }, 'config.assertions[0].type'],
    ['status', 'config.assertions[0]'],
    [null, 'config.assertions[0]'],
  ])('%j → %s', (assertion, field) => {
    const d = at(assertion);
    expect(d.length).toBeGreaterThan(0);
    expect(d.map((x) => x.field)).toContain(field);
    for (const x of d) expect(typeof x.issue).toBe('string');
  });

  it('indexes the failing assertion in a list', () => {
    expect(at({ type: 'status', equals: 'x' }, 2)).toEqual([
      { field: 'config.assertions[2].equals', issue: 'must be an integer HTTP status (100-599)' },
    ]);
  });

  it('json equals and contains take any JSON value, including null', () => {
    expect(
      ok({ target: 'https://e.com', config: { assertions: [{ type: 'json', path: '$.a', equals: null }] } }).config
        .assertions,
    ).toHaveLength(1);
  });
});

describe('confirmRegionsOf', () => {
  it('is 1 for one region and a majority for several unless set', () => {
    expect(confirmRegionsOf({ confirm_regions: null }, 1)).toBe(1);
    expect(confirmRegionsOf({ confirm_regions: null }, 2)).toBe(2);
    expect(confirmRegionsOf({ confirm_regions: null }, 3)).toBe(2);
    expect(confirmRegionsOf({ confirm_regions: null }, 4)).toBe(3);
    expect(confirmRegionsOf({ confirm_regions: 1 }, 4)).toBe(1);
  });
});
