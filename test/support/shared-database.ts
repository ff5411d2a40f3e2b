import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import type { Dialect } from '../../src/platform/db/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

/**
 * A database for tests that run several Tocsin processes on it: the environment a child process needs to open it,
 * Tocsin opened here (migrated), and an enterprise organization with an owner key that has every scope.
 */
export interface SharedDatabase {
  db: TestDatabase;
  /** The environment of a `tocsin` child process on this database (config file, data dir, DATABASE_URL). */
  env: Record<string, string>;
  tocsin: Tocsin;
  organizationId: string;
  apiKey: string;
}

export async function openSharedDatabase(
  dialect: Dialect,
  options: { name: string; configFile?: string } = { name: 'shared' },
): Promise<SharedDatabase> {
  const db = await createTestDatabase(dialect);
  const dir = mkdtempSync(join(tmpdir(), `tocsin-${options.name}-`));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...(options.configFile !== undefined && { TOCSIN_CONFIG: options.configFile }),
    TOCSIN_DATA_DIR: dialect === 'sqlite' ? dirname(db.url) : dir,
    DATABASE_URL: dialect === 'postgres' ? db.url : '',
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
  };
  const tocsin = await createTocsin(loadConfig({ env, isTty: false }), {
    logger: createLogger({ level: 'error', pretty: false }),
    background: false,
  });
  const org = await tocsin.services.orgs.createOrganization({ name: options.name, plan: 'enterprise' });
  const user = await tocsin.services.orgs.ensureUser({ email: `${options.name}@example.com` });
  await tocsin.services.orgs.addMember(org.id, user.id, 'owner');
  const key = await tocsin.services.auth.issueKey({
    organizationId: org.id,
    name: 'k',
    scopes: [...SCOPES],
    environments: ['production'],
    userId: user.id,
    createdBy: user.id,
  });
  return { db, env, tocsin, organizationId: org.id, apiKey: key.key };
}
