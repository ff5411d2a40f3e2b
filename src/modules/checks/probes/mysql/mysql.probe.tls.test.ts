import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../../test/support/services.ts';
import {
  generateCertificate,
  generateTestCa,
  startMariadbServer,
  type MariadbServerTarget,
  type Pem,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

// A MariaDB of this file's own (the machine's server has no TLS): ssl-cert/ssl-key/ssl-ca with a certificate for
// 127.0.0.1 signed by a test CA, a user with a password and one that must use TLS (REQUIRE SSL). The TLS modes and a
// refused password are checked against it, and the session's own status (Ssl_cipher) says whether it is encrypted.
const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
/** 1 when the probe's own session has a TLS cipher (SHOW STATUS LIKE 'Ssl_cipher' not empty), else 0. */
const SESSION_IS_TLS =
  "SELECT VARIABLE_VALUE <> '' FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'SSL_CIPHER'";

let server: MariadbServerTarget;
let ca: Pem;
let otherCa: Pem;

const probe = (config: Record<string, unknown>): ProbeTarget => ({
  id: 'mon_my_tls',
  type: 'mysql',
  target: server.target,
  interval_seconds: 60,
  config: { timeout_ms: 10_000, username: server.user, password: server.password, query: SESSION_IS_TLS, ...config },
});

describe.skipIf(skipWithout('mariadb-server'))('mysql probe: TLS and passwords (a MariaDB of its own)', () => {
  beforeAll(async () => {
    ca = await generateTestCa();
    otherCa = await generateTestCa('Another CA');
    const tls = await generateCertificate({ commonName: 'localhost', altNames: ['localhost', '127.0.0.1'], ca });
    server = await startMariadbServer({ tls, ca });
    console.info(
      `mariadb test server: install ${server.startedIn.install_ms} ms, start ${server.startedIn.start_ms} ms`,
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tls_mode require: up over TLS (the session has a cipher), with tls_ms timed', async () => {
    const obs = await registry.run(probe({ tls_mode: 'require', expected_value: '1' }), ctx);
    expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'up', error: null });
    expect(obs.timings.tls_ms).toBeGreaterThan(0);
    expect(obs.details!.auth_ms).toBeGreaterThanOrEqual(0);
  });

  it('tls_mode disable: the same login is not encrypted (the query tells the two apart)', async () => {
    const plain = await registry.run(probe({ tls_mode: 'disable', expected_value: '0' }), ctx);
    expect(plain, JSON.stringify(plain)).toMatchObject({ status: 'up', error: null });
    expect(plain.timings.tls_ms).toBeNull();
    const claimed = await registry.run(probe({ tls_mode: 'disable', expected_value: '1' }), ctx);
    expect(claimed).toMatchObject({ status: 'down', error: { code: 'unexpected_value' } });
  });

  it('a user that must use TLS (REQUIRE SSL): up with require, refused (auth_failed) without TLS', async () => {
    const tlsOnly = { username: server.tlsUser };
    const secure = await registry.run(probe({ ...tlsOnly, tls_mode: 'require', expected_value: '1' }), ctx);
    expect(secure, JSON.stringify(secure)).toMatchObject({ status: 'up', error: null });
    const plain = await registry.run(probe({ ...tlsOnly, tls_mode: 'disable' }), ctx);
    expect(plain, JSON.stringify(plain)).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
  });

  it('tls_mode verify with the monitor CA: up over TLS (chain and the name 127.0.0.1 checked)', async () => {
    const obs = await registry.run(probe({ tls_mode: 'verify', ca_certificate: ca.cert, expected_value: '1' }), ctx);
    expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'up', error: null });
    expect(obs.timings.tls_ms).toBeGreaterThan(0);
  });

  it('tls_mode verify without the CA, or with another CA: down with tls_invalid, before any login', async () => {
    for (const caCertificate of [undefined, otherCa.cert]) {
      const obs = await registry.run(probe({ tls_mode: 'verify', ca_certificate: caCertificate }), ctx);
      expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'down', error: { code: 'tls_invalid' } });
      expect(obs.error!.message).toMatch(/certificate/i);
      expect(obs.details!.query_ms).toBeNull();
    }
  });

  it('a wrong password: down with auth_failed naming the refused login, the password never shown', async () => {
    for (const tls_mode of ['require', 'disable']) {
      const obs = await registry.run(probe({ tls_mode, password: `${server.password}-wrong` }), ctx);
      expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
      expect(obs.error!.message).toMatch(/access denied.*using password: YES/i);
      expect(JSON.stringify(obs)).not.toContain(server.password);
    }
  });

  // Last: the server's certificate is replaced for the rest of the file.
  it('tls_mode verify against a certificate for another name: down with tls_hostname_mismatch', async () => {
    await server.replaceCertificate(await generateCertificate({ commonName: 'db.example.test', ca }));
    const obs = await registry.run(probe({ tls_mode: 'verify', ca_certificate: ca.cert }), ctx);
    expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'down', error: { code: 'tls_hostname_mismatch' } });
    expect(obs.error!.message).toMatch(/does not match certificate's altnames/);
    expect(obs.details!.query_ms).toBeNull();
    const required = await registry.run(probe({ tls_mode: 'require', expected_value: '1' }), ctx);
    expect(required, JSON.stringify(required)).toMatchObject({ status: 'up', error: null });
  });
});
