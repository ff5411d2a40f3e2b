import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS } from '../../src/main.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { createTestDatabase, testDialects, type TestDatabase } from './databases.ts';
import { migratedTemplate } from './templates.ts';

interface MigrationRow {
  name: string;
}

async function appliedMigrations(database: Database): Promise<string[]> {
  const rows = await database
    .tables<{ tocsin_migration: MigrationRow }>()
    .selectFrom('tocsin_migration')
    .select('name')
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

async function hasMigrationTable(database: Database): Promise<boolean> {
  const db = database.tables<unknown>();
  const query =
    database.dialect === 'sqlite'
      ? sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'tocsin_migration'`
      : sql<{
          n: number;
        }>`select count(*)::int as n from information_schema.tables where table_name = 'tocsin_migration'`;
  const { rows } = await query.execute(db);
  return Number(rows[0]!.n) > 0;
}

describe.each(testDialects())('test databases (%s)', (dialect) => {
  const made: TestDatabase[] = [];
  const create = async (options?: { migrate?: boolean }) => {
    const db = await createTestDatabase(dialect, options);
    made.push(db);
    return db;
  };
  afterAll(async () => {
    for (const db of made) await db.drop();
  });

  it("are copies of the run's template, migrated by global setup with every migration of the code", async () => {
    expect(migratedTemplate(dialect)).not.toBeNull();
    const db = await create();
    expect(await appliedMigrations(db.database)).toEqual(ALL_MIGRATIONS.map((m) => m.name).sort());
  });

  it('are independent of each other and leave the template as it was', async () => {
    const a = await create();
    await sql`create table only_in_a (id integer)`.execute(a.database.tables<unknown>());
    const b = await create();
    const tables = async (d: Database) =>
      (
        await (
          d.dialect === 'sqlite'
            ? sql<{ name: string }>`select name from sqlite_master where name = 'only_in_a'`
            : sql<{
                name: string;
              }>`select table_name as name from information_schema.tables where table_name = 'only_in_a'`
        ).execute(d.tables<unknown>())
      ).rows;
    expect(await tables(a.database)).toHaveLength(1);
    expect(await tables(b.database)).toHaveLength(0);
  });

  it('are empty with migrate: false (for the tests of the migrations themselves)', async () => {
    const db = await create({ migrate: false });
    expect(await hasMigrationTable(db.database)).toBe(false);
  });
});
