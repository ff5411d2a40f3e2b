import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call } from '../api-access/helpers.ts';

describe.each(testDialects())('key values never leak (%s)', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-22T10:00:00.000Z');
  beforeAll(async () => {
    // Metrics on, so that the scrape below is checked for leaked key values too.
    t = await createTestApp({ dialect, clock, configFile: { metrics: { enabled: true } } });
  });
  afterAll(async () => t.close());

  it('after create and rotate, no log line and no later response contains a key value', async () => {
    const o = await t.createOrg();
    const secrets: string[] = [o.apiKey];
    const later: LightMyRequestResponse[] = [];
    const record = (r: LightMyRequestResponse) => {
      later.push(r);
      return r;
    };

    const created = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'leak-check', scopes: ['monitors:read', 'monitors:create'], environments: ['production'] },
      headers: { 'idempotency-key': 'create-leak' },
    });
    const k = created.json();
    secrets.push(k.key);
    const rotated = (
      await call(t, o.apiKey, 'POST', `/api/v1/api-keys/${k.id}/rotate`, { body: { grace_seconds: 10 } })
    ).json();
    secrets.push(rotated.key);

    // Use, replay, read, list, usage, errors, failed authentication.
    record(
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'leak-check', scopes: ['monitors:read', 'monitors:create'], environments: ['production'] },
        headers: { 'idempotency-key': 'create-leak' },
      }),
    );
    record(await call(t, k.key, 'GET', '/api/v1/monitors'));
    record(await call(t, rotated.key, 'POST', '/api/v1/monitors', { body: { target: 'https://x.example.com' } }));
    record(await call(t, rotated.key, 'POST', '/api/v1/monitors', { body: { target: 'nope' } }));
    record(await call(t, rotated.key, 'GET', '/api/v1/api-keys'));
    record(await call(t, o.apiKey, 'GET', '/api/v1/api-keys'));
    record(await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}`));
    record(await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}/usage`));
    clock.advance(11_000);
    record(await call(t, k.key, 'GET', '/api/v1/monitors')); // old value after the grace: 401
    record(
      await call(t, `${rotated.key.slice(0, -1)}${rotated.key.endsWith('x') ? 'y' : 'x'}`, 'GET', '/api/v1/monitors'),
    ); // damaged value
    record(await call(t, o.apiKey, 'DELETE', `/api/v1/api-keys/${k.id}`));
    record(await call(t, rotated.key, 'GET', '/api/v1/monitors')); // revoked
    record(await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' }));
    record(await t.tocsin.app.inject({ method: 'GET', url: '/metrics' }));
    expect(later.map((r) => r.statusCode)).toEqual([
      201, 200, 201, 422, 403, 200, 200, 200, 401, 401, 200, 401, 200, 200,
    ]);

    const logs = t.logs.text;
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      // The whole value, and its random body without the prefix.
      for (const needle of [secret, secret.slice(4)]) {
        expect(logs.includes(needle), 'a key value appears in the logs').toBe(false);
        for (const r of later) {
          expect(r.body.includes(needle), `a key value appears in a response: ${r.body.slice(0, 80)}`).toBe(false);
          expect(JSON.stringify(r.headers).includes(needle)).toBe(false);
        }
      }
    }
  });

  /** Every row of every table, as text: what someone who can read the database file sees. */
  async function databaseText(): Promise<string> {
    const db = t.db.database.tables<Record<string, Record<string, unknown>>>();
    const tables =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
        : await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema()`.execute(db);
    const out: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await sql`select * from ${sql.table(name)}`.execute(db);
      out.push(JSON.stringify(rows.rows));
    }
    return out.join('\n');
  }

  it("stores a generic webhook's signing secret nowhere in plain text, and a replay still returns it", async () => {
    const o = await t.createOrg();
    const body = { type: 'generic_webhook', name: 'sealed hook', config: { url: 'https://hooks.example.com/in' } };
    const headers = { 'idempotency-key': 'hook-once' };
    const created = await call(t, o.apiKey, 'POST', '/api/v1/auth/organization/webhooks', { body, headers });
    expect(created.statusCode).toBe(201);
    const secret = created.json().signing_secret as string;
    expect(secret.length).toBeGreaterThan(16);
    const key = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'once', scopes: ['monitors:read'] },
        headers: { 'idempotency-key': 'key-once' },
      })
    ).json().key as string;

    const text = await databaseText();
    expect(text).toContain('hook-once'); // the idempotency record is there…
    expect(text).not.toContain(secret); // …without the secret
    expect(text).not.toContain(key);

    const replay = await call(t, o.apiKey, 'POST', '/api/v1/auth/organization/webhooks', { body, headers });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(created.json());
  });
});
