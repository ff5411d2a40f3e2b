import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type PlanName, type TocsinConfig } from '../../src/config/index.ts';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import { SCOPES, type Scope } from '../../src/modules/auth/index.ts';
import { createOrgs } from '../../src/modules/orgs/index.ts';
import { ManualClock, type Clock } from '../../src/platform/clock.ts';
import type { Dialect } from '../../src/platform/db/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import type { Timers } from '../../src/platform/timers.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

/** Log lines written during a test, to assert on (and to check that no secret leaks). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestOrg {
  organizationId: string;
  userId: string;
  apiKey: string;
  keyId: string;
}

export interface TestApp {
  tocsin: Tocsin;
  config: TocsinConfig;
  clock: Clock;
  logs: LogCapture;
  db: TestDatabase;
  /** Creates an organization with an owner and a key (every scope unless given). */
  createOrg(options?: {
    plan?: PlanName;
    scopes?: Scope[];
    environments?: string[];
    role?: 'owner' | 'admin' | 'member';
    /** The organization's default region (the configured default unless given). */
    defaultRegion?: string;
  }): Promise<TestOrg>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  dialect?: Dialect;
  clock?: Clock;
  /** One-shot timers of the app's time limits (default: real ones); ManualTimers fire them on demand. */
  timers?: Timers;
  /** Extra TOCSIN_CONFIG file content (plans, regions, providers …). */
  configFile?: Record<string, unknown>;
  background?: boolean;
}

/** A plan for tests and demos: API, reports, a 1-second floor, generous counts. */
export const TEST_PLANS = {
  enterprise: { interval_floor_seconds: 1 },
};

/** The real app on a fresh database of its own. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dialect = options.dialect ?? 'sqlite';
  const db = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-data-'));
  const env: Record<string, string> = {
    TOCSIN_DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  };
  if (dialect === 'postgres') env.DATABASE_URL = db.url;
  const fileContent = { plans: TEST_PLANS, ...options.configFile };
  env.TOCSIN_CONFIG = '/virtual/tocsin.json';
  const config = loadConfig({ env, readFile: () => JSON.stringify(fileContent), isTty: false });
  if (dialect === 'sqlite') config.dataDir = db.url.replace(/\/tocsin\.db$/, '');
  const logs = new LogCapture();
  const clock = options.clock ?? new ManualClock(Date.now());
  const tocsin = await createTocsin(config, {
    logger: createLogger({ level: 'info', pretty: false, destination: logs }),
    clock,
    ...(options.timers && { timers: options.timers }),
    background: options.background ?? false,
  });
  let n = 0;
  return {
    tocsin,
    config,
    clock,
    logs,
    db,
    async createOrg(o = {}) {
      n += 1;
      const { orgs, auth } = tocsin.services;
      // The service creates organizations in the configured default region; another region needs its own.
      const creator = o.defaultRegion
        ? createOrgs({
            database: tocsin.database,
            clock,
            defaultPlan: config.defaultPlan,
            defaultRegion: o.defaultRegion,
          })
        : orgs;
      const org = await creator.createOrganization({ name: `Org ${n}`, plan: o.plan ?? 'enterprise' });
      const user = await orgs.ensureUser({ email: `owner${n}-${org.id}@example.com` });
      await orgs.addMember(org.id, user.id, o.role ?? 'owner');
      const key = await auth.issueKey({
        organizationId: org.id,
        name: 'test',
        scopes: o.scopes ?? [...SCOPES],
        environments: o.environments ?? ['production', 'staging', 'development'],
        userId: user.id,
        createdBy: user.id,
      });
      return { organizationId: org.id, userId: user.id, apiKey: key.key, keyId: key.id };
    },
    async close() {
      await tocsin.close();
      await db.drop();
    },
  };
}

export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` };
}

export { ManualClock };
