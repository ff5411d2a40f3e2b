/**
 * One process migrating a SQLite database to the latest schema (migrations.concurrent.test.ts starts several at
 * once): `migrate.child.ts <file> <epoch ms>` starts at that instant (after its modules have loaded, so that the
 * processes overlap), prints how many migrations it applied, and exits non-zero with the error when migrating fails.
 */
import { ALL_MIGRATIONS } from '../../src/main.ts';
import { migrateToLatest, openDatabase } from '../../src/platform/db/index.ts';

await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.argv[3]) - Date.now())));
const database = openDatabase({ url: null, sqlitePath: process.argv[2]! });
try {
  const applied = await migrateToLatest(database, ALL_MIGRATIONS);
  process.stdout.write(JSON.stringify({ applied: applied.length }));
} finally {
  await database.close();
}
