import { describe, expect, it } from 'vitest';
import { newChangeState, observeSnapshot } from './change.detector.ts';
import { snapshotOf } from './observation.normalise.ts';

const T0 = Date.parse('2026-11-28T00:00:00.000Z');
const HOUR = 3_600_000;

const domainDetails = (registrar: string, nameservers: string[]) => ({
  domain: 'example.com',
  expires_at: '2027-08-13T04:00:00.000Z',
  days_to_expiry: 258,
  registrar,
  nameservers,
});

describe('intelligence of the network probes', () => {
  it('reads a domain check as its delegation, DNS provider and registrar', () => {
    expect(
      snapshotOf('domain', true, domainDetails('Registrar A', ['NS-1.AWSDNS-01.ORG.', 'ns-2.awsdns-02.com'])),
    ).toEqual({
      dns: { NS: ['ns-1.awsdns-01.org', 'ns-2.awsdns-02.com'] },
      infrastructure: { addresses: [], cdn: null, dns_provider: 'Amazon Route 53' },
      registrar: 'Registrar A',
    });
    expect(snapshotOf('domain', false, domainDetails('Registrar A', []))).toBeNull();
  });

  it('reports a registrar change and a name server change once each is confirmed', () => {
    const state = newChangeState();
    const snaps = [
      domainDetails('Registrar A', ['ns1.a.net']),
      domainDetails('Registrar A', ['ns1.a.net']),
      domainDetails('Registrar B', ['ns1.b.net']),
      domainDetails('Registrar B', ['ns1.b.net']),
    ].map((d) => snapshotOf('domain', true, d)!);
    const findings = snaps.flatMap((snap, i) => observeSnapshot(state, T0 + i * 25 * HOUR, snap));
    expect(findings.map((f) => [f.category, f.summary])).toEqual([
      ['dns', 'DNS NS records changed from ns1.a.net to ns1.b.net.'],
      ['infrastructure', 'Registrar changed from Registrar A to Registrar B.'],
    ]);
  });

  it('takes the pinged or datagram address as the infrastructure address', () => {
    expect(snapshotOf('icmp', true, { address: '192.0.2.7', rtt_avg_ms: 1 })).toEqual({
      infrastructure: { addresses: ['192.0.2.7'], cdn: null, dns_provider: null },
    });
    expect(snapshotOf('udp', true, { remote_address: '192.0.2.8' })?.infrastructure?.addresses).toEqual(['192.0.2.8']);
  });
});
