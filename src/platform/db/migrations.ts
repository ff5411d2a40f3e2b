import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import type { Database, Dialect } from './database.ts';

/**
 * One schema change, written once for both dialects. Names sort in the order they must run:
 * `YYYYMMDDHHMM_module_what`.
 */
export interface SchemaMigration {
  name: string;
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

export async function migrateToLatest(database: Database, migrations: SchemaMigration[]): Promise<string[]> {
  const kysely = database.tables<unknown>();
  const byName: Record<string, Migration> = {};
  for (const m of [...migrations].sort((a, b) => a.name.localeCompare(b.name))) {
    if (byName[m.name]) throw new Error(`duplicate migration name ${m.name}`);
    byName[m.name] = { up: (db) => m.up(db, database.dialect) };
  }
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: async () => byName },
    migrationTableName: 'tocsin_migration',
    migrationLockTableName: 'tocsin_migration_lock',
    // Modules add migrations independently; a later-merged one may sort before an applied one.
    allowUnorderedMigrations: true,
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(
      `migration ${failed?.migrationName ?? '?'} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      {
        cause: error,
      },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
