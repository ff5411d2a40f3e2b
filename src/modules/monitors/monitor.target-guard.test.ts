import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../../../test/support/targets/index.ts';
import { createDnsServerResolver, type NetworkPolicy } from '../../platform/net/index.ts';
import { createMonitorTargetGuard, type MonitorTargetGuard } from './monitor.target-guard.ts';
import type { MonitorConfig, MonitorType } from './monitor.types.ts';

let dns: DnsServer;
let guard: MonitorTargetGuard;
let policy: NetworkPolicy;

const fields = (type: MonitorType, target: string, config: Partial<Record<string, unknown>> = {}) => ({
  type,
  target,
  config: config as unknown as MonitorConfig,
});

beforeAll(async () => {
  dns = await startDnsServer({
    'public.test': { A: ['8.8.8.8'] },
    'internal.test': { A: ['8.8.8.8', '10.1.2.3'] },
    'metadata.test': { AAAA: ['::ffff:169.254.169.254'] },
  });
  policy = { allowPrivateTargets: false, resolver: createDnsServerResolver([dns.resolver], 500) };
  guard = createMonitorTargetGuard(policy, 300);
});
afterAll(() => dns.close());

describe('monitor target guard (network.allow_private_targets=false)', () => {
  it('accepts names whose every address is public', async () => {
    expect(await guard.issuesOf(fields('http', 'https://public.test/health'))).toEqual([]);
    expect(await guard.issuesOf(fields('tcp', 'public.test:5432'))).toEqual([]);
  });

  it('refuses a name when one of its addresses is private, on target', async () => {
    expect(await guard.issuesOf(fields('tls', 'internal.test:443'))).toEqual([
      {
        field: 'target',
        issue: expect.stringMatching(
          /^internal\.test resolves to 10\.1\.2\.3, a private-use address \(10\.0\.0\.0\/8\); /,
        ),
      },
    ]);
    expect(await guard.issuesOf(fields('grpc', 'metadata.test:443'))).toEqual([
      {
        field: 'target',
        issue: expect.stringContaining('IPv4-mapped address (::ffff:0:0/96) embedding 169.254.169.254'),
      },
    ]);
  });

  it('judges a dns monitor by its resolver, not by the name it asks about', async () => {
    expect(await guard.issuesOf(fields('dns', 'internal.test', { resolver: null }))).toEqual([]);
    expect(await guard.issuesOf(fields('dns', 'example.com', { resolver: '0x7f.1:53' }))).toEqual([
      { field: 'config.resolver', issue: expect.stringContaining('127.0.0.1 is a loopback address') },
    ]);
  });

  it('accepts a name that does not resolve, or not in time (the check-time guard decides later)', async () => {
    expect(await guard.issuesOf(fields('http', 'http://missing.test/'))).toEqual([]);
    dns.setSilent(true);
    try {
      expect(await guard.issuesOf(fields('http', 'http://public.test/'))).toEqual([]);
    } finally {
      dns.setSilent(false);
    }
  });

  it('allows everything when private targets are allowed, and heartbeats never connect', async () => {
    const open = createMonitorTargetGuard({ ...policy, allowPrivateTargets: true });
    expect(await open.issuesOf(fields('http', 'http://127.0.0.1/'))).toEqual([]);
    expect(await guard.issuesOf(fields('heartbeat', ''))).toEqual([]);
  });
});
