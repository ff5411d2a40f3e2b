export { openDatabase, type Database, type DatabaseOptions, type Dialect } from './database.ts';
export { migrateToLatest, type SchemaMigration } from './migrations.ts';
export {
  DatabaseStartupError,
  databaseStartupError,
  describeDatabaseTarget,
  type DatabaseStartupFailure,
} from './database.errors.ts';
export { col, toJson, fromJson, toBool } from './columns.ts';
export { backupSqlite, type SqliteBackup } from './sqlite.backup.ts';
