import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const WEBHOOKS = '/api/v1/auth/organization/webhooks';
const MONITORS = 5;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * How long a child may take to answer /healthz: a hang bound, not a speed one (as in serve.helpers.ts: a start is
 * ~1.2 s of CPU, but on the loaded 2-core machine starts took over 120 s).
 */
const START_TIMEOUT_MS = 300_000;

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface LinkTables {
  destination: { id: string; name: string };
  monitor_destination: { monitor_id: string; destination_id: string };
}

// The dialects run at the same time, each with its own database, data directory, port and processes: much of a
// dialect's time is waiting for a child to start, which the other dialect's work fills. Nothing here blocks the event
// loop (the bootstrap is an async child process), so one dialect's waits do not stall the other's.
for (const dialect of testDialects()) {
  describe.concurrent(`kill -9 during destination create and update (real \`tocsin serve\`, ${dialect})`, () => {
    const children: ChildProcess[] = [];
    let tdb: TestDatabase | null = null;
    afterAll(async () => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      await tdb?.drop();
    });

    it('afterwards every destination has all of its links or none: created with all, updated to the old or the new set', async () => {
      tdb = await createTestDatabase(dialect);
      const dataDir = dialect === 'sqlite' ? dirname(tdb.url) : mkdtempSync(join(tmpdir(), 'tocsin-dst-kill9-'));
      const configPath = join(dataDir, 'tocsin.json');
      writeFileSync(configPath, JSON.stringify({ plans: { enterprise: { interval_floor_seconds: 1 } } }));
      const port = await freePort();
      const env = {
        ...process.env,
        TOCSIN_DATA_DIR: dataDir,
        TOCSIN_CONFIG: configPath,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        DATABASE_URL: dialect === 'postgres' ? tdb.url : '',
      };
      const boot = await promisify(execFile)(
        process.execPath,
        [
          'bin/tocsin.js',
          'admin',
          'bootstrap',
          '--org',
          'Kill9',
          '--email',
          'owner@example.com',
          '--plan',
          'enterprise',
        ],
        { cwd: ROOT, env, encoding: 'utf8' },
      ).then(
        ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
        (e: Error & { code?: number; stdout?: string; stderr?: string }) => ({
          status: e.code ?? null,
          stdout: e.stdout ?? '',
          stderr: e.stderr || e.message,
        }),
      );
      expect(boot.status, boot.stderr).toBe(0);
      const { api_key: key } = JSON.parse(boot.stdout.trim().split('\n').pop()!) as { api_key: string };

      const serve = async (): Promise<ChildProcess> => {
        const child = spawn(process.execPath, ['bin/tocsin.js', 'serve'], { cwd: ROOT, env, stdio: 'ignore' });
        children.push(child);
        await until(
          'serve to listen',
          async () => {
            try {
              return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
            } catch {
              return false;
            }
          },
          START_TIMEOUT_MS,
        );
        return child;
      };
      const call = (method: string, path: string, body: unknown) =>
        fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

      let child = await serve();
      const monitorIds: string[] = [];
      for (let i = 0; i < MONITORS * 2; i++) {
        const res = await call('POST', '/api/v1/monitors', {
          name: `M${i}`,
          target: 'https://example.com',
          interval_seconds: 60,
          paused: true,
        });
        expect(res.status).toBe(201);
        monitorIds.push(String(res.body.id));
      }
      // Updates switch a destination between two sets of monitors; its name says which set it should have.
      const sets = { A: monitorIds.slice(0, MONITORS), B: monitorIds.slice(MONITORS) };
      const updated: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await call('POST', WEBHOOKS, {
          type: 'email',
          name: 'update-A',
          config: { address: 'ops@example.com' },
          monitor_ids: sets.A,
        });
        updated.push(String(res.body.id));
      }

      let n = 0;
      for (let round = 0; round < 4; round++) {
        let stop = false;
        let answered = 0;
        const worker = async () => {
          while (!stop) {
            n += 1;
            const which = n % 2 === 0 ? 'A' : 'B';
            const request =
              n % 3 === 0
                ? call('PATCH', `${WEBHOOKS}/${updated[n % updated.length]!}`, {
                    name: `update-${which}`,
                    monitor_ids: sets[which],
                  })
                : call('POST', WEBHOOKS, {
                    type: 'email',
                    name: `create-${n}`,
                    config: { address: 'ops@example.com' },
                    monitor_ids: sets[which],
                  });
            if ((await request.catch(() => null))?.status === 201) answered += 1;
          }
        };
        const workers = Array.from({ length: 6 }, worker);
        // Let a few changes commit, then kill at a random moment while six requests are in flight.
        await until('some creates to commit', () => answered >= 2);
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 200)));
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        stop = true;
        await Promise.all(workers);
        child = await serve();
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      const db = tdb.reopen().tables<LinkTables>();
      const destinations = await db.selectFrom('destination').select(['id', 'name']).execute();
      const links = await db.selectFrom('monitor_destination').select(['monitor_id', 'destination_id']).execute();
      const linksOf = (id: string) =>
        links
          .filter((l) => l.destination_id === id)
          .map((l) => l.monitor_id)
          .sort();
      let created = 0;
      for (const d of destinations) {
        const got = linksOf(d.id);
        if (d.name.startsWith('update-')) {
          expect(got, d.name).toEqual([...sets[d.name.slice(-1) as 'A' | 'B']].sort());
        } else {
          created += 1;
          expect(got.length, d.name).toBe(MONITORS);
          expect([[...sets.A].sort(), [...sets.B].sort()]).toContainEqual(got);
        }
      }
      // Some creates landed between the kills (otherwise the test proved nothing).
      expect(created).toBeGreaterThan(4);
      // No link without its destination (the foreign key holds it; checked anyway).
      const ids = new Set(destinations.map((d) => d.id));
      expect(links.every((l) => ids.has(l.destination_id))).toBe(true);
      // A bound for hangs: five process starts (each bounded above) and four rounds of requests; the two dialects share
      // the machine's two cores while they run.
    }, 300_000);
  });
}
