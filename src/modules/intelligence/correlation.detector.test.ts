import { describe, expect, it } from 'vitest';
import { findCorrelations, type MonitorAttributes } from './correlation.detector.ts';

const T = Date.parse('2026-11-02T12:00:00Z');
const attrs = (over: Partial<MonitorAttributes>): MonitorAttributes => ({
  addresses: [],
  certificateIssuer: null,
  cdn: null,
  dnsProvider: null,
  regions: ['eu-west'],
  ...over,
});

describe('correlations', () => {
  const population = new Map<string, MonitorAttributes>([
    ['mon_a', attrs({ addresses: ['192.0.2.10'], cdn: 'Cloudflare', regions: ['eu-west', 'us-east'] })],
    ['mon_b', attrs({ addresses: ['192.0.2.10'], cdn: 'Cloudflare', regions: ['eu-west', 'us-east'] })],
    ['mon_c', attrs({ addresses: ['198.51.100.1'], cdn: 'Cloudflare', regions: ['eu-west', 'us-east'] })],
    ['mon_d', attrs({ addresses: ['198.51.100.2'], certificateIssuer: 'R3', regions: ['us-east'] })],
    ['mon_e', attrs({ addresses: ['198.51.100.3'], certificateIssuer: 'R3', regions: ['us-east'] })],
  ]);

  it('groups monitors failing together on a shared address, preferring it over the broader CDN', () => {
    const found = findCorrelations(
      [
        { monitorId: 'mon_a', regionCode: 'eu-west', at: T - 60_000, reason: 'down' },
        { monitorId: 'mon_b', regionCode: 'us-east', at: T - 30_000, reason: 'anomaly' },
      ],
      population,
      T,
    );
    expect(found).toEqual([
      {
        attribute: 'address',
        value: '192.0.2.10',
        monitorIds: ['mon_a', 'mon_b'],
        coverage: 1,
        from: T - 60_000,
        to: T - 30_000,
        summary: '2 of 2 monitors sharing address 192.0.2.10 failed or turned anomalous within 5 min.',
      },
    ]);
  });

  it('needs two monitors, half of those sharing the value, and the window', () => {
    expect(
      findCorrelations([{ monitorId: 'mon_a', regionCode: 'eu-west', at: T, reason: 'down' }], population, T),
    ).toEqual([]);
    // outside the window
    expect(
      findCorrelations(
        [
          { monitorId: 'mon_a', regionCode: 'eu-west', at: T - 10 * 60_000, reason: 'down' },
          { monitorId: 'mon_b', regionCode: 'eu-west', at: T, reason: 'down' },
        ],
        population,
        T,
      ),
    ).toEqual([]);
  });

  it('reports a certificate issuer; single-region monitors never correlate by region', async () => {
    const found = findCorrelations(
      [
        { monitorId: 'mon_d', regionCode: 'us-east', at: T, reason: 'down' },
        { monitorId: 'mon_e', regionCode: 'us-east', at: T, reason: 'down' },
        { monitorId: 'mon_c', regionCode: 'us-east', at: T, reason: 'down' },
      ],
      population,
      T,
    );
    expect(found.map((c) => [c.attribute, c.value, c.monitorIds])).toEqual([
      ['certificate_issuer', 'R3', ['mon_d', 'mon_e']],
    ]);
  });

  it('reports a probe region when multi-region monitors fail from that region only', () => {
    const regional = new Map<string, MonitorAttributes>([
      ['mon_a', attrs({ addresses: ['192.0.2.1'], regions: ['eu-west', 'us-east'] })],
      ['mon_b', attrs({ addresses: ['192.0.2.2'], regions: ['eu-west', 'us-east'] })],
      ['mon_c', attrs({ addresses: ['192.0.2.3'], regions: ['eu-west', 'us-east'] })],
    ]);
    const fromUs = findCorrelations(
      [
        { monitorId: 'mon_a', regionCode: 'us-east', at: T, reason: 'down' },
        { monitorId: 'mon_b', regionCode: 'us-east', at: T, reason: 'down' },
      ],
      regional,
      T,
    );
    expect(fromUs.map((c) => [c.attribute, c.value, c.monitorIds])).toEqual([
      ['region', 'us-east', ['mon_a', 'mon_b']],
    ]);
    expect(fromUs[0]!.summary).toContain('likely a probe or network problem');
    // failing from both regions: the targets, not the probe
    const everywhere = findCorrelations(
      [
        { monitorId: 'mon_a', regionCode: 'us-east', at: T, reason: 'down' },
        { monitorId: 'mon_a', regionCode: 'eu-west', at: T, reason: 'down' },
        { monitorId: 'mon_b', regionCode: 'us-east', at: T, reason: 'down' },
        { monitorId: 'mon_b', regionCode: 'eu-west', at: T, reason: 'down' },
      ],
      regional,
      T,
    );
    expect(everywhere).toEqual([]);
  });
});
