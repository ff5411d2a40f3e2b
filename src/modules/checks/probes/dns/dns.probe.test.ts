import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';
import { startStallMeter } from '../../../../../test/support/stall-meter.ts';

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
let server: DnsServer;
const dns = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_dns',
  type: 'dns',
  target,
  interval_seconds: 60,
  config: { record_type: 'A', resolver: server.resolver, timeout_ms: 1000, ...config },
});

beforeAll(async () => {
  server = await startDnsServer({
    'example.test': {
      A: ['192.0.2.10', '192.0.2.11'],
      AAAA: ['2001:db8::1'],
      MX: [
        { preference: 20, exchange: 'backup.example.test' },
        { preference: 10, exchange: 'mail.example.test' },
      ],
      TXT: ['v=spf1 -all'],
      NS: ['ns1.example.test', 'ns2.example.test'],
    },
    'www.example.test': { CNAME: ['example.test'] },
  });
});
afterAll(async () => {
  await server.close();
});

describe('dns probe', () => {
  it.each([
    ['A', 'example.test', ['192.0.2.10', '192.0.2.11']],
    ['AAAA', 'example.test', ['2001:db8::1']],
    ['MX', 'example.test', ['10 mail.example.test', '20 backup.example.test']],
    ['TXT', 'example.test', ['v=spf1 -all']],
    ['NS', 'example.test', ['ns1.example.test', 'ns2.example.test']],
    ['CNAME', 'www.example.test', ['example.test']],
  ])('resolves %s records', async (record_type, name, answers) => {
    const obs = await registry.run(dns(name, { record_type }), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null, details: { record_type, answers } });
    expect(obs.timings.dns_ms).toBe(obs.duration_ms);
  });

  it('is up when the answers include every expected value (case and trailing dot ignored)', async () => {
    const obs = await registry.run(dns('example.test', { expected: ['192.0.2.11'] }), ctx);
    expect(obs.status).toBe('up');
    const mx = await registry.run(dns('example.test', { record_type: 'MX', expected: ['MAIL.example.test.'] }), ctx);
    expect(mx.status).toBe('up');
  });

  it('is down with dns_mismatch when an expected value is missing', async () => {
    const obs = await registry.run(dns('example.test', { expected: ['192.0.2.10', '198.51.100.7'] }), ctx);
    expect(obs).toMatchObject({
      status: 'down',
      error: { code: 'dns_mismatch' },
      details: { answers: ['192.0.2.10', '192.0.2.11'] },
    });
    expect(obs.error?.message).toContain('198.51.100.7');
  });

  it('is down with dns for NXDOMAIN and for no records of the type', async () => {
    expect(await registry.run(dns('missing.example.test'), ctx)).toMatchObject({
      status: 'down',
      error: { code: 'dns' },
    });
    expect(await registry.run(dns('www.example.test', { record_type: 'A' }), ctx)).toMatchObject({
      status: 'down',
      error: { code: 'dns' },
    });
  });

  it('times out when the resolver does not answer', async () => {
    server.setSilent(true);
    try {
      const meter = startStallMeter();
      const obs = await registry.run(dns('example.test', { timeout_ms: 200 }), ctx);
      meter.stop();
      expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
      // Plus how long this process could not run timers (test/support/stall-meter.ts): a loaded machine, not the probe.
      expect(obs.duration_ms).toBeLessThan(1500 + meter.stalledMs());
    } finally {
      server.setSilent(false);
    }
  });

  it('rejects bad input and private resolvers when not allowed', async () => {
    expect((await registry.run(dns('example.test', { record_type: 'SRV' }), ctx)).error?.code).toBe('invalid_target');
    expect((await registry.run(dns('bad name!'), ctx)).error?.code).toBe('invalid_target');
    expect((await registry.run(dns('example.test', { resolver: 'not-an-ip' }), ctx)).error?.code).toBe(
      'invalid_target',
    );
    expect((await registry.run(dns('example.test'), { ...ctx, allowPrivateTargets: false })).error?.code).toBe(
      'private_target',
    );
  });
});
