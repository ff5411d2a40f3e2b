import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServices } from '../../../test/support/services.ts';
import { adminQuery } from '../../../test/support/templates.ts';
import { sampleMonitor } from '../../../test/support/monitors.ts';
import { ALL_MIGRATIONS } from '../../main.ts';
import { ManualClock } from '../../platform/clock.ts';
import { migrateToLatest, openDatabase, type Database } from '../../platform/db/index.ts';
import { createOrgs } from '../orgs/index.ts';
import { MonitorsRepository } from './monitors.repository.ts';

const T0 = Date.parse('2026-11-22T10:00:00.123Z');

/**
 * PostgreSQL without pg_trgm (issue 36 item 8): a role that may not create extensions in its database migrates
 * all the same (the index is left out) and the search finds the same rows by scanning.
 */
describe.skipIf(!testServices.postgresUrl)('postgres: the text search without pg_trgm', () => {
  const suffix = randomBytes(5).toString('hex');
  const role = `tocsin_noext_${suffix}`;
  const name = `tocsin_test_noext_${suffix}`;
  let database: Database;

  beforeAll(async () => {
    await adminQuery(`CREATE ROLE ${role} LOGIN PASSWORD 'noext'`);
    await adminQuery(`CREATE DATABASE ${name}`);
    // Tables in the public schema, but no CREATE on the database: CREATE EXTENSION (even a trusted one) is refused.
    await adminQuery(`REVOKE CREATE ON DATABASE ${name} FROM PUBLIC`);
    const url = new URL(testServices.postgresUrl!);
    url.pathname = `/${name}`;
    const owner = new URL(url);
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: owner.toString() });
    await admin.connect();
    await admin.query(`GRANT ALL ON SCHEMA public TO ${role}`);
    await admin.end();
    url.username = role;
    url.password = 'noext';
    database = openDatabase({ url: url.toString(), sqlitePath: '', poolSize: 2 });
    await migrateToLatest(database, ALL_MIGRATIONS);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await adminQuery(`DROP ROLE IF EXISTS ${role}`);
  });

  it('migrates without the extension and finds substrings by scanning', async () => {
    const kysely = database.tables<unknown>();
    const ext = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(
      kysely,
    );
    expect(ext.rows[0]!.n).toBe(0);
    const index = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_indexes where indexname = 'monitor_search_trgm_idx'`.execute(kysely);
    expect(index.rows[0]!.n).toBe(0);
    const orgs = createOrgs({ database, clock: new ManualClock(T0), defaultPlan: 'team', defaultRegion: 'local' });
    const org = (await orgs.createOrganization({ name: 'o' })).id;
    const repo = new MonitorsRepository(database);
    const a = sampleMonitor(org, T0, { name: 'Payments API', target: 'https://pay.example.com/100%_ok' });
    const b = sampleMonitor(org, T0 + 1, { name: 'Search', target: 'https://search.example.com' });
    await repo.insert(a);
    await repo.insert(b);
    const q = async (text: string) =>
      (await repo.list({ organizationId: org }, { q: text }, undefined, 10)).map((m) => m.id);
    expect(await q('PAYMENTS')).toEqual([a.id]);
    expect(await q('100%_')).toEqual([a.id]);
    expect(await q('%')).toEqual([a.id]);
    expect(await q('example.com')).toEqual([a.id, b.id]);
    expect(await q('nowhere')).toEqual([]);
  });
});
