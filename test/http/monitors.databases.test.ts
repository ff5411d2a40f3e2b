import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { skipWithout, testServices } from '../support/services.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

/**
 * postgres, mysql and redis monitors through the real app on each Tocsin database: made through the API, checked by
 * the local runner against the real servers, the password never shown (responses, lists, audit log), bad input 422.
 */
const suffix = randomBytes(4).toString('hex');
const pgRole = `tocsin_api_${suffix}`;
const myUser = `tocsin_api_${suffix}`;
const SECRET = `S3cret-${suffix}`;
const hostPort = (url: string, port: number) => `${new URL(url).hostname}:${new URL(url).port || port}`;

async function pgAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testServices.postgresUrl! });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function myAdmin(sql: string): Promise<void> {
  const url = new URL(testServices.mysqlUrl!);
  const conn = await mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
  });
  try {
    await conn.query(sql);
  } finally {
    await conn.end();
  }
}

const needs = skipWithout('postgres') || skipWithout('mysql') || skipWithout('redis');

describe.skipIf(needs)('database monitors through the API', () => {
  beforeAll(async () => {
    await pgAdmin(`CREATE ROLE ${pgRole} LOGIN PASSWORD '${SECRET}'`);
    for (const host of ['%', '127.0.0.1', 'localhost'])
      await myAdmin(`CREATE USER '${myUser}'@'${host}' IDENTIFIED BY '${SECRET}'`);
  });
  afterAll(async () => {
    await pgAdmin(`DROP ROLE IF EXISTS ${pgRole}`);
    for (const host of ['%', '127.0.0.1', 'localhost']) await myAdmin(`DROP USER IF EXISTS '${myUser}'@'${host}'`);
  });

  for (const dialect of testDialects()) {
    describe(dialect, () => {
      let t: TestApp;
      let org: TestOrg;
      const clock = new ManualClock(Date.now());
      beforeAll(async () => {
        t = await createTestApp({ dialect, clock });
        org = await t.createOrg();
      });
      afterAll(async () => t.close());

      async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
        const res = await t.tocsin.app.inject({
          method,
          url,
          headers: bearer(org.apiKey),
          ...(body !== undefined && { payload: body as Json }),
        });
        return { status: res.statusCode, body: res.json() as Json, text: res.body };
      }

      async function create(body: Json): Promise<Json> {
        const res = await call('POST', '/api/v1/monitors', body);
        expect(res.status, res.text).toBe(201);
        expect(res.text).not.toContain(SECRET);
        return res.body;
      }

      async function lastExecution(id: string): Promise<Json> {
        const res = await call('GET', `/api/v1/monitors/${id}/executions?limit=1`);
        expect(res.status, res.text).toBe(200);
        return res.body.data[0] as Json;
      }

      it('creates each type, checks it against the real server, and never shows the password', async () => {
        const postgres = await create({
          type: 'postgres',
          target: hostPort(testServices.postgresUrl!, 5432),
          interval_seconds: 30,
          config: {
            username: pgRole,
            password: SECRET,
            database: 'postgres',
            query: 'SELECT 6 * 7',
            expected_value: '42',
            assertions: [{ type: 'response_time', less_than: 10_000 }],
          },
        });
        expect(postgres).toMatchObject({ type: 'postgres', password_set: true });
        expect(postgres.config).toEqual({
          timeout_ms: 10_000,
          failure_threshold: 2,
          success_threshold: 1,
          confirm_regions: null,
          alert_destination_ids: [],
          alert_latency_ms: null,
          reminder_interval_minutes: null,
          tls_mode: 'disable',
          username: pgRole,
          database: 'postgres',
          query: 'SELECT 6 * 7',
          expected_value: '42',
          assertions: [{ type: 'response_time', less_than: 10_000 }],
        });
        const mysqlMonitor = await create({
          type: 'mysql',
          target: hostPort(testServices.mysqlUrl!, 3306),
          interval_seconds: 30,
          config: { username: myUser, password: SECRET, query: 'SELECT 1', expected_value: '1' },
        });
        const redis = await create({
          type: 'redis',
          target: hostPort(testServices.redisUrl!, 6379),
          interval_seconds: 30,
          config: { query: 'PING', expected_value: 'PONG' },
        });
        expect(redis.password_set).toBe(false);
        const wrong = await create({
          type: 'mysql',
          target: hostPort(testServices.mysqlUrl!, 3306),
          interval_seconds: 30,
          config: { username: myUser, password: `${SECRET}-wrong` },
        });

        const one = await call('GET', `/api/v1/monitors/${postgres.id}`);
        expect(one.body.config).toEqual(postgres.config);
        expect(one.body.password_set).toBe(true);
        const list = await call('GET', '/api/v1/monitors?limit=100');
        expect(list.body.data.map((m: Json) => m.type).sort()).toEqual(['mysql', 'mysql', 'postgres', 'redis']);
        expect(list.text).not.toContain(SECRET);

        clock.advance(31_000);
        await t.tocsin.services.checks.localRunner.runOnce();
        for (const m of [postgres, mysqlMonitor, redis]) {
          const e = await lastExecution(m.id as string);
          expect(e, JSON.stringify(e)).toMatchObject({ status: 'up', error: null });
          expect(e.timings.connect_ms).toBeGreaterThanOrEqual(0);
          expect(e.details.query_ms).toBeGreaterThanOrEqual(0);
        }
        expect((await lastExecution(postgres.id as string)).details.auth_ms).toBeGreaterThanOrEqual(0);
        const refused = await lastExecution(wrong.id as string);
        expect(refused).toMatchObject({ status: 'down', error: { code: 'auth_failed' } });
        expect(JSON.stringify(refused)).not.toContain(SECRET);
      });

      it('keeps the password out of the audit log, and a PATCH keeps it unless given', async () => {
        const m = await create({
          type: 'postgres',
          target: 'db.example.com:5432',
          config: { password: SECRET },
        });
        const renamed = await call('PATCH', `/api/v1/monitors/${m.id}`, {
          name: 'Primary',
          config: { query: 'SELECT 1' },
        });
        expect(renamed.status, renamed.text).toBe(200);
        expect(renamed.body.password_set).toBe(true);
        const changed = await call('PATCH', `/api/v1/monitors/${m.id}`, { config: { password: `${SECRET}-2` } });
        expect(changed.status).toBe(200);
        expect(changed.text).not.toContain(SECRET);
        const audit = await call('GET', `/api/v1/audit-log?target_id=${m.id}`);
        expect(audit.status, audit.text).toBe(200);
        expect(audit.body.data.length).toBe(3);
        expect(audit.text).not.toContain(SECRET);
        // Entries of one millisecond (the manual clock) have no order: told apart by what they hold.
        const entries = audit.body.data as Json[];
        const creation = entries.find((e) => e.action === 'monitor.create')!;
        const updates = entries.filter((e) => e.action === 'monitor.update');
        expect(creation.changes['config.password']).toEqual([null, '[redacted]']);
        expect(updates.map((e) => e.changes['config.password'] ?? 'absent').sort()).toEqual([
          ['[redacted]', '[redacted]'],
          'absent',
        ]);

        const removed = await call('PATCH', `/api/v1/monitors/${m.id}`, { config: { password: null } });
        expect(removed.status).toBe(200);
        expect(removed.body.password_set).toBe(false);
      });

      it('asks for the password again when the target moves (credentials stay with their server)', async () => {
        const m = await create({ type: 'mysql', target: 'db.example.com:3306', config: { password: SECRET } });
        const moved = await call('PATCH', `/api/v1/monitors/${m.id}`, { target: 'other.example.com:3306' });
        expect(moved.status).toBe(422);
        expect(moved.body.error.details).toEqual([
          { field: 'config.password', issue: 'must be given again (or null) when the target changes' },
        ]);
        expect((await call('GET', `/api/v1/monitors/${m.id}`)).body.target).toBe('db.example.com:3306');
        const withPassword = await call('PATCH', `/api/v1/monitors/${m.id}`, {
          target: 'other.example.com:3306',
          config: { password: SECRET },
        });
        expect(withPassword.status, withPassword.text).toBe(200);
        expect(withPassword.body.target).toBe('other.example.com:3306');
      });

      const refusals: Array<[string, Json, Json[]]> = [
        [
          'a connection URL as target (its password is not echoed)',
          { type: 'postgres', target: `postgres://app:${SECRET}@db.example.com/app` },
          [
            {
              field: 'target',
              issue: 'must be host:port or a host, not a URL (database, username and password go in config)',
            },
          ],
        ],
        [
          'a bad host',
          { type: 'redis', target: 'a b:6379' },
          [{ field: 'target', issue: 'must be host:port or a host' }],
        ],
        [
          'an unknown tls_mode',
          { type: 'mysql', target: 'db:3306', config: { tls_mode: 'prefer' } },
          [{ field: 'config.tls_mode', issue: 'must be one of disable, require, verify' }],
        ],
        [
          'expected_value without query',
          { type: 'postgres', target: 'db:5432', config: { expected_value: '1' } },
          [{ field: 'config.expected_value', issue: 'needs config.query' }],
        ],
        [
          'a redis database that is not an index',
          { type: 'redis', target: 'cache:6379', config: { database: 'main' } },
          [{ field: 'config.database', issue: 'must be a database index (0, 1, …) for redis' }],
        ],
        [
          'a password that is not a string',
          { type: 'redis', target: 'cache:6379', config: { password: 42 } },
          [{ field: 'config.password', issue: 'must be a string' }],
        ],
        [
          'an assertion a database cannot answer',
          { type: 'mysql', target: 'db:3306', config: { assertions: [{ type: 'status', equals: 200 }] } },
          [{ field: 'config.assertions[0].type', issue: 'must be body or response_time for a mysql monitor' }],
        ],
        [
          'another type’s key',
          { type: 'postgres', target: 'db:5432', config: { method: 'GET' } },
          [{ field: 'config.method', issue: 'is not a known field for postgres monitors' }],
        ],
      ];
      it.each(refusals)('refuses %s with 422 naming the field, making nothing', async (_name, body, details) => {
        const before = (await call('GET', '/api/v1/monitors?limit=100')).body.data.length as number;
        const res = await call('POST', '/api/v1/monitors', body);
        expect(res.status, res.text).toBe(422);
        expect(res.body.error.details).toEqual(details);
        expect(res.text).not.toContain(SECRET);
        expect((await call('GET', '/api/v1/monitors?limit=100')).body.data.length).toBe(before);
      });
    });
  }
});
