import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ALL_MIGRATIONS } from '../../src/main.ts';
import { migrateToLatest, openDatabase, type Database, type Dialect } from '../../src/platform/db/index.ts';
import { testServices } from './services.ts';

/** The dialects this run covers: SQLite always, PostgreSQL when configured (required in CI). */
export function testDialects(): Dialect[] {
  return testServices.postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  database: Database;
  /** postgres:// URL of the created database, or the SQLite file path. */
  url: string;
  /** Opens another handle to the same database, as a second process would. */
  reopen(): Database;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own for one test file or case; drop() removes it. */
export async function createTestDatabase(dialect: Dialect, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tocsin-test-'));
    const path = join(dir, 'tocsin.db');
    const database = openDatabase({ url: null, sqlitePath: path });
    const opened: Database[] = [database];
    if (options.migrate !== false) await migrateToLatest(database, ALL_MIGRATIONS);
    return {
      database,
      url: path,
      reopen: () => {
        const d = openDatabase({ url: null, sqlitePath: path });
        opened.push(d);
        return d;
      },
      drop: async () => {
        for (const d of opened) await d.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!testServices.postgresUrl) throw new Error('TOCSIN_TEST_POSTGRES_URL is not set');
  const name = `tocsin_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testServices.postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(testServices.postgresUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ url: url.toString(), sqlitePath: '', poolSize: 5 });
  const opened: Database[] = [database];
  if (options.migrate !== false) await migrateToLatest(database, ALL_MIGRATIONS);
  return {
    database,
    url: url.toString(),
    reopen: () => {
      const d = openDatabase({ url: url.toString(), sqlitePath: '', poolSize: 5 });
      opened.push(d);
      return d;
    },
    drop: async () => {
      for (const d of opened) await d.close();
      const c = new pg.Client({ connectionString: testServices.postgresUrl! });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
