import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAY_MS,
  generateCertificate,
  generateTestCa,
  startHttpsTarget,
  type Pem,
  type RunningTarget,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry, type ProbeContext, type ProbeTarget } from '../index.ts';

/** Endpoints whose certificates no public CA issued: config.ca_certificate and verify_tls: false, http and tls. */
const registry = createProbeRegistry();
// No process-wide extra CA: only what the monitor's config says is trusted besides the system roots.
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
let privateCa: Pem;
let otherCa: Pem;
let selfSignedCert: Pem;
const servers: Record<string, RunningTarget> = {};

function tls(port: number, config: Record<string, unknown> = {}): ProbeTarget {
  return { id: 'mon_tls', type: 'tls', target: `localhost:${port}`, interval_seconds: 300, config: { ...config } };
}
function http(port: number, config: Record<string, unknown> = {}): ProbeTarget {
  const target = `https://localhost:${port}/`;
  return { id: 'mon_http', type: 'http', target, interval_seconds: 60, config: { timeout_ms: 2000, ...config } };
}

beforeAll(async () => {
  [privateCa, otherCa] = await Promise.all([generateTestCa('Private Test CA'), generateTestCa('Other Test CA')]);
  const names = ['localhost', '127.0.0.1'];
  const [issued, selfSigned, wrongHost, expiredSelfSigned, issuedByOther] = await Promise.all([
    generateCertificate({ commonName: 'localhost', altNames: names, ca: privateCa }),
    generateCertificate({ commonName: 'localhost', altNames: names }),
    generateCertificate({ commonName: 'other.example', ca: privateCa }),
    generateCertificate({
      commonName: 'localhost',
      altNames: names,
      notBefore: new Date(Date.now() - 30 * DAY_MS),
      notAfter: new Date(Date.now() - DAY_MS),
    }),
    generateCertificate({ commonName: 'localhost', altNames: names, ca: otherCa }),
  ]);
  selfSignedCert = selfSigned;
  const certs = { issued, selfSigned, wrongHost, expiredSelfSigned, issuedByOther };
  await Promise.all(Object.entries(certs).map(async ([k, cert]) => (servers[k] = await startHttpsTarget({ cert }))));
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
});

describe('http monitor of a private-CA or self-signed endpoint', () => {
  it('is down without a CA certificate or verify_tls: false', async () => {
    expect(await registry.run(http(servers.issued!.port), ctx)).toMatchObject({
      status: 'down',
      error: { code: 'tls_invalid' },
    });
    expect((await registry.run(http(servers.selfSigned!.port), ctx)).error?.code).toBe('tls_invalid');
  });

  it('is up with the private CA as config.ca_certificate', async () => {
    const obs = await registry.run(http(servers.issued!.port, { ca_certificate: privateCa.cert }), ctx);
    expect(obs).toMatchObject({ status: 'up', http_status: 200, error: null });
  });

  it('is up with a self-signed certificate itself as config.ca_certificate', async () => {
    const obs = await registry.run(http(servers.selfSigned!.port, { ca_certificate: selfSignedCert.cert }), ctx);
    expect(obs).toMatchObject({ status: 'up', http_status: 200 });
  });

  it('still checks the host name and trusts nothing else with a CA certificate', async () => {
    const cfg = { ca_certificate: privateCa.cert };
    expect((await registry.run(http(servers.wrongHost!.port, cfg), ctx)).error?.code).toBe('tls_hostname_mismatch');
    expect((await registry.run(http(servers.issuedByOther!.port, cfg), ctx)).error?.code).toBe('tls_invalid');
  });

  it('trusts the CA certificate in addition to the process-wide CAs, not instead of them', async () => {
    const withProcessCa: ProbeContext = { ...ctx, tlsCa: otherCa.cert };
    const cfg = { ca_certificate: privateCa.cert };
    expect((await registry.run(http(servers.issued!.port, cfg), withProcessCa)).status).toBe('up');
    expect((await registry.run(http(servers.issuedByOther!.port, cfg), withProcessCa)).status).toBe('up');
  });

  it('is up with verify_tls: false', async () => {
    const obs = await registry.run(http(servers.issued!.port, { verify_tls: false }), ctx);
    expect(obs).toMatchObject({ status: 'up', http_status: 200 });
    expect((await registry.run(http(servers.selfSigned!.port, { verify_tls: false }), ctx)).status).toBe('up');
  });
});

describe('tls monitor of a private-CA or self-signed endpoint', () => {
  it('is down with tls_invalid without a CA certificate or verify_tls: false', async () => {
    const obs = await registry.run(tls(servers.issued!.port), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'tls_invalid' }, details: { chain_valid: false } });
  });

  it('is up with the private CA as config.ca_certificate, the chain valid', async () => {
    const obs = await registry.run(tls(servers.issued!.port, { ca_certificate: privateCa.cert }), ctx);
    expect(obs).toMatchObject({
      status: 'up',
      error: null,
      details: { chain_valid: true, hostname_match: true, issuer: 'Private Test CA', authorization_error: null },
    });
    const pinned = await registry.run(tls(servers.selfSigned!.port, { ca_certificate: selfSignedCert.cert }), ctx);
    expect(pinned).toMatchObject({ status: 'up', details: { chain_valid: true } });
  });

  it('is up with verify_tls: false and reports the untrusted chain and the expiry', async () => {
    const obs = await registry.run(tls(servers.selfSigned!.port, { verify_tls: false }), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null, details: { chain_valid: false, hostname_match: true } });
    expect(obs.details!.authorization_error).toEqual(expect.any(String));
    expect(obs.details!.days_to_expiry).toBeGreaterThan(300);
  });

  it('with verify_tls: false a host name mismatch is reported, not a failure', async () => {
    const obs = await registry.run(tls(servers.wrongHost!.port, { verify_tls: false }), ctx);
    expect(obs).toMatchObject({ status: 'up', details: { hostname_match: false } });
    const verified = await registry.run(tls(servers.wrongHost!.port, { ca_certificate: privateCa.cert }), ctx);
    expect(verified.error?.code).toBe('tls_hostname_mismatch');
  });

  it('with verify_tls: false an expired certificate is still down, and expiry warnings still come', async () => {
    const expired = await registry.run(tls(servers.expiredSelfSigned!.port, { verify_tls: false }), ctx);
    expect(expired).toMatchObject({ status: 'down', error: { code: 'tls_expired' } });
    const soon = { ...ctx, now: () => Date.now() + 360 * DAY_MS };
    const expiring = await registry.run(tls(servers.selfSigned!.port, { verify_tls: false }), soon);
    expect(expiring.status).toBe('up');
    expect(expiring.events?.[0]?.type).toBe('cert_expiring');
  });
});
