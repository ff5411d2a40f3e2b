import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ALL_MIGRATIONS } from '../../src/main.ts';
import { migrateToLatest, openDatabase, type Dialect } from '../../src/platform/db/index.ts';
import { testServices } from './services.ts';

/**
 * Migrated template databases: global setup migrates one per dialect once per run, from the code's
 * ALL_MIGRATIONS (never a checked-in snapshot, as migrations are added on other branches), and each test copies it
 * (PostgreSQL: CREATE DATABASE … TEMPLATE; SQLite: a file copy) instead of migrating its own, which on PostgreSQL
 * took 1.6–2.2 s per database. Workers find them through the environment, which they inherit from the main process.
 */
const ENV = {
  postgres: 'TOCSIN_TEST_TEMPLATE_DATABASE',
  sqlite: 'TOCSIN_TEST_TEMPLATE_SQLITE',
  migrations: 'TOCSIN_TEST_TEMPLATE_MIGRATIONS',
} as const;

let fingerprint: string | null = null;

/** The migrations a template was built with; a template of other migrations (watch mode after an edit) is not used. */
function migrationsFingerprint(): string {
  fingerprint ??= createHash('sha256')
    .update(
      ALL_MIGRATIONS.map((m) => m.name)
        .sort()
        .join('\n'),
    )
    .digest('hex');
  return fingerprint;
}

/** The PostgreSQL database name or SQLite file to copy for a migrated database, or null: migrate instead. */
export function migratedTemplate(dialect: Dialect): string | null {
  if (process.env[ENV.migrations] !== migrationsFingerprint()) return null;
  return process.env[ENV[dialect]] || null;
}

export async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testServices.postgresUrl! });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** Builds the templates (PostgreSQL only when configured) and returns what removes them. */
export async function buildTemplates(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-template-'));
  const sqlitePath = join(dir, 'tocsin.db');
  const pgName = testServices.postgresUrl ? `tocsin_tpl_${randomBytes(6).toString('hex')}` : null;
  const remove = async () => {
    rmSync(dir, { recursive: true, force: true });
    if (pgName) await adminQuery(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  };
  try {
    const sqlite = openDatabase({ url: null, sqlitePath });
    await migrateToLatest(sqlite, ALL_MIGRATIONS);
    // Closing checkpoints the WAL into the file, so a copy of the file alone is the whole database.
    await sqlite.close();
    if (pgName) {
      await adminQuery(`CREATE DATABASE ${pgName}`);
      const url = new URL(testServices.postgresUrl!);
      url.pathname = `/${pgName}`;
      const database = openDatabase({ url: url.toString(), sqlitePath: '', poolSize: 1 });
      try {
        await migrateToLatest(database, ALL_MIGRATIONS);
      } finally {
        // A database cannot be copied while anyone is connected to it.
        await database.close();
      }
    }
  } catch (err) {
    await remove();
    throw err;
  }
  process.env[ENV.sqlite] = sqlitePath;
  if (pgName) process.env[ENV.postgres] = pgName;
  process.env[ENV.migrations] = migrationsFingerprint();
  return remove;
}
