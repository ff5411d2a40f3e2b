/**
 * The two servers of the API benchmark, each run in a child process of its own so that the load
 * generator (autocannon, in the parent) does not share their event loop.
 *   node bench/api/api.servers.ts bare    → a bare Fastify hello-world
 *   node bench/api/api.servers.ts tocsin  → Tocsin on SQLite in a temp data dir, one enterprise org and 8 keys
 *     (BENCH_MONITORS=n: also n monitors, made through the service, spread over tags, types and environments)
 *   node bench/api/api.servers.ts floor <tocsin.db> <key,…> [memory]  → the least any server must do for the mix's
 *     requests (api.floor.ts) on a copy of a Tocsin database; `memory`: reads and lists from an in-memory copy
 * Each prints nothing and tells the parent `{port, keys?, monitorIds?}` over IPC.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { floorServer } from './api.floor.ts';

const KEYS = 8;

function tell(message: Record<string, unknown>): void {
  if (!process.send) throw new Error('run me through bench/api/api.bench.ts');
  process.send(message);
}

async function bare(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  tell({ port: (app.server.address() as { port: number }).port });
  process.once('SIGTERM', () => process.exit(0));
}

async function tocsin(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-'));
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    env: { TOCSIN_DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    isTty: false,
  });
  // Logs as in production (info, one JSON line per request), written to /dev/null instead of a terminal.
  const logger = createLogger({
    level: 'info',
    pretty: false,
    destination: pino.destination({ dest: '/dev/null', sync: false }) as unknown as NodeJS.WritableStream,
  });
  // Background roles (scheduler, workers) are off: this measures the API alone.
  const t = await createTocsin(config, { logger, background: false });
  const org = await t.services.orgs.createOrganization({ name: 'Bench', plan: 'enterprise' });
  const user = await t.services.orgs.ensureUser({ email: 'bench@example.com' });
  await t.services.orgs.addMember(org.id, user.id, 'owner');
  // The largest budget a key may have is 100,000 requests per minute; a fast server spends that in
  // seconds, so the load is spread over several keys (as several clients would) to measure serving, not 429s.
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const key = await t.services.auth.issueKey({
      organizationId: org.id,
      name: `bench ${i}`,
      scopes: [...SCOPES],
      environments: ['production', 'staging'],
      userId: user.id,
      createdBy: user.id,
      rateLimits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
    });
    keys.push(key.key);
  }
  const monitorIds: string[] = [];
  const actor = (await t.services.auth.authenticate(keys[0]!))!;
  const ctx = { actor, db: t.database, clock: t.clock };
  for (let i = 0; i < Number(process.env.BENCH_MONITORS ?? 0); i++) {
    const monitor = await t.services.monitors.create(ctx, {
      name: `service ${i}`,
      target: i % 3 === 0 ? `shop-${i}.example.com:443` : `https://api-${i}.example.com/health`,
      type: i % 3 === 0 ? 'tcp' : 'http',
      interval_seconds: 60,
      tags: [`team-${i % 20}`, i % 2 === 0 ? 'public' : 'internal'],
      environment: i % 4 === 0 ? 'staging' : 'production',
      paused: i % 10 === 0,
    });
    monitorIds.push(monitor.id);
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  tell({ port: (t.app.server.address() as { port: number }).port, keys, monitorIds });
  process.once('SIGTERM', () => {
    void t.close().then(() => process.exit(0));
  });
}

const mode = process.argv[2];
if (mode === 'bare') await bare();
else if (mode === 'tocsin') await tocsin();
else if (mode === 'floor') {
  const app = floorServer(process.argv[3]!, process.argv[4]!.split(','), process.argv[5] === 'memory');
  await app.listen({ port: 0, host: '127.0.0.1' });
  tell({ port: (app.server.address() as { port: number }).port });
  process.once('SIGTERM', () => process.exit(0));
} else throw new Error(`unknown mode ${mode}`);
