import { describe, expect, it } from 'vitest';
import { createProbeRegistry, heartbeatGraceMs } from '../index.ts';
import type { ProbeTarget } from '../index.ts';

const registry = createProbeRegistry();
const T = Date.parse('2026-01-01T00:00:00Z');
const hb = (interval_seconds: number, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_hb',
  type: 'heartbeat',
  target: '',
  interval_seconds,
  config,
});
const at = (now: number, lastHeartbeatAt: number | null, createdAt = T) => ({
  now: () => now,
  allowPrivateTargets: false,
  lastHeartbeatAt,
  createdAt,
});

describe('heartbeat probe', () => {
  it('computes the default grace as max(60 s, 20% of the interval)', () => {
    expect(heartbeatGraceMs(60, {})).toBe(60_000);
    expect(heartbeatGraceMs(3600, {})).toBe(720_000);
    expect(heartbeatGraceMs(3600, { grace_seconds: 10 })).toBe(10_000);
  });

  it.each([
    ['recent ping', 300, T, T + 300_000 + 60_000, 'up'],
    ['just past the grace', 300, T, T + 300_000 + 60_001, 'down'],
    ['never pinged, young monitor', 300, null, T + 100_000, 'up'],
    ['never pinged, old monitor', 300, null, T + 400_000, 'down'],
    ['hourly job, 20% grace', 3600, T, T + 3600_000 + 700_000, 'up'],
  ])('%s → %s', async (_name, interval, last, now, status) => {
    const obs = await registry.run(hb(interval), at(now, last));
    expect(obs.status).toBe(status);
    expect(obs.started_at).toBe(now);
    if (status === 'down') expect(obs.error?.code).toBe('heartbeat_missed');
    else expect(obs.error).toBeNull();
  });
});
