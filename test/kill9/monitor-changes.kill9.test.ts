import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type TocsinConfig } from '../../src/config/index.ts';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const CHILD = new URL('./monitor-changes.child.ts', import.meta.url).pathname;
const KILLS = 8;
/**
 * A bound for hangs, not slowness, per child start (as serve.helpers.ts's): a start is ~1.5 s of CPU, but at load 20 on
 * the 2-core machine the eight starts of one dialect took more than the 120 s this test had in all (it timed out on
 * both dialects, main at 8c015e3, 2026-11-29 12:16 UTC).
 */
const START_BOUND_MS = 300_000;

async function rows<T>(database: Database, query: string): Promise<T[]> {
  return (await sql.raw<T>(query).execute(database.tables<unknown>())).rows;
}

/** What must hold whenever no transaction is open, whatever moment the last process died at. */
async function inconsistencies(database: Database): Promise<string[]> {
  const monitors = await rows<{ id: string; paused: number; region_codes: string }>(
    database,
    'select id, paused, region_codes from monitor',
  );
  const schedule = await rows<{ monitor_id: string; region_code: string }>(
    database,
    'select monitor_id, region_code from check_schedule',
  );
  const pages = await rows<{ id: string; monitor_ids: string }>(database, 'select id, monitor_ids from status_page');
  const problems: string[] = [];
  const regionsOf = new Map<string, string[]>();
  for (const s of schedule) regionsOf.set(s.monitor_id, [...(regionsOf.get(s.monitor_id) ?? []), s.region_code]);
  const ids = new Set(monitors.map((m) => m.id));
  for (const m of monitors) {
    const wanted = Number(m.paused) === 1 ? [] : (JSON.parse(m.region_codes) as string[]);
    const actual = regionsOf.get(m.id) ?? [];
    if ([...wanted].sort().join() !== [...actual].sort().join()) {
      problems.push(`monitor ${m.id} (paused ${m.paused}) wants ${wanted.join()} and has schedule ${actual.join()}`);
    }
  }
  for (const id of regionsOf.keys()) if (!ids.has(id)) problems.push(`schedule rows of missing monitor ${id}`);
  for (const p of pages) {
    for (const id of JSON.parse(p.monitor_ids) as string[]) {
      if (!ids.has(id)) problems.push(`status page ${p.id} shows missing monitor ${id}`);
    }
  }
  return problems;
}

function startChild(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CHILD], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const hung = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child not ready after ${START_BOUND_MS} ms`));
    }, START_BOUND_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('ready\n')) {
        clearTimeout(hung);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(hung);
      reject(new Error(`child exited with ${code} before it was ready`));
    });
  });
}

describe.each(testDialects())('kill -9 during monitor changes (%s)', (dialect) => {
  let db: TestDatabase | undefined;
  let tocsin: Tocsin | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await tocsin?.close();
    await db?.drop();
  });

  it(
    `leaves every change whole or absent after ${KILLS} kills at random moments`,
    { timeout: KILLS * START_BOUND_MS },
    async () => {
      db = await createTestDatabase(dialect);
      const dir = mkdtempSync(join(tmpdir(), 'tocsin-kill9-monitors-'));
      const configPath = join(dir, 'tocsin.json');
      writeFileSync(
        configPath,
        JSON.stringify({ plans: { enterprise: { interval_floor_seconds: 1 } }, regions: ['local', 'eu', 'us'] }),
      );
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        TOCSIN_CONFIG: configPath,
        TOCSIN_DATA_DIR: dialect === 'sqlite' ? dirname(db.url) : dir,
        DATABASE_URL: dialect === 'postgres' ? db.url : '',
        LOG_LEVEL: 'error',
        NODE_ENV: 'production',
      };
      const config: TocsinConfig = loadConfig({ env, isTty: false });
      tocsin = await createTocsin(config, {
        logger: createLogger({ level: 'error', pretty: false }),
        background: false,
      });
      const org = await tocsin.services.orgs.createOrganization({ name: 'kill9', plan: 'enterprise' });
      const user = await tocsin.services.orgs.ensureUser({ email: 'k9@example.com' });
      await tocsin.services.orgs.addMember(org.id, user.id, 'owner');
      const key = await tocsin.services.auth.issueKey({
        organizationId: org.id,
        name: 'k',
        scopes: [...SCOPES],
        environments: ['production'],
        userId: user.id,
        createdBy: user.id,
      });
      const actor = (await tocsin.services.auth.authenticate(key.key))!;
      const page = await tocsin.services.statusPages.create(
        { actor, db: tocsin.database, clock: tocsin.clock },
        { slug: 'kill9', title: 'Kill 9' },
      );
      for (let kill = 0; kill < KILLS; kill++) {
        const child = await startChild({
          ...env,
          KILL9_API_KEY: key.key,
          KILL9_PAGE_ID: page.id,
          KILL9_SEED: String(kill + 1),
        });
        children.push(child);
        await new Promise((r) => setTimeout(r, 150 + Math.random() * 600));
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
        expect(await inconsistencies(tocsin.database)).toEqual([]);
      }
      // The children did change monitors (each printed ready after its first change).
      expect(
        Number((await rows<{ n: number }>(tocsin.database, 'select count(*) as n from monitor'))[0]!.n),
      ).toBeGreaterThan(0);
    },
  );
});
