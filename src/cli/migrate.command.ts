import type { Command } from 'commander';
import { openMigratedDatabase } from '../main.ts';
import { configOrExit } from './cli.config.ts';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (serve also does this at start)')
    .action(async () => {
      const config = configOrExit();
      const { database, applied } = await openMigratedDatabase(config);
      await database.close();
      process.stdout.write(
        applied.length === 0
          ? 'Database is up to date.\n'
          : `Applied ${applied.length} migration(s):\n${applied.join('\n')}\n`,
      );
    });
}
