import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  DAY_MS,
  generateCertificate,
  generateTestCa,
  startHttpsTarget,
  type Pem,
  type RunningTarget,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

const registry = createProbeRegistry();
let ca: Pem;
let ctx: ProbeContext;
const servers: Record<string, RunningTarget> = {};

function tls(target: string, config: Record<string, unknown> = {}): ProbeTarget {
  return {
    id: 'mon_tls',
    type: 'tls',
    target,
    interval_seconds: 300,
    config: { alert_days_before_expiry: 14, timeout_ms: 2000, ...config },
  };
}
function http(target: string, config: Record<string, unknown> = {}): ProbeTarget {
  return {
    id: 'mon_http',
    type: 'http',
    target,
    interval_seconds: 60,
    config: { timeout_ms: 2000, assertions: [], ...config },
  };
}

beforeAll(async () => {
  ca = await generateTestCa();
  ctx = { now: () => Date.now(), allowPrivateTargets: true, tlsCa: ca.cert };
  const names = ['localhost', '127.0.0.1'];
  const now = Date.now();
  const [valid, expired, wrongHost, expiring, selfSigned] = await Promise.all([
    generateCertificate({ commonName: 'localhost', altNames: names, ca }),
    generateCertificate({
      commonName: 'localhost',
      altNames: names,
      ca,
      notBefore: new Date(now - 30 * DAY_MS),
      notAfter: new Date(now - DAY_MS),
    }),
    generateCertificate({ commonName: 'other.example', altNames: ['other.example'], ca }),
    generateCertificate({
      commonName: 'localhost',
      altNames: names,
      ca,
      // 4.99 days left: "5 days" (rounded up like a countdown), not 4.
      notAfter: new Date(now + 5 * DAY_MS - 600_000),
    }),
    generateCertificate({ commonName: 'localhost', altNames: names }),
  ]);
  const entries = Object.entries({ valid, expired, wrongHost, expiring, selfSigned });
  await Promise.all(entries.map(async ([k, cert]) => (servers[k] = await startHttpsTarget({ cert }))));
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
});

describe('tls probe', () => {
  it('is up for a valid certificate and describes it', async () => {
    const obs = await registry.run(tls(`localhost:${servers.valid.port}`), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null, http_status: null });
    expect(obs.events).toBeUndefined();
    expect(obs.details).toMatchObject({
      subject: 'localhost',
      issuer: 'Tocsin Test CA',
      hostname_match: true,
      chain_valid: true,
      san: ['localhost', '127.0.0.1'],
    });
    expect(obs.details!.days_to_expiry).toBeGreaterThan(300);
    expect(obs.details!.fingerprint_sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.tls_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.dns_ms).toBeGreaterThanOrEqual(0);
  });

  it('accepts https:// URLs and IP targets (IP SAN)', async () => {
    const obs = await registry.run(tls(`${servers.valid.url}/some/path`), ctx);
    expect(obs).toMatchObject({ status: 'up', details: { hostname_match: true } });
  });

  it('is down with tls_expired for an expired certificate', async () => {
    const obs = await registry.run(tls(`localhost:${servers.expired.port}`), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'tls_expired' } });
    expect(obs.details!.days_to_expiry).toBeLessThan(0);
  });

  it('is down with tls_hostname_mismatch for another host', async () => {
    const obs = await registry.run(tls(`localhost:${servers.wrongHost.port}`), ctx);
    expect(obs).toMatchObject({
      status: 'down',
      error: { code: 'tls_hostname_mismatch' },
      details: { hostname_match: false, chain_valid: true },
    });
  });

  it('is down with tls_invalid for an untrusted chain', async () => {
    const obs = await registry.run(tls(`localhost:${servers.selfSigned.port}`), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'tls_invalid' }, details: { chain_valid: false } });
    const withoutCa = await registry.run(tls(`localhost:${servers.valid.port}`), { ...ctx, tlsCa: undefined });
    expect(withoutCa.error?.code).toBe('tls_invalid');
  });

  it('stays up and emits cert_expiring within alert_days_before_expiry', async () => {
    const obs = await registry.run(tls(`localhost:${servers.expiring.port}`), ctx);
    expect(obs.status).toBe('up');
    expect(obs.events).toEqual([
      { type: 'cert_expiring', data: { days_to_expiry: 5, valid_to: obs.details!.valid_to, subject: 'localhost' } },
    ]);
    const quiet = await registry.run(tls(`localhost:${servers.expiring.port}`, { alert_days_before_expiry: 3 }), ctx);
    expect(quiet.events).toBeUndefined();
  });

  it('uses ctx.now for expiry', async () => {
    const later = { ...ctx, now: () => Date.now() + 400 * DAY_MS };
    const obs = await registry.run(tls(`localhost:${servers.valid.port}`), later);
    expect(obs.error?.code).toBe('tls_expired');
  });

  it('reports connect_refused, invalid_target and private_target', async () => {
    const port = await closedPort();
    expect((await registry.run(tls(`127.0.0.1:${port}`), ctx)).error?.code).toBe('connect_refused');
    expect((await registry.run(tls('localhost:99999'), ctx)).error?.code).toBe('invalid_target');
    expect(
      (await registry.run(tls(`localhost:${servers.valid.port}`), { ...ctx, allowPrivateTargets: false })).error?.code,
    ).toBe('private_target');
  });
});

describe('http probe over https', () => {
  it('is up with a trusted certificate and measures tls', async () => {
    const obs = await registry.run(http(`https://localhost:${servers.valid.port}/`), ctx);
    expect(obs).toMatchObject({ status: 'up', http_status: 200 });
    expect(obs.timings.tls_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
  });

  it('maps certificate failures to tls_* codes', async () => {
    expect((await registry.run(http(`https://localhost:${servers.expired.port}/`), ctx)).error?.code).toBe(
      'tls_expired',
    );
    expect((await registry.run(http(`https://localhost:${servers.wrongHost.port}/`), ctx)).error?.code).toBe(
      'tls_hostname_mismatch',
    );
    expect((await registry.run(http(`https://localhost:${servers.selfSigned.port}/`), ctx)).error?.code).toBe(
      'tls_invalid',
    );
    expect((await registry.run(http(`https://127.0.0.1:${servers.valid.port}/`), ctx)).status).toBe('up');
  });

  it('skips verification with verify_tls:false', async () => {
    const obs = await registry.run(http(`https://localhost:${servers.selfSigned.port}/`, { verify_tls: false }), {
      ...ctx,
      tlsCa: undefined,
    });
    expect(obs).toMatchObject({ status: 'up', http_status: 200 });
  });
});
