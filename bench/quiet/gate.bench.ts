/**
 * The two places where maintenance windows cost CPU while checks run, in-process and with nothing else going on, for
 * this tree or another (`--root`, e.g. a worktree of the commit before a change; its own src/ is loaded):
 *   - one pass of the maintenance-events role (every 5 s in `tocsin serve`) over `--windows` windows;
 *   - one `MaintenanceService.coveringAt` (the gate, in the check transaction of every down) for a monitor no window
 *     covers.
 *   node bench/quiet/gate.bench.ts [--root /path/to/tree] [--windows 1000] [--passes 20] [--calls 200]
 *     [--dialect sqlite|postgres]
 * The windows are those of bench/quiet/quiet.bench.ts (a quarter each once/recurring × by monitor/by tag, a fifth
 * active), made through the service. CPU = process.cpuUsage around the loop (the first pass, which emits the
 * `maintenance_started` events, is left out). PostgreSQL: DATABASE_URL or TOCSIN_TEST_POSTGRES_URL (a fresh database).
 */
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: new URL('../../', import.meta.url).pathname },
    windows: { type: 'string', default: '1000' },
    passes: { type: 'string', default: '20' },
    calls: { type: 'string', default: '200' },
    dialect: { type: 'string', default: 'sqlite' },
  },
});
const root = pathToFileURL(`${resolve(args.root)}/`);
const from = (path: string) => import(new URL(path, root).href);
const { loadConfig } = (await from('src/config/index.ts')) as typeof import('../../src/config/index.ts');
const { createTocsin } = (await from('src/main.ts')) as typeof import('../../src/main.ts');
const { SCOPES } = (await from('src/modules/auth/index.ts')) as typeof import('../../src/modules/auth/index.ts');
const { createLogger } = (await from('src/platform/logger.ts')) as typeof import('../../src/platform/logger.ts');
const { MaintenanceEventsRole } = (await from(
  'src/modules/maintenance/index.ts',
)) as typeof import('../../src/modules/maintenance/index.ts');

const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  TOCSIN_DATA_DIR: mkdtempSync(join(tmpdir(), 'tocsin-bench-gate-')),
  LOG_LEVEL: 'warn',
};
delete env.TOCSIN_CONFIG;
delete env.DATABASE_URL;
const pgBase =
  process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pgName = args.dialect === 'postgres' ? `tocsin_gate_${process.pid}` : null;
if (pgName) {
  const admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pgName}`);
  await admin.end();
  const u = new URL(pgBase);
  u.pathname = `/${pgName}`;
  env.DATABASE_URL = u.toString();
}
const logger = createLogger({ level: 'warn', pretty: false });
const t = await createTocsin(loadConfig({ env, isTty: false }), { logger, background: false });
const org = await t.services.orgs.createOrganization({ name: 'gate', plan: 'enterprise' });
const user = await t.services.orgs.ensureUser({ email: 'gate@example.com' });
await t.services.orgs.addMember(org.id, user.id, 'owner');
const key = await t.services.auth.issueKey({
  organizationId: org.id,
  name: 'bench',
  scopes: [...SCOPES],
  environments: ['production'],
  userId: user.id,
  createdBy: user.id,
});
const ctx = { actor: (await t.services.auth.authenticate(key.key))!, db: t.database, clock: t.clock };
const monitorIds: string[] = [];
for (let i = 0; i < 200; i++)
  monitorIds.push(
    (
      await t.services.monitors.create(ctx, {
        target: `http://127.0.0.1:9/m/${i}`,
        interval_seconds: 30,
        name: `m${i}`,
        tags: [`team-${i % 50}`],
      })
    ).id,
  );
const now = Date.now();
const hhmm = (x: number) => new Date(x).toISOString().slice(11, 16);
const iso = (x: number) => new Date(x).toISOString();
for (let i = 0; i < Number(args.windows); i++) {
  const recurring = i % 2 === 1;
  const byTag = i % 4 >= 2;
  const active = i % 10 <= 1;
  let schedule: Record<string, unknown>;
  if (!recurring) {
    const start = active ? now - 600_000 : now + (i % 3 === 0 ? -1 : 1) * (1 + (i % 30)) * 86_400_000;
    schedule = { type: 'once', starts_at: iso(start), ends_at: iso(start + (active ? 4 : 1) * 3_600_000) };
  } else if (active) {
    const start = now - 600_000;
    schedule = {
      type: 'recurring',
      rrule: 'FREQ=DAILY',
      start_time: hhmm(start),
      duration_minutes: 240,
      start_date: iso(start).slice(0, 10),
    };
  } else {
    const rrule = ['FREQ=DAILY;INTERVAL=7', 'FREQ=WEEKLY;BYDAY=MO,WE', 'FREQ=MONTHLY;BYMONTHDAY=15'][i % 3]!;
    schedule = { type: 'recurring', rrule, start_time: hhmm(now + 6 * 3_600_000), duration_minutes: 60 };
  }
  const k = (i * 5) % 195;
  await t.services.maintenance.create(ctx, {
    name: `window ${i}`,
    ...(byTag ? { tags: [`team-${i % 50}`] } : { monitor_ids: monitorIds.slice(k, k + 5) }),
    schedule: schedule as never,
    timezone: 'UTC',
  });
}

const role = new MaintenanceEventsRole({
  database: t.database,
  clock: t.clock,
  logger,
  events: t.services.events,
  incidents: t.services.incidents,
  monitors: t.services.monitors,
  windows: t.services.maintenance,
});
const first = await role.runPass();
const cpuMsOf = async (n: number, work: () => Promise<unknown>) => {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  for (let i = 0; i < n; i++) await work();
  const c = process.cpuUsage(c0);
  return { cpu: +((c.user + c.system) / 1000 / n).toFixed(3), wall: +((performance.now() - w0) / n).toFixed(3) };
};
const pass = await cpuMsOf(Number(args.passes), () => role.runPass());
const gate = await cpuMsOf(Number(args.calls), () =>
  t.services.maintenance.coveringAt(t.database, org.id, { id: 'mon_uncovered', tags: ['canary'] }, Date.now()),
);
await t.close();
if (pgName) {
  const admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  await admin.end();
}
console.log(
  JSON.stringify({
    root: resolve(args.root),
    dialect: args.dialect,
    windows: Number(args.windows),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    date: new Date().toISOString(),
    load: loadavg().map((x) => +x.toFixed(2)),
    first_pass_emitted: first.emitted,
    role_pass_cpu_ms: pass.cpu,
    role_pass_wall_ms: pass.wall,
    gate_covering_at_cpu_ms: gate.cpu,
    gate_covering_at_wall_ms: gate.wall,
  }),
);
process.exit(0);
