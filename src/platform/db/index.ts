export { openDatabase, type CompiledStatement, type Database, type DatabaseOptions, type Dialect } from './database.ts';
export { migrateToLatest, type SchemaMigration } from './migrations.ts';
export {
  DatabaseStartupError,
  databaseStartupError,
  describeDatabaseTarget,
  type DatabaseStartupFailure,
} from './database.errors.ts';
export { col, toJson, fromJson, toBool } from './columns.ts';
export { PrecompiledQueries, param, runOneRow } from './precompiled.ts';
export { limitStatementTime } from './statement-timeout.ts';
export { backupSqlite, type SqliteBackup } from './sqlite.backup.ts';
export {
  createChangeSignals,
  LONG_SAFETY_POLL_MS,
  SHORT_SAFETY_POLL_MS,
  type ChangeSignals,
} from './change.signals.ts';
