import type { Command } from 'commander';
import { toIsoOrNull } from '../platform/clock.ts';
import { withTocsin } from './cli.tocsin.ts';

/** `tocsin admin runner-token create|list|revoke`: tokens for remote runners (`tocsin runner`). */
export function registerRunnerTokenCommands(admin: Command): void {
  const cmd = admin.command('runner-token').description('Tokens for remote check runners (tocsin runner --region …)');

  cmd
    .command('create')
    .description('Issue a token for a runner of one region; prints {"runner_id","region_code","token"} once as JSON')
    .requiredOption('--region <code>', 'region code from the configured regions')
    .option('--name <name>', 'a label for this runner')
    .action(async (opts: { region: string; name?: string }) => {
      const out = await withTocsin(({ services }) => services.checks.runners.createToken(opts.region, opts.name));
      process.stdout.write(
        `${JSON.stringify({ runner_id: out.runner.id, region_code: out.runner.regionCode, token: out.token })}\n`,
      );
    });

  cmd
    .command('list')
    .description('List runners with their region and last heartbeat')
    .action(async () => {
      const list = await withTocsin(({ services }) => services.checks.runners.list());
      for (const r of list) {
        process.stdout.write(
          `${JSON.stringify({ runner_id: r.id, region_code: r.regionCode, name: r.name, last_seen_at: toIsoOrNull(r.lastSeenAt), revoked_at: toIsoOrNull(r.revokedAt) })}\n`,
        );
      }
    });

  cmd
    .command('revoke')
    .description('Revoke a runner token')
    .argument('<runner-id>', 'run_…')
    .action(async (id: string) => {
      const ok = await withTocsin(({ services }) => services.checks.runners.revoke(id));
      process.stdout.write(`${JSON.stringify({ runner_id: id, revoked: ok })}\n`);
      if (!ok) process.exit(1);
    });
}
