import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  DAY_MS,
  generateCertificate,
  generateTestCa,
  startSilentTarget,
  startSmtpTarget,
  startTcpTarget,
  type Pem,
  type SmtpTarget,
  type TcpTarget,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

const registry = createProbeRegistry();
let ca: Pem;
let ctx: ProbeContext;
const smtp = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_smtp',
  type: 'smtp',
  target,
  interval_seconds: 60,
  config: { timeout_ms: 2000, tls_mode: 'none', ...config },
});

let plain: SmtpTarget;
let starttls: SmtpTarget;
let implicit: SmtpTarget;
let expiring: SmtpTarget;
let expired: SmtpTarget;
let selfSigned: SmtpTarget;
let refusing: SmtpTarget;
let busy: SmtpTarget;
let silent: TcpTarget;
let closing: TcpTarget;

beforeAll(async () => {
  ca = await generateTestCa();
  ctx = { now: () => Date.now(), allowPrivateTargets: true };
  const names = ['localhost', '127.0.0.1'];
  const now = Date.now();
  const [valid, soon, old, own] = await Promise.all([
    generateCertificate({ commonName: 'localhost', altNames: names, ca }),
    generateCertificate({ commonName: 'localhost', altNames: names, ca, notAfter: new Date(now + 3 * DAY_MS) }),
    generateCertificate({
      commonName: 'localhost',
      altNames: names,
      ca,
      notBefore: new Date(now - 30 * DAY_MS),
      notAfter: new Date(now - DAY_MS),
    }),
    generateCertificate({ commonName: 'localhost', altNames: names }),
  ]);
  [plain, starttls, implicit, expiring, expired, selfSigned, refusing, busy, silent, closing] = await Promise.all([
    startSmtpTarget({ banner: 'Tocsin test ESMTP' }),
    startSmtpTarget({ cert: valid }),
    startSmtpTarget({ cert: valid, implicit: true }),
    startSmtpTarget({ cert: soon }),
    startSmtpTarget({ cert: old }),
    startSmtpTarget({ cert: own }),
    startSmtpTarget({ refuseWith: 554 }),
    startSmtpTarget({ refuseWith: 421 }),
    startSilentTarget(),
    startTcpTarget(),
  ]);
});
afterAll(async () => {
  const all = [plain, starttls, implicit, expiring, expired, selfSigned, refusing, busy, silent, closing];
  await Promise.all(all.map((s) => s.close()));
});

describe('smtp probe', () => {
  it('reads the banner, says EHLO and is up on a plain server, with per-phase timings', async () => {
    const obs = await registry.run(smtp(plain.target), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null, http_status: null });
    expect(obs.details).toMatchObject({ tls_mode: 'none', remote_address: '127.0.0.1', starttls_offered: false });
    expect(obs.details!.banner).toContain('Tocsin test ESMTP');
    expect(obs.details!.extensions).toEqual(expect.arrayContaining(['PIPELINING', '8BITMIME']));
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.ttfb_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.download_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.tls_ms).toBeNull();
    expect(obs.timings.dns_ms).toBeNull();
    expect(obs.timings.total_ms).toBe(obs.duration_ms);
  });

  it('upgrades with STARTTLS, verifies the certificate against a monitor CA and reports it', async () => {
    const obs = await registry.run(
      smtp(`localhost:${starttls.port}`, { tls_mode: 'starttls', ca_certificate: ca.cert }),
      ctx,
    );
    expect(obs.error).toBeNull();
    expect(obs.status).toBe('up');
    expect(obs.timings.tls_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.dns_ms).toBeGreaterThanOrEqual(0);
    expect(obs.details).toMatchObject({
      starttls_offered: true,
      certificate: { subject: 'localhost', issuer: 'Tocsin Test CA', chain_valid: true, hostname_match: true },
    });
    expect((obs.details!.certificate as { days_to_expiry: number }).days_to_expiry).toBeGreaterThan(300);
    expect(obs.events).toBeUndefined();
  });

  it('speaks TLS from the start with tls_mode implicit (the context CA trusts it too)', async () => {
    const obs = await registry.run(smtp(implicit.target, { tls_mode: 'implicit' }), { ...ctx, tlsCa: ca.cert });
    expect(obs.error).toBeNull();
    expect(obs.details).toMatchObject({ tls_mode: 'implicit', certificate: { chain_valid: true } });
    expect(obs.timings.tls_ms).toBeGreaterThanOrEqual(0);
  });

  it('stays up and emits cert_expiring when the STARTTLS certificate expires within alert_days_before_expiry', async () => {
    const config = { tls_mode: 'starttls', ca_certificate: ca.cert, alert_days_before_expiry: 7 };
    const obs = await registry.run(smtp(expiring.target, config), ctx);
    expect(obs.status).toBe('up');
    expect(obs.events).toEqual([
      { type: 'cert_expiring', data: expect.objectContaining({ days_to_expiry: 3, subject: 'localhost' }) },
    ]);
    const quiet = await registry.run(smtp(expiring.target, { ...config, alert_days_before_expiry: 2 }), ctx);
    expect(quiet.events).toBeUndefined();
  });

  it('is down on an expired or untrusted certificate, and verify_tls:false accepts an untrusted one', async () => {
    const starttlsCa = { tls_mode: 'starttls', ca_certificate: ca.cert };
    expect((await registry.run(smtp(expired.target, starttlsCa), ctx)).error?.code).toBe('tls_expired');
    const untrusted = await registry.run(smtp(selfSigned.target, starttlsCa), ctx);
    expect(untrusted).toMatchObject({
      status: 'down',
      error: { code: 'tls_invalid' },
      details: { certificate: { chain_valid: false } },
    });
    const lenient = await registry.run(smtp(selfSigned.target, { tls_mode: 'starttls', verify_tls: false }), ctx);
    expect(lenient).toMatchObject({ status: 'up', error: null });
  });

  it('is down with starttls_unavailable when STARTTLS is required but not offered', async () => {
    const obs = await registry.run(smtp(plain.target, { tls_mode: 'starttls' }), ctx);
    expect(obs).toMatchObject({
      status: 'down',
      error: { code: 'starttls_unavailable', message: 'the server does not offer STARTTLS in its EHLO reply' },
      details: { starttls_offered: false },
    });
  });

  it('is down with smtp_reply naming the code when the greeting refuses (5xx and 4xx)', async () => {
    const refused = await registry.run(smtp(refusing.target), ctx);
    expect(refused).toMatchObject({ status: 'down', error: { code: 'smtp_reply' } });
    expect(refused.error!.message).toMatch(/^banner answered 554 /);
    const later = await registry.run(smtp(busy.target), ctx);
    expect(later.error!.message).toMatch(/^banner answered 421 /);
  });

  it('is down with a timeout naming the banner when the server never greets', async () => {
    const obs = await registry.run(smtp(silent.target, { timeout_ms: 300 }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout', message: 'no banner within 300 ms' } });
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
  });

  it('is down with protocol_error when the server closes before its banner', async () => {
    const obs = await registry.run(smtp(closing.target), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'protocol_error' } });
  });

  it('evaluates response_time, and body assertions against the banner', async () => {
    const pass = await registry.run(
      smtp(plain.target, {
        assertions: [
          { type: 'body', contains: 'ESMTP' },
          { type: 'response_time', less_than: 2000 },
        ],
      }),
      ctx,
    );
    expect(pass.status).toBe('up');
    expect(pass.assertions.map((a) => a.passed)).toEqual([true, true]);
    const fail = await registry.run(smtp(plain.target, { assertions: [{ type: 'body', matches: '^Postfix' }] }), ctx);
    expect(fail).toMatchObject({ status: 'down', error: { code: 'assertion_failed' } });
  });

  it('reports connect_refused, invalid_target and private_target', async () => {
    expect((await registry.run(smtp(`127.0.0.1:${await closedPort()}`), ctx)).error?.code).toBe('connect_refused');
    expect((await registry.run(smtp('localhost:99999'), ctx)).error?.code).toBe('invalid_target');
    const guarded = await registry.run(smtp(plain.target), { ...ctx, allowPrivateTargets: false });
    expect(guarded.error?.code).toBe('private_target');
  });
});
