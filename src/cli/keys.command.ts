import type { Command } from 'commander';
import { DomainError } from '../platform/errors.ts';
import { cliTrail } from './cli.audit.ts';
import { withTocsin } from './cli.tocsin.ts';

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function positiveInt(name: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 100_000) {
      process.stderr.write(`tocsin: ${name} must be an integer from 1 to 100000 (got "${v}")\n`);
      process.exit(2);
    }
    return n;
  };
}

/** `--expires` takes RFC 3339 or a duration like 30d / 12h. */
function expiryOf(value: string | undefined, now: number): number | null {
  if (value === undefined || value === 'never') return null;
  const m = /^(\d+)([dh])$/.exec(value);
  if (m) return now + Number(m[1]) * (m[2] === 'd' ? 86_400_000 : 3_600_000);
  const t = Date.parse(value);
  if (Number.isNaN(t)) {
    process.stderr.write(`tocsin: --expires must be RFC 3339, 30d, 12h or never (got "${value}")\n`);
    process.exit(2);
  }
  return t;
}

/** The key's public view; the auth module is loaded with the application, when a command runs. */
async function keyView() {
  return (await import('../modules/auth/index.ts')).apiKeyView;
}

function out(value: unknown): void {
  if (value !== undefined) process.stdout.write(`${JSON.stringify(value)}\n`);
}

interface CreateOpts {
  org: string;
  name: string;
  scopes: string;
  environments?: string;
  expires?: string;
  read?: number;
  write?: number;
  delete?: number;
  serviceAccount?: string;
  user?: string;
}

/** Operator key management: `tocsin keys create|list|revoke|rotate`, printing JSON. */
export function registerKeysCommands(program: Command): void {
  const keys = program
    .command('keys')
    .description('Manage API keys of an organization (operator commands, JSON output)');

  keys
    .command('create')
    .description('Create a key; prints the record and the value (shown once)')
    .requiredOption('--org <id>', 'organization id (org_…)')
    .requiredOption('--name <name>', 'key name')
    .requiredOption('--scopes <list>', 'comma-separated scopes, e.g. monitors:read,monitors:create')
    .option('--environments <list>', 'comma-separated environments (default production)')
    .option('--expires <when>', 'RFC 3339 time, or 30d / 12h, or never (default)')
    .option('--read <n>', 'read requests per minute (default 600)', positiveInt('--read'))
    .option('--write <n>', 'write requests per minute (default 120)', positiveInt('--write'))
    .option('--delete <n>', 'delete requests per minute (default 60)', positiveInt('--delete'))
    .option('--service-account <id>', 'owner: a service account (sac_…)')
    .option('--user <id>', "owner: a member (usr_…); default the organization's first owner")
    .action(async (o: CreateOpts) => {
      const apiKeyView = await keyView();
      out(
        await withTocsin(async (tocsin) => {
          const { services, clock } = tocsin;
          let userId = o.user ?? null;
          let role: string | undefined;
          if (o.serviceAccount === undefined) {
            const members = await services.orgs.listMembers(o.org);
            const owner = userId ? members.find((m) => m.user.id === userId) : members.find((m) => m.role === 'owner');
            if (!owner)
              throw new DomainError(
                'validation_failed',
                userId
                  ? `${userId} is not a member of ${o.org}.`
                  : `${o.org} has no owner; pass --user or --service-account.`,
              );
            userId = owner.user.id;
            role = owner.role;
          }
          const { record, key } = await services.apiAccess.apiKeys.createAsOperator(
            o.org,
            {
              name: o.name,
              scopes: list(o.scopes),
              ...(o.environments !== undefined && { environments: list(o.environments) }),
              expiresAt: expiryOf(o.expires, clock.now()),
              rateLimits: {
                ...(o.read !== undefined && { read_per_minute: o.read }),
                ...(o.write !== undefined && { write_per_minute: o.write }),
                ...(o.delete !== undefined && { delete_per_minute: o.delete }),
              },
              serviceAccountId: o.serviceAccount ?? null,
            },
            { userId, ...(role !== undefined && { role }) },
            cliTrail(tocsin, 'keys create'),
          );
          return { ...apiKeyView(record), key };
        }),
      );
    });

  keys
    .command('list')
    .description("List an organization's keys (never their values)")
    .requiredOption('--org <id>', 'organization id (org_…)')
    .action(async (o: { org: string }) => {
      const apiKeyView = await keyView();
      out(
        await withTocsin(async ({ services }) => {
          const all: Record<string, unknown>[] = [];
          let cursor: string | undefined;
          do {
            const page = await services.apiAccess.apiKeys.listAsOperator(o.org, { limit: 200, cursor });
            all.push(...page.data.map(apiKeyView));
            cursor = page.next_cursor ?? undefined;
          } while (cursor);
          return { data: all };
        }),
      );
    });

  keys
    .command('revoke')
    .description('Revoke a key (both values, if rotated)')
    .requiredOption('--org <id>', 'organization id (org_…)')
    .argument('<key-id>', 'key id (key_…)')
    .action(async (id: string, o: { org: string }) => {
      const apiKeyView = await keyView();
      out(
        await withTocsin(async (tocsin) =>
          apiKeyView(
            await tocsin.services.apiAccess.apiKeys.revokeAsOperator(o.org, id, cliTrail(tocsin, 'keys revoke')),
          ),
        ),
      );
    });

  keys
    .command('rotate')
    .description('New value for a key; the old one works for the grace period')
    .requiredOption('--org <id>', 'organization id (org_…)')
    .option('--grace <seconds>', 'grace period in seconds (default 86400; 0 ends the old value now)', (v) => Number(v))
    .argument('<key-id>', 'key id (key_…)')
    .action(async (id: string, o: { org: string; grace?: number }) => {
      if (o.grace !== undefined && (!Number.isInteger(o.grace) || o.grace < 0 || o.grace > 2_592_000)) {
        process.stderr.write('tocsin: --grace must be an integer from 0 to 2592000\n');
        process.exit(2);
      }
      const apiKeyView = await keyView();
      out(
        await withTocsin(async (tocsin) => {
          const { record, key } = await tocsin.services.apiAccess.apiKeys.rotateAsOperator(
            o.org,
            id,
            o.grace,
            cliTrail(tocsin, 'keys rotate'),
          );
          return { ...apiKeyView(record), key };
        }),
      );
    });
}
