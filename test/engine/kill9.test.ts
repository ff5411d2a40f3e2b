import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { skipWithout } from '../support/services.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';
import { rows } from './engine.helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** kill -9 of one of two `tocsin serve` processes on PostgreSQL: its checks continue within the lease; no duplicate incident. */
describe.skipIf(skipWithout('postgres'))('kill -9 of one of two serve processes (PostgreSQL)', () => {
  let db: TestDatabase;
  let tocsin: Tocsin;
  let target: RunningTarget;
  const procs: ChildProcess[] = [];
  afterAll(async () => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    await target?.close();
    await tocsin?.close();
    await db?.drop();
  });

  it(
    'the survivor takes over after the lease and exactly one incident per outage exists',
    { timeout: 90_000 },
    async () => {
      let status = 503;
      target = await startHttpTarget((_req, res) => {
        res.writeHead(status);
        res.end();
      });
      db = await createTestDatabase('postgres');
      const dir = mkdtempSync(join(tmpdir(), 'tocsin-kill9-'));
      const configPath = join(dir, 'tocsin.json');
      writeFileSync(
        configPath,
        JSON.stringify({ plans: { enterprise: { interval_floor_seconds: 1 } }, scheduler: { lease_seconds: 3 } }),
      );
      const env = {
        ...process.env,
        DATABASE_URL: db.url,
        TOCSIN_CONFIG: configPath,
        TOCSIN_DATA_DIR: dir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      } as Record<string, string>;
      tocsin = await createTocsin(loadConfig({ env, isTty: false }), {
        logger: createLogger({ level: 'warn', pretty: false }),
        background: false,
      });
      const org = await tocsin.services.orgs.createOrganization({ name: 'kill9', plan: 'enterprise' });
      const user = await tocsin.services.orgs.ensureUser({ email: 'k@example.com' });
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
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const m = await tocsin.services.monitors.create(
          { actor, db: tocsin.database, clock: tocsin.clock },
          {
            target: `${target.url}/m${i}`,
            interval_seconds: 1,
            // 1 s + the 2 s lease margin: the 3 s lease holds (a longer timeout would lengthen the lease, and the takeover).
            config: { failure_threshold: 2, timeout_ms: 1_000 },
          },
        );
        ids.push(m.id);
      }
      for (const port of [0, 0]) {
        const p = spawn(process.execPath, ['bin/tocsin.js', 'serve', '--port', String(port), '--host', '127.0.0.1'], {
          env,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        procs.push(p);
      }
      const monitors = () => tocsin.services.monitors.findManyAnywhere(ids);
      await until('every monitor down', async () => (await monitors()).every((m) => m.status === 'down'), 30_000);

      procs[0]!.kill('SIGKILL');
      const killedAt = Date.now();
      await sleep(500);
      // Every monitor keeps being checked: by the survivor, at the latest once the dead process's 3 s leases end.
      await until(
        'every monitor checked after the kill',
        async () => (await monitors()).every((m) => (m.lastCheckedAt ?? 0) > killedAt + 3_000),
        15_000,
      );
      const takeover = Math.max(...(await monitors()).map((m) => m.lastCheckedAt!)) - killedAt;
      expect(takeover).toBeLessThan(10_000);

      status = 200;
      await until('every monitor up', async () => (await monitors()).every((m) => m.status === 'up'), 20_000);
      const incidents = await rows<{ monitor_id: string; status: string }>(
        db.database,
        'select monitor_id, status from incident',
      );
      expect(incidents).toHaveLength(ids.length);
      expect(new Set(incidents.map((i) => i.monitor_id)).size).toBe(ids.length);
      expect(incidents.every((i) => i.status === 'resolved')).toBe(true);
      const downEvents = await rows<{ n: string }>(
        db.database,
        "select count(*) as n from domain_event where type = 'down'",
      );
      expect(Number(downEvents[0]!.n)).toBe(ids.length);
    },
  );
});
