import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout, testServices } from '../../../../../test/support/services.ts';
import { closedPort, startSilentTarget, type TcpTarget } from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

// MySQL/MariaDB of the test run (TOCSIN_TEST_MYSQL_URL, an account that may create users): the test makes a user
// with a password of its own, so a wrong password is refused by the real server.
const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const suffix = randomBytes(4).toString('hex');
const user = `tocsin_probe_${suffix}`;
const database = `tocsin_probe_${suffix}`;
let server = '127.0.0.1:3306';

const probe = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_my',
  type: 'mysql',
  target,
  interval_seconds: 60,
  config: { timeout_ms: 5000, ...config },
});
const login = { username: user, password: 'right-Pa55', database };

async function admin(sql: string): Promise<unknown> {
  const url = new URL(testServices.mysqlUrl!);
  const conn = await mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
  });
  try {
    const [rows] = await conn.query(sql);
    return rows;
  } finally {
    await conn.end();
  }
}

describe.skipIf(skipWithout('mysql'))('mysql probe (real MySQL/MariaDB)', () => {
  beforeAll(async () => {
    const url = new URL(testServices.mysqlUrl!);
    server = `${url.hostname}:${url.port || 3306}`;
    await admin(`CREATE DATABASE ${database}`);
    await admin(`CREATE USER '${user}'@'%' IDENTIFIED BY 'right-Pa55'`);
    await admin(`CREATE USER '${user}'@'127.0.0.1' IDENTIFIED BY 'right-Pa55'`);
    await admin(`CREATE USER '${user}'@'localhost' IDENTIFIED BY 'right-Pa55'`);
    for (const host of ['%', '127.0.0.1', 'localhost'])
      await admin(`GRANT SELECT ON ${database}.* TO '${user}'@'${host}'`);
    await admin(`CREATE TABLE ${database}.flags (name varchar(20), v varchar(20))`);
    await admin(`INSERT INTO ${database}.flags VALUES ('ready', 'yes')`);
  });
  afterAll(async () => {
    for (const host of ['%', '127.0.0.1', 'localhost']) await admin(`DROP USER IF EXISTS '${user}'@'${host}'`);
    await admin(`DROP DATABASE IF EXISTS ${database}`);
  });

  it('is up after a login and a query whose first value is the expected one, with every phase timed', async () => {
    const obs = await registry.run(
      probe(server, { ...login, query: "SELECT v, name FROM flags WHERE name = 'ready'", expected_value: 'yes' }),
      ctx,
    );
    expect(obs).toMatchObject({ status: 'up', error: null, details: { remote_address: '127.0.0.1' } });
    expect(obs.details!.server_version).toMatch(/^\d+\.\d+/);
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.tls_ms).toBeNull();
    expect(obs.details!.auth_ms).toBeGreaterThanOrEqual(0);
    expect(obs.details!.query_ms).toBeGreaterThanOrEqual(0);
  });

  it('compares numbers as the server prints them', async () => {
    const obs = await registry.run(probe(server, { ...login, query: 'SELECT 40 + 2', expected_value: '42' }), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null });
  });

  it('is down with auth_failed on a wrong password, never showing it', async () => {
    const obs = await registry.run(probe(server, { ...login, password: 'wrong-Pa55' }), ctx);
    expect(obs.status).toBe('down');
    expect(obs.error!.code).toBe('auth_failed');
    expect(obs.error!.message).toContain('Access denied');
    expect(JSON.stringify(obs)).not.toContain('wrong-Pa55');
  });

  it('is down with auth_failed for a database the user may not use', async () => {
    const obs = await registry.run(probe(server, { ...login, database: 'mysql' }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
  });

  it('is down with query_error when the query fails, and unexpected_value when the value differs', async () => {
    const failed = await registry.run(probe(server, { ...login, query: 'SELECT * FROM no_such_table' }), ctx);
    expect(failed).toMatchObject({ status: 'down', error: { code: 'query_error' } });
    expect(failed.error!.message).toContain('no_such_table');
    const other = await registry.run(probe(server, { ...login, query: 'SELECT 1', expected_value: '2' }), ctx);
    expect(other).toMatchObject({
      status: 'down',
      error: { code: 'unexpected_value', message: 'expected "2", got "1"' },
    });
  });

  it('is up without a query once logged in', async () => {
    const obs = await registry.run(probe(server, login), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null, details: { query_ms: null } });
  });

  it('is down with tls_invalid when TLS is required and the server does not offer it', async () => {
    const offers = (await admin("SHOW VARIABLES LIKE 'have_ssl'")) as Array<{ Value: string }>;
    const obs = await registry.run(probe(server, { ...login, tls_mode: 'require' }), ctx);
    if (offers[0]?.Value === 'YES') expect(obs).toMatchObject({ status: 'up', error: null });
    else expect(obs).toMatchObject({ status: 'down', error: { code: 'tls_invalid' } });
  });

  it('is down with connect_refused on a closed port', async () => {
    const obs = await registry.run(probe(`127.0.0.1:${await closedPort()}`, login), ctx);
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
      const obs = await registry.run(probe(silent.target, { ...login, timeout_ms: 300 }), ctx);
      expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
      await expect.poll(() => silent.open!()).toBe(0);
    });
  });

  it('leaves no connection of its own open after a check', async () => {
    await registry.run(probe(server, { ...login, query: 'SELECT 1' }), ctx);
    await registry.run(probe(server, { ...login, password: 'wrong' }), ctx);
    const count = async () => {
      const rows = (await admin(
        `SELECT count(*) AS n FROM information_schema.processlist WHERE user = '${user}'`,
      )) as Array<{ n: number }>;
      return Number(rows[0]!.n);
    };
    await expect.poll(count).toBe(0);
  });
});
