import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../../test/support/services.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';
import { parsePingOutput, pingArguments } from './icmp.ping.ts';
import { createIcmpProbe, judgePing } from './icmp.probe.ts';

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const icmp = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_icmp',
  type: 'icmp',
  target,
  interval_seconds: 60,
  config: { timeout_ms: 2000, count: 2, ...config },
});

/**
 * A host of its own: a network namespace joined to this one by a veth pair (10.R.R.1 here, 10.R.R.2 there), so
 * echo requests leave this stack and are answered by another. Needs root (CAP_NET_ADMIN); null when refused.
 */
function startNamespaceHost(): { address: string; silent: string; close(): void; refusal: string | null } {
  const tag = (process.pid % 60_000).toString(36);
  const ns = `tocsin-icmp-${tag}`;
  const here = `ti${tag}a`;
  const there = `ti${tag}b`;
  const octet = 16 + (process.pid % 200);
  const run = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const close = () => {
    for (const args of [
      ['link', 'del', here],
      ['netns', 'del', ns],
    ]) {
      try {
        run(...args);
      } catch {
        // already gone
      }
    }
  };
  try {
    close();
    run('netns', 'add', ns);
    run('link', 'add', here, 'type', 'veth', 'peer', 'name', there);
    run('link', 'set', there, 'netns', ns);
    run('addr', 'add', `10.${octet}.77.1/24`, 'dev', here);
    run('link', 'set', here, 'up');
    run('netns', 'exec', ns, 'ip', 'addr', 'add', `10.${octet}.77.2/24`, 'dev', there);
    run('netns', 'exec', ns, 'ip', 'link', 'set', there, 'up');
    return { address: `10.${octet}.77.2`, silent: `10.${octet}.77.9`, close, refusal: null };
  } catch (err) {
    close();
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return { address: '', silent: '', close, refusal: stderr || (err as Error).message };
  }
}

describe('ping output', () => {
  it('reads replies, duplicates, ICMP errors and the summary', () => {
    const text = [
      'PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.',
      '64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=0.857 ms',
      '64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=0.901 ms (DUP!)',
      'From 10.0.0.1 icmp_seq=2 Destination Host Unreachable',
      '64 bytes from 10.0.0.2: icmp_seq=3 ttl=64 time=12.5 ms',
      '64 bytes from 2001:db8::1: icmp_seq=4 ttl=64 time=0.031 ms',
      '',
      '--- 10.0.0.2 ping statistics ---',
      '3 packets transmitted, 2 received, +1 duplicates, +1 errors, 33.3333% packet loss, time 408ms',
    ].join('\n');
    expect(parsePingOutput(text)).toEqual({
      rtts: [0.857, 12.5, 0.031],
      transmitted: 3,
      received: 2,
      errors: ['Destination Host Unreachable'],
    });
  });

  it('runs ping with a fixed argument list on the vetted address', () => {
    expect(pingArguments({ address: '::1', family: 6, count: 3, waitSeconds: 1.25 })).toEqual([
      '-6',
      '-n',
      '-c',
      '3',
      '-i',
      '0.2',
      '-W',
      '1.3',
      '::1',
    ]);
  });
});

describe('judging a ping run', () => {
  const j = { count: 4, maxLoss: 25, assertions: [], address: '192.0.2.1' };
  const run = (rtts: number[], extra: Partial<Parameters<typeof judgePing>[0]> = {}) =>
    judgePing({ rtts, transmitted: 4, received: rtts.length, errors: [], exitCode: 0, stderr: '', ...extra }, j, 900);

  it('keeps the average between the minimum and maximum round trips, at ping’s precision', () => {
    // Rounded to 0.01 ms, replies of 0.048 ms averaged 0.05 (seen on loopback in CI).
    expect(run([0.048, 0.048, 0.047, 0.048]).details).toMatchObject({
      rtt_min_ms: 0.047,
      rtt_avg_ms: 0.048,
      rtt_max_ms: 0.048,
    });
    expect(run([0.05, 0.051, 0.052]).details).toMatchObject({ rtt_avg_ms: 0.051 });
  });

  it('is up at the loss limit and down above it', () => {
    expect(run([1, 2, 3]).error).toBeNull();
    expect(run([1, 2]).error).toEqual({
      code: 'packet_loss',
      message: '50% of 4 echo requests lost (at most 25% allowed)',
    });
  });

  it('tells a refused ICMP socket (the server’s setup) from a host that does not answer', () => {
    const refused = run([], { exitCode: 2, stderr: 'ping: socktype: SOCK_RAW\nping: socket: Operation not permitted' });
    expect(refused.error?.code).toBe('protocol_error');
    expect(refused.error?.message).toContain('cap_net_raw');
    expect(run([], { exitCode: 1 }).error).toEqual({
      code: 'packet_loss',
      message: 'no echo reply from 192.0.2.1 (100% loss)',
    });
    expect(run([], { exitCode: 1, errors: ['Destination Host Unreachable'] }).error).toEqual({
      code: 'connect_refused',
      message: 'no echo reply from 192.0.2.1: Destination Host Unreachable',
    });
  });
});

describe('icmp probe without ping', () => {
  it('says that the ping binary is missing and what to install', async () => {
    const missing = createProbeRegistry({ icmp: createIcmpProbe({ command: 'tocsin-no-such-ping' }) });
    const obs = await missing.run(icmp('127.0.0.1'), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'protocol_error' } });
    expect(obs.error?.message).toBe(
      'the ping binary is not installed on this server (install iputils-ping); icmp monitors need it',
    );
  });
});

// Required in CI (TOCSIN_TEST_REQUIRE_SERVICES=1): a run without ping fails instead of skipping the probe's suite.
describe.skipIf(skipWithout('ping'))('icmp probe', () => {
  let host: ReturnType<typeof startNamespaceHost>;
  beforeAll(() => {
    host = startNamespaceHost();
  });
  afterAll(() => host.close());

  it('is up with rtt min/avg/max when 127.0.0.1 answers', async () => {
    const obs = await registry.run(icmp('127.0.0.1', { count: 3 }), ctx);
    expect(obs).toMatchObject({
      status: 'up',
      error: null,
      details: { address: '127.0.0.1', packets_sent: 3, packets_received: 3, loss_percent: 0 },
    });
    const d = obs.details as Record<string, number>;
    expect(d.rtt_min_ms).toBeLessThanOrEqual(d.rtt_avg_ms!);
    expect(d.rtt_avg_ms).toBeLessThanOrEqual(d.rtt_max_ms!);
    expect(obs.duration_ms).toBe(d.rtt_avg_ms);
    expect(d.elapsed_ms).toBeGreaterThanOrEqual(400);
  });

  it('pings IPv6 loopback', async (test) => {
    const obs = await registry.run(icmp('[::1]'), ctx);
    if (obs.status === 'down' && /unreachable|Cannot assign/i.test(obs.error?.message ?? ''))
      test.skip(`no IPv6 loopback here: ${obs.error?.message}`);
    expect(obs).toMatchObject({ status: 'up', details: { address: '::1', packets_received: 2 } });
  });

  it('resolves names once and pings the address (localhost)', async () => {
    const obs = await registry.run(icmp('localhost'), ctx);
    expect(obs.status).toBe('up');
    expect(obs.timings.dns_ms).toBeGreaterThanOrEqual(0);
    expect(['127.0.0.1', '::1']).toContain(obs.details?.address);
  });

  it('judges response_time assertions against the average round trip', async () => {
    const fast = await registry.run(
      icmp('127.0.0.1', { assertions: [{ type: 'response_time', less_than: 500 }] }),
      ctx,
    );
    expect(fast.status).toBe('up');
    expect(fast.assertions[0]).toMatchObject({ type: 'response_time', passed: true });
    const slow = await registry.run(
      icmp('127.0.0.1', { assertions: [{ type: 'response_time', less_than: 0.0001 }] }),
      ctx,
    );
    expect(slow).toMatchObject({ status: 'down', error: { code: 'assertion_failed' } });
  });

  it('refuses private targets when not allowed (before any ping)', async () => {
    const obs = await registry.run(icmp('127.0.0.1'), { ...ctx, allowPrivateTargets: false });
    expect(obs).toMatchObject({ status: 'down', error: { code: 'private_target' } });
  });

  it.each(['127.0.0.1:80', 'a b', 'http://x/'])('rejects %j as invalid_target', async (t) => {
    expect((await registry.run(icmp(t), ctx)).error?.code).toBe('invalid_target');
  });

  it('pings a host in another network namespace', async (test) => {
    if (host.refusal) test.skip(`no network namespace: ${host.refusal}`);
    const obs = await registry.run(icmp(host.address, { count: 3 }), ctx);
    expect(obs).toMatchObject({ status: 'up', details: { packets_received: 3, loss_percent: 0 } });
  });

  it('is down when nothing answers (an address on the link with no host)', async (test) => {
    if (host.refusal) test.skip(`no network namespace: ${host.refusal}`);
    const obs = await registry.run(icmp(host.silent, { count: 2, timeout_ms: 2000 }), ctx);
    expect(obs.status).toBe('down');
    expect(['packet_loss', 'connect_refused']).toContain(obs.error?.code);
    expect(obs.details).toMatchObject({ packets_received: 0, loss_percent: 100, rtt_avg_ms: null });
  });

  it('is down on loss above max_loss_percent, up within it', async (test) => {
    if (host.refusal) test.skip(`no network namespace: ${host.refusal}`);
    // The other host stops answering echo requests: every one is lost.
    const ns = `tocsin-icmp-${(process.pid % 60_000).toString(36)}`;
    execFileSync('ip', ['netns', 'exec', ns, 'sysctl', '-q', 'net.ipv4.icmp_echo_ignore_all=1']);
    try {
      const lost = await registry.run(icmp(host.address, { count: 2, timeout_ms: 2000, max_loss_percent: 99 }), ctx);
      expect(lost).toMatchObject({ status: 'down', error: { code: 'packet_loss' }, details: { loss_percent: 100 } });
    } finally {
      execFileSync('ip', ['netns', 'exec', ns, 'sysctl', '-q', 'net.ipv4.icmp_echo_ignore_all=0']);
    }
    const back = await registry.run(icmp(host.address, { count: 2, max_loss_percent: 0 }), ctx);
    expect(back.status).toBe('up');
  });

  it('is down with timeout when the check is aborted', async () => {
    const controller = new AbortController();
    const pending = registry.run(icmp('127.0.0.1', { count: 5 }), { ...ctx, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ status: 'down', error: { code: 'timeout' } });
  });
});
