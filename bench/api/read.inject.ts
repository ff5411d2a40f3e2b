/**
 * One authenticated read in process, through `app.inject` (no socket): Tocsin on SQLite in a temp data dir, info
 * request logs to /dev/null, 8 keys in turn, 2,000 reads of warm-up then 20,000 measured. Prints wall µs and CPU µs
 * (user + system of this process) per read: on a shared machine the CPU figure moves less than the wall one.
 *   node bench/api/read.inject.ts <tree> [path]   tree: a checkout of Tocsin (this one, or a `git worktree` of an
 *                                                 older commit to compare); path: default the monitor read
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
const root = process.argv[2]!;
const path = process.argv[3] ?? 'monitor';
const { loadConfig } = await import(join(root, 'src/config/index.ts'));
const { createTocsin } = await import(join(root, 'src/main.ts'));
const { SCOPES } = await import(join(root, 'src/modules/auth/index.ts'));
const { createLogger } = await import(join(root, 'src/platform/logger.ts'));
const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-inj-'));
const config = loadConfig({
  env: { TOCSIN_DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
  isTty: false,
});
const logger = createLogger({
  level: 'info',
  pretty: false,
  destination: pino.destination({ dest: '/dev/null', sync: false }),
});
const t = await createTocsin(config, { logger, background: false });
const org = await t.services.orgs.createOrganization({ name: 'Bench', plan: 'enterprise' });
const user = await t.services.orgs.ensureUser({ email: 'bench@example.com' });
await t.services.orgs.addMember(org.id, user.id, 'owner');
const keys: string[] = [];
for (let i = 0; i < 8; i++) {
  const key = await t.services.auth.issueKey({
    organizationId: org.id,
    name: `b${i}`,
    scopes: [...SCOPES],
    environments: ['production', 'staging'],
    userId: user.id,
    createdBy: user.id,
    rateLimits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
  });
  keys.push(key.key);
}
const actor = (await t.services.auth.authenticate(keys[0]!))!;
const ctx = { actor, db: t.database, clock: t.clock };
const monitor = await t.services.monitors.create(ctx, {
  name: 's',
  target: 'https://api.example.com/health',
  type: 'http',
  interval_seconds: 60,
  tags: ['a'],
  environment: 'production',
});
const url = path === 'monitor' ? `/api/v1/monitors/${monitor.id}` : path;
async function run(n: number): Promise<{ wall: number; cpu: number }> {
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const r = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${keys[i % 8]}` } });
    if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
  }
  const cpu = process.cpuUsage(cpu0);
  return { wall: Number(process.hrtime.bigint() - t0) / 1000 / n, cpu: (cpu.user + cpu.system) / n };
}
await run(2000);
const { wall, cpu } = await run(20000);
console.log(
  `${root} ${url.replace(monitor.id, '{id}')}: ${wall.toFixed(1)} µs/read wall, ${cpu.toFixed(1)} µs/read CPU`,
);
await t.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
