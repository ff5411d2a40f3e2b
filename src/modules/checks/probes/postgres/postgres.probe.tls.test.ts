import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../../test/support/services.ts';
import {
  generateCertificate,
  generateTestCa,
  startPostgresServer,
  type Pem,
  type PostgresServerTarget,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

// A PostgreSQL cluster of this file's own (the machine's server has neither TLS nor password logins): ssl=on with a
// certificate for 127.0.0.1 signed by a test CA, scram-sha-256 logins over TCP. The TLS modes and a refused password
// are checked against it, and the session's own view (pg_stat_ssl) says whether it is encrypted.
const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
/** The first value is pg_stat_ssl.ssl of the probe's own session: `t` only over TLS. */
const SESSION_IS_TLS = 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()';

let server: PostgresServerTarget;
let ca: Pem;
let otherCa: Pem;

const postgres = (config: Record<string, unknown>): ProbeTarget => ({
  id: 'mon_pg_tls',
  type: 'postgres',
  target: server.target,
  interval_seconds: 60,
  config: {
    timeout_ms: 10_000,
    username: server.user,
    password: server.password,
    database: 'postgres',
    query: SESSION_IS_TLS,
    ...config,
  },
});

describe.skipIf(skipWithout('postgres-server'))('postgres probe: TLS and passwords (a cluster of its own)', () => {
  beforeAll(async () => {
    ca = await generateTestCa();
    otherCa = await generateTestCa('Another CA');
    const tls = await generateCertificate({ commonName: 'localhost', altNames: ['localhost', '127.0.0.1'], ca });
    server = await startPostgresServer({ tls });
    // Measured for docs/BENCHMARKS-style notes: how long the test's own cluster takes on this machine.
    console.info(
      `postgres test cluster: initdb ${server.startedIn.initdb_ms} ms, start ${server.startedIn.start_ms} ms`,
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tls_mode require: up over TLS (the session says so), with tls_ms timed', async () => {
    const obs = await registry.run(postgres({ tls_mode: 'require', expected_value: 't' }), ctx);
    expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'up', error: null });
    expect(obs.timings.tls_ms).toBeGreaterThan(0);
    expect(obs.details!.auth_ms).toBeGreaterThanOrEqual(0);
  });

  it('tls_mode disable: the same login is not encrypted (the query tells the two apart)', async () => {
    const plain = await registry.run(postgres({ tls_mode: 'disable', expected_value: 'f' }), ctx);
    expect(plain, JSON.stringify(plain)).toMatchObject({ status: 'up', error: null });
    expect(plain.timings.tls_ms).toBeNull();
    const claimed = await registry.run(postgres({ tls_mode: 'disable', expected_value: 't' }), ctx);
    expect(claimed).toMatchObject({ status: 'down', error: { code: 'unexpected_value' } });
  });

  it('tls_mode verify with the monitor CA: up over TLS (chain and the name 127.0.0.1 checked)', async () => {
    const obs = await registry.run(postgres({ tls_mode: 'verify', ca_certificate: ca.cert, expected_value: 't' }), ctx);
    expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'up', error: null });
    expect(obs.timings.tls_ms).toBeGreaterThan(0);
  });

  it('tls_mode verify without the CA, or with another CA: down with tls_invalid, before any login', async () => {
    for (const caCertificate of [undefined, otherCa.cert]) {
      const obs = await registry.run(postgres({ tls_mode: 'verify', ca_certificate: caCertificate }), ctx);
      expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'down', error: { code: 'tls_invalid' } });
      expect(obs.error!.message).toMatch(/certificate/i);
      expect(obs.details!.auth_ms).toBeNull();
    }
  });

  it('a wrong password: down with auth_failed naming authentication, the password never shown', async () => {
    for (const tls_mode of ['require', 'disable']) {
      const wrong = `${server.password}-wrong`;
      const obs = await registry.run(postgres({ tls_mode, password: wrong }), ctx);
      expect(obs, JSON.stringify(obs)).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
      expect(obs.error!.message).toMatch(/authentication/i);
      expect(JSON.stringify(obs)).not.toContain(server.password);
    }
  });

  it('no password where the server asks for one: down with auth_failed saying so', async () => {
    const obs = await registry.run(postgres({ tls_mode: 'require', password: undefined }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
    expect(obs.error!.message).toContain('password');
  });

  // Last: the server's certificate is replaced for the rest of the file.
  it('tls_mode verify against a certificate for another name: down with tls_hostname_mismatch', async () => {
    await server.replaceCertificate(await generateCertificate({ commonName: 'db.example.test', ca }));
    const verify = postgres({ tls_mode: 'verify', ca_certificate: ca.cert });
    // The reload is a signal to the server: new connections get the new certificate shortly after it.
    await expect.poll(async () => (await registry.run(verify, ctx)).error?.code).toBe('tls_hostname_mismatch');
    const obs = await registry.run(verify, ctx);
    expect(obs.error!.message).toContain('127.0.0.1');
    expect(obs.details!.auth_ms).toBeNull();
    // require does not look at the name: still up over TLS
    const required = await registry.run(postgres({ tls_mode: 'require', expected_value: 't' }), ctx);
    expect(required, JSON.stringify(required)).toMatchObject({ status: 'up', error: null });
  });
});
