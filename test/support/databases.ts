import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_MIGRATIONS } from '../../src/main.ts';
import { migrateToLatest, openDatabase, type Database, type Dialect } from '../../src/platform/db/index.ts';
import { testServices } from './services.ts';
import { adminQuery, migratedTemplate } from './templates.ts';

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

/**
 * A fresh database of its own for one test file or case; drop() removes it. Migrated unless `migrate` is false
 * (then empty, for tests of the migrations themselves): a copy of the run's migrated template when global setup
 * built one (test/support/templates.ts), migrated here otherwise.
 */
export async function createTestDatabase(dialect: Dialect, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate !== false;
  const template = migrate ? migratedTemplate(dialect) : null;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tocsin-test-'));
    const path = join(dir, 'tocsin.db');
    if (template) copyFileSync(template, path);
    const database = openDatabase({ url: null, sqlitePath: path });
    const opened: Database[] = [database];
    if (migrate && !template) await migrateToLatest(database, ALL_MIGRATIONS);
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
  await adminQuery(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(testServices.postgresUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ url: url.toString(), sqlitePath: '', poolSize: 5 });
  const opened: Database[] = [database];
  if (migrate && !template) await migrateToLatest(database, ALL_MIGRATIONS);
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
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
