import type { Command } from 'commander';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (serve also does this at start)')
    .action(async () => {
      const [{ openMigratedDatabase }, { configOrExit }] = await Promise.all([
        import('../main.ts'),
        import('./cli.config.ts'),
      ]);
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
