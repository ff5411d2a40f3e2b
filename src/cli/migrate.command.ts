import type { Command } from 'commander';
import { ALL_MIGRATIONS, openConfiguredDatabase } from '../main.ts';
import { migrateToLatest } from '../platform/db/index.ts';
import { configOrExit } from './cli.config.ts';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (serve also does this at start)')
    .action(async () => {
      const config = configOrExit();
      const database = openConfiguredDatabase(config);
      try {
        const applied = await migrateToLatest(database, ALL_MIGRATIONS);
        process.stdout.write(
          applied.length === 0
            ? 'Database is up to date.\n'
            : `Applied ${applied.length} migration(s):\n${applied.join('\n')}\n`,
        );
      } finally {
        await database.close();
      }
    });
}
