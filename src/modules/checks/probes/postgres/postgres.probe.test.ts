import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout, testServices } from '../../../../../test/support/services.ts';
import { closedPort, startSilentTarget, type TcpTarget } from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

// PostgreSQL of the test run (TOCSIN_TEST_POSTGRES_URL; trust authentication on 127.0.0.1 on the CI machine, so a
// wrong password is not refused there: refusals are tested with a role that may not log in and a missing database).
const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const suffix = randomBytes(4).toString('hex');
const role = `tocsin_probe_${suffix}`;
const noLogin = `tocsin_nologin_${suffix}`;
let server = '127.0.0.1:5432';

const postgres = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_pg',
  type: 'postgres',
  target,
  interval_seconds: 60,
  config: { timeout_ms: 5000, ...config },
});

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testServices.postgresUrl! });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(skipWithout('postgres'))('postgres probe (real PostgreSQL)', () => {
  beforeAll(async () => {
    const url = new URL(testServices.postgresUrl!);
    server = `${url.hostname}:${url.port || 5432}`;
    await admin(`CREATE ROLE ${role} LOGIN PASSWORD 'right-Pa55'`);
    await admin(`CREATE ROLE ${noLogin} NOLOGIN`);
  });
  afterAll(async () => {
    await admin(`DROP ROLE IF EXISTS ${role}`);
    await admin(`DROP ROLE IF EXISTS ${noLogin}`);
  });

  it('is up after a login and a query whose first value is the expected one, with every phase timed', async () => {
    const obs = await registry.run(
      postgres(server, {
        username: role,
        password: 'right-Pa55',
        database: 'postgres',
        query: 'SELECT 40 + 2, 7',
        expected_value: '42',
      }),
      ctx,
    );
    expect(obs).toMatchObject({ status: 'up', error: null, details: { remote_address: '127.0.0.1' } });
    expect(obs.details!.server_version).toMatch(/^\d+/);
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.tls_ms).toBeNull();
    expect(obs.details!.auth_ms).toBeGreaterThanOrEqual(0);
    expect(obs.details!.query_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.total_ms).toBe(obs.duration_ms);
  });

  it('compares the value as the server prints it (booleans are t/f, NULL is no value)', async () => {
    const yes = await registry.run(postgres(server, { query: 'SELECT true', expected_value: 't' }), ctx);
    expect(yes).toMatchObject({ status: 'up', error: null });
    const none = await registry.run(postgres(server, { query: 'SELECT NULL', expected_value: 'x' }), ctx);
    expect(none).toMatchObject({
      status: 'down',
      error: { code: 'unexpected_value', message: 'expected "x", got no value' },
    });
  });

  it('is down with unexpected_value naming both values', async () => {
    const obs = await registry.run(postgres(server, { query: "SELECT 'blue'", expected_value: 'green' }), ctx);
    expect(obs).toMatchObject({
      status: 'down',
      error: { code: 'unexpected_value', message: 'expected "green", got "blue"' },
    });
    expect(obs.details!.query_ms).toBeGreaterThanOrEqual(0);
  });

  it('is up without a query once logged in (connect and authenticate only)', async () => {
    const obs = await registry.run(postgres(server), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null, details: { query_ms: null } });
  });

  it('is down with query_error when the query fails on the server', async () => {
    const obs = await registry.run(postgres(server, { query: 'SELECT * FROM no_such_table_here' }), ctx);
    expect(obs.status).toBe('down');
    expect(obs.error!.code).toBe('query_error');
    expect(obs.error!.message).toContain('no_such_table_here');
  });

  it('runs the query read-only: a write is a query_error', async () => {
    const obs = await registry.run(
      postgres(server, { query: 'CREATE TABLE tocsin_probe_should_not_exist (x int)' }),
      ctx,
    );
    expect(obs).toMatchObject({ status: 'down', error: { code: 'query_error' } });
    expect(obs.error!.message).toContain('read-only');
  });

  it('is down with auth_failed when the server refuses the login (a role that may not log in)', async () => {
    const obs = await registry.run(postgres(server, { username: noLogin, password: 'whatever' }), ctx);
    expect(obs.status).toBe('down');
    expect(obs.error!.code).toBe('auth_failed');
    expect(obs.error!.message).toContain('not permitted to log in');
    expect(JSON.stringify(obs)).not.toContain('whatever');
  });

  it('is down with auth_failed for a database that does not exist', async () => {
    const obs = await registry.run(postgres(server, { database: `nodb_${suffix}` }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
    expect(obs.error!.message).toContain('does not exist');
  });

  it('is down with tls_invalid when TLS is required and the server does not offer it', async () => {
    const obs = await registry.run(postgres(server, { tls_mode: 'require' }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'tls_invalid' } });
  });

  it('is down with connect_refused on a closed port', async () => {
    const obs = await registry.run(postgres(`127.0.0.1:${await closedPort()}`), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'connect_refused' } });
  });

  describe('a server that never answers', () => {
    let silent: TcpTarget;
    beforeAll(async () => {
      silent = await startSilentTarget();
    });
    afterAll(async () => {
      await silent.close();
    });

    it('is down with timeout after timeout_ms, and the connection is closed', async () => {
      const obs = await registry.run(postgres(silent.target, { timeout_ms: 300 }), ctx);
      expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
      expect(obs.duration_ms).toBeGreaterThanOrEqual(290);
      await expect.poll(() => silent.open!()).toBe(0);
    });
  });

  it('refuses a private target when private targets are not allowed', async () => {
    const obs = await registry.run(postgres(server), { ...ctx, allowPrivateTargets: false });
    expect(obs).toMatchObject({ status: 'down', error: { code: 'private_target' } });
  });

  it('leaves no connection of its own open after a check', async () => {
    await registry.run(postgres(server, { username: role, password: 'right-Pa55', database: 'postgres' }), ctx);
    const count = async () => {
      const client = new pg.Client({ connectionString: testServices.postgresUrl! });
      await client.connect();
      try {
        const r = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE usename = '${role}'`,
        );
        return Number(r.rows[0]!.n);
      } finally {
        await client.end();
      }
    };
    await expect.poll(count).toBe(0);
  });
});
