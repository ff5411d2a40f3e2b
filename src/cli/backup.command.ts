import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';

const POSTGRES_GUIDANCE = `tocsin backup copies the embedded SQLite database; this installation uses PostgreSQL (DATABASE_URL).
Back PostgreSQL up with its own tools, e.g. a consistent dump while Tocsin runs:
  pg_dump --format=custom --file=tocsin.dump "$DATABASE_URL"
and restore it into an empty database with:
  pg_restore --no-owner --dbname="$DATABASE_URL" tocsin.dump
(see docs/operations.md, "Backups").
`;

export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description('Copy the SQLite database consistently while Tocsin serves (online backup)')
    .requiredOption('--to <file>', 'where to write the copy')
    .option('--force', 'replace the file if it exists')
    .action(async (opts: { to: string; force?: boolean }) => {
      const [{ backupSqlite }, { configOrExit }] = await Promise.all([
        import('../platform/db/index.ts'),
        import('./cli.config.ts'),
      ]);
      const config = configOrExit();
      if (config.databaseUrl) {
        process.stderr.write(POSTGRES_GUIDANCE);
        process.exit(2);
      }
      // The file openConfiguredDatabase (src/main.ts) opens.
      const source = join(config.dataDir, 'tocsin.db');
      const target = resolve(opts.to);
      if (!existsSync(source)) throw new Error(`no database at ${source} (is TOCSIN_DATA_DIR right?)`);
      if (target === source) throw new Error('--to names the database itself; choose another file');
      if (!existsSync(dirname(target))) throw new Error(`the directory ${dirname(target)} does not exist`);
      if (existsSync(target) && !opts.force) throw new Error(`${target} exists; pass --force to replace it`);
      const copy = await backupSqlite(source, target);
      process.stdout.write(`${JSON.stringify({ backup: target, bytes: copy.bytes, pages: copy.pages })}\n`);
      if (!config.masterKey) {
        process.stderr.write(
          `Keep ${join(config.dataDir, 'master.key')} too (somewhere else): sealed destination secrets need it.\n`,
        );
      }
    });
}
