import type { Command } from 'commander';
import { PLAN_NAMES, type PlanName } from '../config/config.types.ts';
import { cliTrail } from './cli.audit.ts';
import { withTocsin } from './cli.tocsin.ts';

function planOrExit(value: string): PlanName {
  if ((PLAN_NAMES as readonly string[]).includes(value)) return value as PlanName;
  process.stderr.write(`tocsin: --plan must be one of ${PLAN_NAMES.join(', ')} (got "${value}")\n`);
  process.exit(2);
}

export function registerAdminCommands(program: Command): void {
  const admin = program.command('admin').description('Operator commands run against the configured database');

  admin
    .command('bootstrap')
    .description('Create an organization, its owner and an API key with every scope; prints them once as JSON')
    .requiredOption('--org <name>', 'organization name')
    .requiredOption('--email <email>', "owner's email address")
    .option('--plan <plan>', `plan: ${PLAN_NAMES.join(', ')} (default: the configured default_plan)`)
    .action(async (opts: { org: string; email: string; plan?: string }) => {
      const plan = opts.plan === undefined ? undefined : planOrExit(opts.plan);
      const { SCOPES } = await import('../modules/auth/index.ts');
      const out = await withTocsin(async (tocsin) => {
        const { services } = tocsin;
        const org = await services.orgs.createOrganization({ name: opts.org, ...(plan && { plan }) });
        const user = await services.orgs.ensureUser({ email: opts.email });
        await services.orgs.addMember(org.id, user.id, 'owner');
        const key = await services.auth.issueKey({
          organizationId: org.id,
          name: 'bootstrap',
          scopes: [...SCOPES],
          environments: ['production', 'staging', 'development'],
          userId: user.id,
          createdBy: user.id,
        });
        await cliTrail(tocsin, 'admin bootstrap').note({
          organizationId: org.id,
          action: 'organization.bootstrap',
          target: { type: 'organization', id: org.id },
          changes: {
            name: [null, org.name],
            plan: [null, org.plan],
            owner: [null, user.email],
            api_key: [null, key.id],
          },
        });
        if (user.emailVerifiedAt === null)
          process.stderr.write(
            `Email verification link for ${user.email} (also mailed when SMTP is set): ${await services.members.sendVerification(user)}\n`,
          );
        return { organization_id: org.id, user_id: user.id, api_key: key.key };
      });
      process.stdout.write(`${JSON.stringify(out)}\n`);
    });

  admin
    .command('password-reset-link')
    .description(
      "Print a one-time link (valid 1 hour) that sets a user's password: for an owner made by bootstrap, or without SMTP",
    )
    .requiredOption('--email <email>', "the user's email address")
    .action(async (opts: { email: string }) => {
      const issued = await withTocsin((tocsin) =>
        tocsin.services.sessions.createResetLink(opts.email, cliTrail(tocsin, 'admin password-reset-link')),
      );
      if (!issued) {
        process.stderr.write(`tocsin: no user has the address ${opts.email}\n`);
        process.exit(1);
      }
      process.stdout.write(
        `${JSON.stringify({ user_id: issued.user.id, link: issued.link, expires_at: new Date(issued.expiresAt).toISOString() })}\n`,
      );
    });

  admin
    .command('set-plan')
    .description("Change an organization's plan")
    .requiredOption('--org <id>', 'organization id (org_…)')
    .requiredOption('--plan <plan>', `plan: ${PLAN_NAMES.join(', ')}`)
    .action(async (opts: { org: string; plan: string }) => {
      const plan = planOrExit(opts.plan);
      const org = await withTocsin((tocsin) =>
        tocsin.services.orgs.setPlan(opts.org, plan, cliTrail(tocsin, 'admin set-plan')),
      );
      process.stdout.write(`${JSON.stringify({ organization_id: org.id, plan: org.plan })}\n`);
    });
}
