export { openDatabase, type Database, type DatabaseOptions, type Dialect } from './database.ts';
export { migrateToLatest, type SchemaMigration } from './migrations.ts';
export { col, toJson, fromJson, toBool } from './columns.ts';
export { backupSqlite, type SqliteBackup } from './sqlite.backup.ts';
