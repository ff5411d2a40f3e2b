import { describe, expect, it } from 'vitest';
import { newChangeState, observeSnapshot, type ChangeState } from './change.detector.ts';
import type { Finding } from './intelligence.types.ts';
import {
  compileIgnorePatterns,
  contentDigest,
  normaliseDnsAnswers,
  snapshotOf,
  stableHeaders,
  type ObservationSnapshot,
} from './observation.normalise.ts';
import { cdnFromCname, cdnFromHeaders, dnsProviderFromNs } from './infrastructure.signatures.ts';

const T0 = Date.parse('2026-11-02T00:00:00.000Z');
const STEP = 60_000;

/** Feeds snapshots one minute apart; returns [index of the observation, finding] pairs. */
function feed(state: ChangeState, snaps: ObservationSnapshot[], start = T0): Array<[number, Finding]> {
  const out: Array<[number, Finding]> = [];
  snaps.forEach((snap, i) => {
    for (const f of observeSnapshot(state, start + i * STEP, snap)) out.push([i, f]);
  });
  return out;
}

const dnsA = (...ips: string[]): ObservationSnapshot => ({ dns: { A: ips } });

describe('normalisation', () => {
  it('compares DNS answers as normalised sets', () => {
    expect(normaliseDnsAnswers('CNAME', ['Edge.Example.NET.', 'edge.example.net'])).toEqual(['edge.example.net']);
    expect(normaliseDnsAnswers('MX', ['10  Mail.Example.com.'])).toEqual(['10 mail.example.com']);
    expect(normaliseDnsAnswers('TXT', [['v=spf1 ', '-all']])).toEqual(['v=spf1 -all']);
    expect(normaliseDnsAnswers('A', ['10.0.0.2', '10.0.0.1'])).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  it('drops volatile headers, cookie values and CSP nonces', () => {
    expect(
      stableHeaders({
        Date: 'Mon, 23 Nov 2026 20:00:00 GMT',
        age: '12',
        'x-request-id': 'abc',
        'cf-ray': '1-AMS',
        'set-cookie': ['session=secret; HttpOnly', 'ab=1'],
        'content-security-policy': "script-src 'nonce-r4nd0m' 'self'",
        server: 'nginx',
      }),
    ).toEqual({ 'set-cookie': 'ab, session', 'content-security-policy': "script-src 'nonce' 'self'", server: 'nginx' });
  });

  it('digests content after whitespace normalisation and the monitor’s ignore patterns', () => {
    const ignore = compileIgnorePatterns(['Generated at \\d+']);
    const a = contentDigest('<p>Hello\n   world</p> Generated at 1700000000', ignore);
    const b = contentDigest('<p>Hello world</p>   Generated at 1800000000', ignore);
    expect(a).toBe(b);
    expect(contentDigest('<p>Hello there</p>', ignore)).not.toBe(a);
  });

  it('recognises CDNs and DNS providers from CNAMEs, headers and name servers', () => {
    expect(cdnFromCname(['d111111abcdef8.cloudfront.net.'])).toBe('Amazon CloudFront');
    expect(cdnFromHeaders({ server: 'cloudflare' })).toBe('Cloudflare');
    expect(cdnFromHeaders({ via: '1.1 varnish', 'x-served-by': 'cache-ams21', 'x-cache': 'HIT' })).toBe('Fastly');
    expect(cdnFromHeaders({ server: 'nginx' })).toBeNull();
    expect(dnsProviderFromNs(['ns-1.awsdns-01.org'])).toBe('Amazon Route 53');
  });

  it('builds a snapshot from an http probe’s details', () => {
    expect(
      snapshotOf('http', true, {
        headers: { server: 'cloudflare', date: 'x' },
        body_sha256: 'ab',
        remote_address: '203.0.113.5',
      }),
    ).toEqual({
      headers: { server: 'cloudflare' },
      content: 'ab',
      infrastructure: { addresses: ['203.0.113.5'], cdn: 'Cloudflare', dns_provider: null },
    });
    expect(snapshotOf('http', false, { headers: {} })).toBeNull();
  });

  it('keeps an smtp check’s STARTTLS certificate and address, and a websocket check’s address', () => {
    const certificate = {
      fingerprint_sha256: 'AA:BB',
      subject: 'mx.example.com',
      issuer: 'R10',
      san: ['MX.example.com'],
      valid_to: '2027-01-01T00:00:00.000Z',
      protocol: 'TLSv1.3',
    };
    expect(snapshotOf('smtp', true, { remote_address: '203.0.113.25', certificate })).toEqual({
      tls: {
        fingerprint_sha256: 'AA:BB',
        subject: 'mx.example.com',
        issuer: 'R10',
        san: ['mx.example.com'],
        not_after: '2027-01-01T00:00:00.000Z',
        protocol: 'TLSv1.3',
        cipher: null,
      },
      infrastructure: { addresses: ['203.0.113.25'], cdn: null, dns_provider: null },
    });
    expect(snapshotOf('smtp', true, { remote_address: '203.0.113.25', tls_mode: 'none' })).toEqual({
      infrastructure: { addresses: ['203.0.113.25'], cdn: null, dns_provider: null },
    });
    expect(snapshotOf('websocket', true, { remote_address: '203.0.113.9' })).toEqual({
      infrastructure: { addresses: ['203.0.113.9'], cdn: null, dns_provider: null },
    });
  });
});

describe('change detection', () => {
  it('takes the first observation as the baseline and reports a DNS change confirmed twice', () => {
    const state = newChangeState();
    const events = feed(state, [
      { dns: { CNAME: ['a.example.net'] } },
      { dns: { CNAME: ['a.example.net'] } },
      { dns: { CNAME: ['b.example.net'] } },
      { dns: { CNAME: ['b.example.net'] } },
      { dns: { CNAME: ['b.example.net'] } },
    ]);
    expect(events.map(([i]) => i)).toEqual([3]);
    const [, f] = events[0]!;
    expect(f).toMatchObject({
      kind: 'significant_change',
      category: 'dns',
      severity: 'warning',
      summary: 'DNS CNAME records changed from a.example.net to b.example.net.',
      at: T0 + 2 * STEP,
      before: { facet: 'dns:CNAME', values: ['a.example.net'] },
      after: { facet: 'dns:CNAME', values: ['b.example.net'] },
    });
  });

  it('does not report a one-off answer that goes back', () => {
    const state = newChangeState();
    const events = feed(state, [
      { dns: { MX: ['10 mx1.example.com'] } },
      { dns: { MX: ['10 mx2.example.com'] } },
      { dns: { MX: ['10 mx1.example.com'] } },
    ]);
    expect(events).toEqual([]);
  });

  it('treats round-robin A answers as one set: subsets, rotation and a member joining the rotation are not changes', () => {
    const state = newChangeState();
    const rotation = [
      dnsA('192.0.2.1', '192.0.2.2'),
      dnsA('192.0.2.3'),
      dnsA('192.0.2.1'),
      dnsA('192.0.2.2', '192.0.2.3'),
      dnsA('192.0.2.3'),
    ];
    expect(feed(state, [...rotation, ...rotation])).toEqual([]);
  });

  it('reports a new address only when it persists, with what was seen before', () => {
    const state = newChangeState();
    const quiet = feed(state, [
      dnsA('192.0.2.1', '192.0.2.2'),
      dnsA('192.0.2.2'),
      dnsA('192.0.2.1'),
      dnsA('192.0.2.2', '192.0.2.1'),
    ]);
    expect(quiet).toEqual([]);
    const moved = feed(state, [dnsA('198.51.100.7'), dnsA('198.51.100.8'), dnsA('198.51.100.7')], T0 + 10 * STEP);
    expect(moved.map(([i]) => i)).toEqual([1]);
    expect(moved[0]![1]).toMatchObject({
      category: 'dns',
      severity: 'info',
      summary:
        'DNS A records changed from 192.0.2.1, 192.0.2.2 to 198.51.100.7, 198.51.100.8 (new: 198.51.100.7, 198.51.100.8).',
    });
  });

  it('classifies a certificate renewal as info and an issuer change as a warning', () => {
    const cert = (fp: string, issuer: string, notAfter: string) => ({
      tls: {
        fingerprint_sha256: fp,
        subject: 'CN=example.com',
        issuer,
        san: ['example.com'],
        not_after: notAfter,
        protocol: 'TLSv1.3',
        cipher: null,
      },
    });
    const state = newChangeState();
    const events = feed(state, [
      cert('AA', 'CN=R3', '2027-01-01'),
      cert('BB', 'CN=R3', '2027-03-01'),
      cert('BB', 'CN=R3', '2027-03-01'),
      cert('CC', 'CN=Other CA', '2027-04-01'),
      cert('CC', 'CN=Other CA', '2027-04-01'),
    ]);
    expect(events.map(([i, f]) => [i, f.category, f.severity, f.summary])).toEqual([
      [2, 'tls', 'info', 'Certificate renewed by CN=R3 for the same names; valid until 2027-01-01 → 2027-03-01.'],
      [4, 'tls', 'warning', 'Certificate replaced: issuer CN=R3 → CN=Other CA; valid until 2027-03-01 → 2027-04-01.'],
    ]);
  });

  it('reports header changes, additions and removals; two backends answering in turn are not changes', () => {
    const state = newChangeState();
    const h = (headers: Record<string, string>): ObservationSnapshot => ({ headers });
    const events = feed(state, [
      h({ server: 'nginx/a', 'x-frame-options': 'DENY' }),
      h({ server: 'nginx/b', 'x-frame-options': 'DENY' }),
      h({ server: 'nginx/a', 'x-frame-options': 'DENY' }),
      h({ server: 'nginx/b', 'x-frame-options': 'DENY' }),
    ]);
    // a and b alternate: b is never seen twice in a row, and once seen it counts as known.
    expect(events).toEqual([]);
    const later = feed(
      state,
      [
        h({ server: 'nginx/a' }),
        h({ server: 'nginx/a', 'strict-transport-security': 'max-age=31536000' }),
        h({ server: 'nginx/a', 'strict-transport-security': 'max-age=31536000' }),
      ],
      T0 + 10 * STEP,
    );
    expect(later.map(([, f]) => [f.severity, f.summary])).toEqual([
      ['warning', 'Header x-frame-options removed (was DENY).'],
      ['warning', 'Header strict-transport-security added: max-age=31536000.'],
    ]);
  });

  it('reports a content change once; ever-changing content never confirms', () => {
    const state = newChangeState();
    expect(feed(state, [{ content: 'd1' }, { content: 'd2' }, { content: 'd3' }, { content: 'd4' }])).toEqual([]);
    const events = feed(state, [{ content: 'd5' }, { content: 'd5' }, { content: 'd5' }], T0 + 10 * STEP);
    expect(events.map(([i, f]) => [i, f.category, f.summary])).toEqual([
      [1, 'content', 'Content changed (normalised digest d1… → d5…).'],
    ]);
  });

  it('reports a CDN change as an infrastructure warning', () => {
    const state = newChangeState();
    const snap = (cdn: string | null): ObservationSnapshot => ({
      headers: {},
      infrastructure: { addresses: ['192.0.2.1'], cdn, dns_provider: null },
    });
    const events = feed(state, [snap('Cloudflare'), snap(null), snap(null)]);
    expect(events.map(([, f]) => [f.category, f.severity, f.summary])).toEqual([
      ['infrastructure', 'warning', 'CDN removed (was Cloudflare).'],
    ]);
  });
});
