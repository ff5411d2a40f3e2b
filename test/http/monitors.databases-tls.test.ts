import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { skipWithout } from '../support/services.ts';
import {
  generateCertificate,
  generateTestCa,
  startMariadbServer,
  startPostgresServer,
  type MariadbServerTarget,
  type Pem,
  type PostgresServerTarget,
} from '../support/targets/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

/**
 * postgres and mysql monitors with TLS and a password through the real app (SQLite store), checked by the local runner
 * against servers of the file's own (a PostgreSQL cluster and a MariaDB with TLS and password logins): `verify` with
 * the monitor's CA is up over TLS, a wrong password is auth_failed, and the password is in no response and no log line.
 */
const needs = skipWithout('postgres-server') || skipWithout('mariadb-server');

describe.skipIf(needs)('database monitors with TLS and passwords through the API', () => {
  let pgServer: PostgresServerTarget;
  let myServer: MariadbServerTarget;
  let ca: Pem;
  let t: TestApp;
  let org: TestOrg;
  const clock = new ManualClock(Date.now());
  /** Every response body the test saw: none may hold a password. */
  const seen: string[] = [];

  beforeAll(async () => {
    ca = await generateTestCa();
    const tls = await generateCertificate({ commonName: 'localhost', altNames: ['localhost', '127.0.0.1'], ca });
    [pgServer, myServer] = await Promise.all([startPostgresServer({ tls }), startMariadbServer({ tls, ca })]);
    t = await createTestApp({ clock });
    org = await t.createOrg();
  });
  afterAll(async () => {
    await t?.close();
    await pgServer?.close();
    await myServer?.close();
  });

  async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await t.tocsin.app.inject({
      method,
      url,
      headers: bearer(org.apiKey),
      ...(body !== undefined && { payload: body as Json }),
    });
    seen.push(res.body);
    return { status: res.statusCode, body: res.json() as Json, text: res.body };
  }

  async function create(body: Json): Promise<Json> {
    const res = await call('POST', '/api/v1/monitors', { interval_seconds: 30, ...body });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  it('verify with the monitor CA is up over TLS, a wrong password is auth_failed, no password is ever shown', async () => {
    const postgres = await create({
      type: 'postgres',
      target: pgServer.target,
      config: {
        tls_mode: 'verify',
        ca_certificate: ca.cert,
        username: pgServer.user,
        password: pgServer.password,
        database: 'postgres',
        query: 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
        expected_value: 't',
      },
    });
    const mysqlMonitor = await create({
      type: 'mysql',
      target: myServer.target,
      config: {
        tls_mode: 'verify',
        ca_certificate: ca.cert,
        username: myServer.tlsUser,
        password: myServer.password,
        query: "SELECT VARIABLE_VALUE <> '' FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'SSL_CIPHER'",
        expected_value: '1',
      },
    });
    const pgWrong = await create({
      type: 'postgres',
      target: pgServer.target,
      config: { tls_mode: 'require', username: pgServer.user, password: `${pgServer.password}-wrong` },
    });
    const myWrong = await create({
      type: 'mysql',
      target: myServer.target,
      config: { tls_mode: 'require', username: myServer.user, password: `${myServer.password}-wrong` },
    });
    for (const m of [postgres, mysqlMonitor, pgWrong, myWrong]) {
      expect(m.password_set).toBe(true);
      expect(m.config).not.toHaveProperty('password');
      expect((await call('GET', `/api/v1/monitors/${m.id}`)).body).toMatchObject({ password_set: true });
    }
    expect(postgres.config).toMatchObject({ tls_mode: 'verify', ca_certificate: ca.cert, username: pgServer.user });
    await call('GET', '/api/v1/monitors?limit=100');

    clock.advance(31_000);
    await t.tocsin.services.checks.localRunner.runOnce();
    const last = async (id: string): Promise<Json> => {
      const res = await call('GET', `/api/v1/monitors/${id}/executions?limit=1`);
      expect(res.status, res.text).toBe(200);
      return res.body.data[0] as Json;
    };
    for (const m of [postgres, mysqlMonitor]) {
      const e = await last(m.id as string);
      expect(e, JSON.stringify(e)).toMatchObject({ status: 'up', error: null });
      expect(e.timings.tls_ms).toBeGreaterThan(0);
    }
    const pgRefused = await last(pgWrong.id as string);
    expect(pgRefused, JSON.stringify(pgRefused)).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
    expect(pgRefused.error.message).toMatch(/password authentication failed/);
    const myRefused = await last(myWrong.id as string);
    expect(myRefused, JSON.stringify(myRefused)).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
    expect(myRefused.error.message).toMatch(/access denied/i);
    await call('GET', `/api/v1/monitors/${pgWrong.id}`);

    expect(seen.length).toBeGreaterThan(10);
    expect(t.logs.lines.length).toBeGreaterThan(0);
    for (const password of [pgServer.password, myServer.password]) {
      for (const body of seen) expect(body).not.toContain(password);
      expect(t.logs.text).not.toContain(password);
    }
  });
});
