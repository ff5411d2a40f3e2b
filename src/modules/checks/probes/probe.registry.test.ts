import { describe, expect, it } from 'vitest';
import { createProbeRegistry, isPrivateAddress, PROBE_TYPES, runProbe } from './index.ts';
import type { ProbeTarget } from './index.ts';

const ctx = { now: () => 1_000, allowPrivateTargets: true };
const target = (type: string): ProbeTarget => ({
  id: 'mon_x',
  type: type as ProbeTarget['type'],
  target: 'x',
  interval_seconds: 60,
  config: {},
});

describe('probe registry', () => {
  it('has a probe per type', () => {
    const r = createProbeRegistry();
    for (const t of PROBE_TYPES) expect(typeof r.get(t)).toBe('function');
    expect(r.get('nope')).toBeUndefined();
    expect(r.get('constructor')).toBeUndefined();
  });

  it('turns an unknown type into invalid_target', async () => {
    const obs = await createProbeRegistry().run(target('gopher'), ctx);
    expect(obs).toMatchObject({ status: 'down', started_at: 1_000, error: { code: 'invalid_target' } });
  });

  it('never lets a probe throw', async () => {
    const r = createProbeRegistry({ tcp: () => Promise.reject(new Error('boom')) });
    const obs = await runProbe(r, target('tcp'), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'protocol_error', message: 'probe failed: boom' } });
    expect(obs.timings.total_ms).toBe(obs.duration_ms);
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['8.8.8.8', false],
    ['::1', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['2606:4700::1111', false],
    ['not-an-ip', true],
  ])('%s → %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});
