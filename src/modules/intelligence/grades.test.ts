import { describe, expect, it } from 'vitest';
import { gradeDomain, headerScore } from './domain.grade.ts';
import { newGradeTrack, observeGrade } from './grade.tracker.ts';
import { gradeTls, type TlsFacts } from './tls.grade.ts';

const modern = (): TlsFacts => ({
  protocols: { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': true },
  suites: [
    { name: 'TLS_AES_256_GCM_SHA384', bits: 256, aead: true, forwardSecrecy: true },
    { name: 'TLS_AES_128_GCM_SHA256', bits: 128, aead: true, forwardSecrecy: true },
  ],
  ephemeral: { type: 'ECDH', bits: 253 },
  certificate: {
    keyType: 'RSA',
    keyBits: 2048,
    signatureAlgorithm: 'sha256WithRSAEncryption',
    trusted: true,
    hostnameMatch: true,
    expired: false,
    notYetValid: false,
    selfSigned: false,
  },
  hstsMaxAge: 31_536_000,
});

describe('TLS grade', () => {
  it('scores the reference’s worked example at 93 and awards A+ with long HSTS', () => {
    const r = gradeTls(modern());
    expect(r.score).toBe(93);
    expect(r.grade).toBe('A+');
    expect(r.not_tested).toContain('TLS_FALLBACK_SCSV');
  });

  it('gives A without HSTS and caps at B when TLS 1.0 is offered', () => {
    expect(gradeTls({ ...modern(), hstsMaxAge: null })).toMatchObject({
      grade: 'A',
      reasons: ['no Strict-Transport-Security header'],
    });
    const legacy = gradeTls({ ...modern(), protocols: { ...modern().protocols, TLSv1: true } });
    expect(legacy.grade).toBe('B');
    expect(legacy.reasons).toContain('TLS 1.0 or TLS 1.1 is offered');
  });

  it('grades certificate problems out of scale: M for a name mismatch, T for untrusted, expired or SHA-1', () => {
    const f = modern();
    expect(gradeTls({ ...f, certificate: { ...f.certificate, hostnameMatch: false } }).grade).toBe('M');
    expect(gradeTls({ ...f, certificate: { ...f.certificate, selfSigned: true, trusted: false } })).toMatchObject({
      grade: 'T',
      reasons: ['certificate is self-signed'],
    });
    expect(gradeTls({ ...f, certificate: { ...f.certificate, expired: true } }).grade).toBe('T');
    expect(
      gradeTls({ ...f, certificate: { ...f.certificate, signatureAlgorithm: 'sha1WithRSAEncryption' } }).grade,
    ).toBe('T');
  });

  it('caps weak keys, missing forward secrecy and missing AEAD', () => {
    const f = modern();
    expect(gradeTls({ ...f, certificate: { ...f.certificate, keyBits: 1024 } }).grade).toBe('B');
    expect(gradeTls({ ...f, certificate: { ...f.certificate, keyBits: 512 } }).grade).toBe('F');
    const cbc = [{ name: 'AES128-SHA', bits: 128, aead: false, forwardSecrecy: false }];
    const r = gradeTls({ ...f, suites: cbc, ephemeral: null });
    expect(r.grade).toBe('B');
    expect(r.reasons).toEqual(expect.arrayContaining(['no forward secrecy', 'no AEAD cipher suite']));
    expect(
      gradeTls({ ...f, protocols: { TLSv1: true, 'TLSv1.1': true, 'TLSv1.2': false, 'TLSv1.3': false } }).grade,
    ).toBe('C');
  });

  it('gives A- when CBC suites are accepted next to AEAD ones', () => {
    const f = modern();
    const r = gradeTls({
      ...f,
      suites: [...f.suites, { name: 'ECDHE-RSA-AES128-SHA', bits: 128, aead: false, forwardSecrecy: true }],
    });
    expect(r.grade).toBe('A-');
  });
});

describe('domain grade', () => {
  it('scores a well-configured domain A+ and lists what was not measured', () => {
    const r = gradeDomain({
      spf: 'v=spf1 include:_spf.example.net -all',
      dmarc: 'v=DMARC1; p=reject; rua=mailto:d@example.com',
      caa: ['0 issue "letsencrypt.org"'],
      dnssec: 'secure',
      mtaSts: { record: true, mode: 'enforce' },
      tlsRpt: true,
      httpsRedirect: true,
      headers: {
        'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
        'content-security-policy': "default-src 'self'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      },
      tlsGrade: 'A+',
    });
    expect(r.grade).toBe('A+');
    expect(r.score).toBe(100);
    expect(r.not_tested).toContain('HSTS preload list membership');
  });

  it('drops for p=none DMARC, ~all SPF, no CAA and missing headers, with reasons', () => {
    const r = gradeDomain({
      spf: 'v=spf1 ~all',
      dmarc: 'v=DMARC1; p=none',
      caa: [],
      headers: {},
      tlsGrade: 'B',
    });
    // DNS 0/10; mail (18+12)/40 = 75 %; web: 0 HSTS + 0 preload + 3 observatory = 3/25 = 12 %; TLS 6/10.
    expect(r.score).toBeCloseTo((0 + 75 + 12 + 60) / 4, 1);
    expect(r.grade).toBe('D');
    expect(r.reasons).toEqual(
      expect.arrayContaining([
        'SPF ends in ~all (soft fail)',
        'DMARC policy none',
        'no CAA issue record',
        'TLS grade B',
      ]),
    );
    expect(r.not_tested).toEqual(expect.arrayContaining(['DNSSEC', 'MTA-STS', 'TLS-RPT']));
  });

  it('penalises headers like the Observatory', () => {
    expect(headerScore({})[0]).toBe(30);
  });
});

describe('grade tracking', () => {
  it('sets the level first, raises a drop once, and recovers when the old grade is back', () => {
    const t = newGradeTrack();
    const at = Date.parse('2026-11-02T00:00:00Z');
    expect(observeGrade(t, 'tls', at, 'A+', [])).toEqual([]);
    const drop = observeGrade(t, 'tls', at + 1, 'B', ['TLS 1.0 or TLS 1.1 is offered']);
    expect(drop).toMatchObject([
      {
        kind: 'security_grade_downgraded',
        category: 'security',
        severity: 'warning',
        summary: 'TLS grade dropped from A+ to B: TLS 1.0 or TLS 1.1 is offered.',
        opens: 'grade:tls',
      },
    ]);
    const worse = observeGrade(t, 'tls', at + 2, 'T', ['certificate expired']);
    expect(worse).toMatchObject([{ kind: 'security_grade_downgraded', severity: 'critical' }]);
    expect(worse[0]!.opens).toBeUndefined();
    expect(observeGrade(t, 'tls', at + 3, 'A', [])).toEqual([]); // better, but not back to A+
    expect(observeGrade(t, 'tls', at + 4, 'A+', [])).toMatchObject([
      {
        kind: 'security_grade_recovered',
        closes: 'grade:tls',
        summary: 'TLS grade recovered from A to A+ (it was A+ before the drop).',
      },
    ]);
  });
});
