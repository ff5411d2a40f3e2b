/**
 * Issue 31's speed goal: with 10,000 monitors, 1,000 maintenance windows and 100 silences, CPU per check rises by at
 * most 5 % and alert latency p99 stays under 250 ms.
 *   node bench/quiet/quiet.bench.ts [--dialect sqlite|postgres] [--monitors 10000] [--interval 30] [--windows 1000]
 *     [--silences 100] [--canaries 200] [--flap-seconds 60] [--rounds 3] [--warm 60] [--window 120] [--cpu-prof DIR]
 *     [--heap-prof DIR] (V8's sampling heap profile of each serve: where its allocations come from)
 * Two real `tocsin serve` processes of this tree run side by side, each on its own database with the default config
 * (no TOCSIN_CONFIG; the organization is on the enterprise plan, whose 10 s floor allows 10,000 monitors at 30 s):
 * "plain" without windows or silences, "quiet" with `--windows` maintenance windows and `--silences` silences. Both
 * get the same monitors through the API (POST /api/v1/monitors) against loopback targets (bench/engine/targets.child.ts):
 *   - steady monitors (tags team-0..49, svc-0..199) that stay up;
 *   - `--canaries` monitors (tag canary) that go down and up every `--flap-seconds` and alert a webhook receiver in
 *     this process; no window or silence covers them: their `down` latency is the figure;
 *   - 50 "held" flappers inside active windows (quiet: the gate holds their down) and 50 "silenced" flappers matched
 *     by active silences (quiet: their deliveries are recorded as silenced, never sent).
 * Windows (quiet only, through POST /api/v1/maintenance-windows): a quarter each once/by monitor, recurring/by monitor,
 * once/by tag, recurring/by tag; a fifth active now; recurring ones DAILY, WEEKLY or MONTHLY. Silences (POST
 * /api/v1/silences): 50 active on one silenced flapper each, 30 active on team tags, 10 pending on `canary`,
 * 10 active on `canary` for `cert_expiring` only (none of those may hold a canary's `down`).
 * Each round starts both processes, warms up, measures CPU (/proc utime + stime) over the same window for both and
 * stops them (SIGTERM). Checks in the window and their lateness are read back from the stored executions
 * (slots.from-executions.ts); CPU per check = CPU ms / checks. Alert latency = arrival at the receiver − the event's
 * `occurred_at` (the failing check's start), − the check's scheduled slot (its schedule row's phase), and − the
 * down event's row `created_at` (written in the check's result transaction; bench/alerting's starting point). The
 * runner sends results in batches every 250 ms at most (check.runner.ts `flushMs`), which the first two include.
 * PostgreSQL: DATABASE_URL or TOCSIN_TEST_POSTGRES_URL (a fresh database per configuration, dropped at the end).
 */
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import {
  cpuMsOf,
  startReceiver,
  startServe,
  stopAll,
  type Delivery,
  type Proc,
} from '../engine/scale-out.processes.ts';
import { slotsFromExecutions } from '../engine/slots.from-executions.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    monitors: { type: 'string', default: '10000' },
    interval: { type: 'string', default: '30' },
    windows: { type: 'string', default: '1000' },
    silences: { type: 'string', default: '100' },
    canaries: { type: 'string', default: '200' },
    'flap-seconds': { type: 'string', default: '60' },
    rounds: { type: 'string', default: '3' },
    warm: { type: 'string', default: '60' },
    window: { type: 'string', default: '120' },
    'cpu-prof': { type: 'string' },
    'heap-prof': { type: 'string' },
  },
});
const dialect = args.dialect;
if (dialect !== 'sqlite' && dialect !== 'postgres') throw new Error('--dialect is sqlite or postgres');
const intervalS = Number(args.interval);
const canaries = Number(args.canaries);
const HELD = 50;
const SILENCED = 50;
const steady = Number(args.monitors) - canaries - HELD - SILENCED;
if (steady < 1) throw new Error('--monitors must exceed the flapping monitors');
const windowCount = Number(args.windows);
const silenceCount = Number(args.silences);
const warmMs = Number(args.warm) * 1000;
const windowMs = Number(args.window) * 1000;
const nodeFlags = ['--max-old-space-size=512', ...SERVICE_NODE_FLAGS];
const pgBase =
  process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const targets: ChildProcess = fork(
  new URL('../engine/targets.child.ts', import.meta.url),
  ['4', '0', String(Number(args['flap-seconds']) * 1000)],
  { stdio: 'inherit' },
);
const { ports } = await new Promise<{ ports: number[] }>((resolve) =>
  targets.once('message', (m) => resolve(m as { ports: number[] })),
);

type Group = 'steady' | 'canary' | 'held' | 'silenced';
interface Setup {
  name: 'plain' | 'quiet';
  env: Record<string, string>;
  pgName: string | null;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  groupOf: Map<string, Group>;
  setupSeconds: number;
}

/** Requests with `concurrency` in flight; throws on the first answer other than 201. */
async function postAll(port: number, key: string, path: string, bodies: unknown[], concurrency = 8) {
  const ids: string[] = new Array<string>(bodies.length);
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(bodies[i]),
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`POST ${path} → ${response.status}: ${text.slice(0, 500)}`);
      ids[i] = (JSON.parse(text) as { id: string }).id;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const iso = (t: number) => new Date(t).toISOString();

function windowBodies(now: number, steadyIds: string[], heldIds: string[]): unknown[] {
  const bodies: unknown[] = [];
  let held = 0;
  for (let i = 0; i < windowCount; i++) {
    const recurring = i % 2 === 1;
    const byTag = i % 4 >= 2;
    const active = i % 10 <= 1; // a fifth, once and recurring, by monitor and by tag
    const monitorIds = byTag ? [] : Array.from({ length: 5 }, (_, k) => steadyIds[(i * 5 + k) % steadyIds.length]!);
    // The held flappers: one each in the active once-by-monitor windows (i ≡ 0 mod 20), the rest in the last ones.
    if (!byTag && active && !recurring && held < heldIds.length) monitorIds.push(heldIds[held++]!);
    let schedule: unknown;
    if (!recurring) {
      const start = active ? now - 10 * 60_000 : now + (i % 3 === 0 ? -1 : 1) * (1 + (i % 30)) * 86_400_000;
      schedule = { type: 'once', starts_at: iso(start), ends_at: iso(start + (active ? 4 * 3_600_000 : 3_600_000)) };
    } else if (active) {
      const start = now - 10 * 60_000;
      schedule = {
        type: 'recurring',
        rrule: 'FREQ=DAILY',
        start_time: hhmm(start),
        duration_minutes: 240,
        start_date: day(start),
      };
    } else {
      const rrule = ['FREQ=DAILY;INTERVAL=7', 'FREQ=WEEKLY;BYDAY=MO,WE', 'FREQ=MONTHLY;BYMONTHDAY=15'][i % 3]!;
      schedule = { type: 'recurring', rrule, start_time: hhmm(now + 6 * 3_600_000), duration_minutes: 60 };
    }
    bodies.push({
      name: `window ${i}`,
      ...(byTag ? { tags: [`team-${i % 50}`] } : { monitor_ids: monitorIds }),
      schedule,
      timezone: 'UTC',
      suppress_alerts: true,
    });
  }
  // Any held flapper left over (fewer windows than 20 × HELD): one more active window covering them.
  if (held < heldIds.length)
    bodies.push({
      name: 'window held',
      monitor_ids: heldIds.slice(held),
      schedule: { type: 'once', starts_at: iso(now - 600_000), ends_at: iso(now + 4 * 3_600_000) },
      timezone: 'UTC',
      suppress_alerts: true,
    });
  return bodies;
}

function silenceBodies(now: number, silencedIds: string[]): unknown[] {
  const bodies: unknown[] = [];
  const ends = iso(now + 4 * 3_600_000);
  for (let i = 0; i < silenceCount; i++) {
    const comment = `silence ${i}`;
    if (i < silencedIds.length) bodies.push({ matchers: { monitor_ids: [silencedIds[i]] }, ends_at: ends, comment });
    else if (i < silenceCount * 0.8) bodies.push({ matchers: { tags: [`team-${i % 50}`] }, ends_at: ends, comment });
    else if (i < silenceCount * 0.9)
      bodies.push({
        matchers: { tags: ['canary'] },
        starts_at: iso(now + 86_400_000),
        ends_at: iso(now + 2 * 86_400_000),
        comment,
      });
    else bodies.push({ matchers: { tags: ['canary'], events: ['cert_expiring'] }, ends_at: ends, comment });
  }
  return bodies;
}

async function prepare(name: 'plain' | 'quiet'): Promise<Setup> {
  const t0 = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), `tocsin-bench-quiet-${name}-`));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    TOCSIN_DATA_DIR: dataDir,
    TOCSIN_MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  delete env.TOCSIN_CONFIG; // the default configuration
  delete env.DATABASE_URL;
  let pgName: string | null = null;
  if (dialect === 'postgres') {
    pgName = `tocsin_quiet_${name}_${process.pid}`;
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgName}`);
    await admin.end();
    const u = new URL(pgBase);
    u.pathname = `/${pgName}`;
    env.DATABASE_URL = u.toString();
  }
  const setup = await createTocsin(loadConfig({ env, isTty: false }), {
    logger: createLogger({ level: 'warn', pretty: false }),
    background: false,
  });
  const org = await setup.services.orgs.createOrganization({ name: `quiet ${name}`, plan: 'enterprise' });
  const user = await setup.services.orgs.ensureUser({ email: `${name}@example.com` });
  await setup.services.orgs.addMember(org.id, user.id, 'owner');
  const key = await setup.services.auth.issueKey({
    organizationId: org.id,
    name: 'bench',
    scopes: [...SCOPES],
    environments: ['production'],
    userId: user.id,
    createdBy: user.id,
    rateLimits: { read_per_minute: 1_000_000, write_per_minute: 1_000_000, delete_per_minute: 1_000_000 },
  });
  await setup.close();

  const receiver = await startReceiver();
  const serve = await startServe(`${name} setup`, env, nodeFlags);
  try {
    const port = serve.port!;
    const [destinationId] = await postAll(port, key.key, '/api/v1/auth/organization/webhooks', [
      { type: 'generic_webhook', name: 'receiver', config: { url: receiver.url } },
    ]);
    const groups: Group[] = [
      ...Array<Group>(steady).fill('steady'),
      ...Array<Group>(canaries).fill('canary'),
      ...Array<Group>(HELD).fill('held'),
      ...Array<Group>(SILENCED).fill('silenced'),
    ];
    const ids = await postAll(
      port,
      key.key,
      '/api/v1/monitors',
      groups.map((group, i) => ({
        target: `http://127.0.0.1:${ports[i % ports.length]}/${group === 'steady' ? 'm' : 'flap'}/${i}`,
        interval_seconds: intervalS,
        name: `${group} ${i}`,
        tags: group === 'steady' ? [`team-${i % 50}`, `svc-${i % 200}`] : [group],
        config: {
          timeout_ms: 5_000,
          ...(group !== 'steady' && {
            failure_threshold: 1,
            success_threshold: 1,
            alert_destination_ids: [destinationId],
          }),
        },
      })),
    );
    const groupOf = new Map(ids.map((id, i) => [id, groups[i]!]));
    const idsOf = (g: Group) => ids.filter((_, i) => groups[i] === g);
    if (name === 'quiet') {
      const now = Date.now();
      await postAll(port, key.key, '/api/v1/maintenance-windows', windowBodies(now, idsOf('steady'), idsOf('held')));
      await postAll(port, key.key, '/api/v1/silences', silenceBodies(now, idsOf('silenced')));
    }
    const codes = await stopAll([serve]);
    if (codes[0] !== 0) throw new Error(`${name} setup serve exited with ${codes[0]}`);
    const setupSeconds = Math.round((Date.now() - t0) / 1000);
    process.stderr.write(
      `${name}: ${ids.length} monitors${name === 'quiet' ? ', windows, silences' : ''} in ${setupSeconds} s\n`,
    );
    return { name, env, pgName, receiver, groupOf, setupSeconds };
  } finally {
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  }
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface RoundFigures {
  config: 'plain' | 'quiet';
  round: number;
  load: number[];
  cpuMs: number;
  checks: number;
  checksPerSecond: number;
  cpuMsPerCheck: number;
  latenessP99Ms: number;
  canaryDowns: number;
  alertFromStartMs: number[];
  alertFromSlotMs: number[];
  /** From the down event's row (written in the check's transaction) to the receiver. */
  alertFromRecordMs: number[];
  /** The stages of a canary `down`, each in ms: check start → event row → delivery row (fan-out) → receiver. */
  stages: { toEventRow: number[]; toDeliveryRow: number[]; toReceiver: number[] };
  /** Down deliveries of held and silenced flappers (quiet: must be 0). */
  heldDowns: number;
  silencedDowns: number;
}

const ascending = (xs: number[]) => xs.sort((a, b) => a - b);

/** Each canary `down`'s time split at the event row and the delivery row (only downs with both rows found). */
function stagesOf(canary: Delivery[], recordedAt: Map<string, number>, fannedAt: Map<string, number>) {
  const whole = canary.filter((d) => recordedAt.has(d.eventId) && fannedAt.has(d.eventId));
  return {
    toEventRow: ascending(whole.map((d) => recordedAt.get(d.eventId)! - d.occurredAt!)),
    toDeliveryRow: ascending(whole.map((d) => fannedAt.get(d.eventId)! - recordedAt.get(d.eventId)!)),
    toReceiver: ascending(whole.map((d) => d.at - fannedAt.get(d.eventId)!)),
  };
}

const p50p99 = (xs: number[]) => ({ p50: pct(xs, 50), p99: pct(xs, 99), max: xs.at(-1) });

async function phasesOf(env: Record<string, string>) {
  const app = await createTocsin(loadConfig({ env, isTty: false }), {
    logger: createLogger({ level: 'warn', pretty: false }),
    background: false,
    migrate: false,
  });
  return app;
}

async function readBack(
  s: Setup,
  round: number,
  cpuMs: number,
  windowStart: number,
  windowEnd: number,
  load: number[],
) {
  const app = await phasesOf(s.env);
  try {
    const db = app.database.tables<unknown>();
    const slots = await slotsFromExecutions(db, intervalS * 1000, windowStart, windowEnd);
    const phase = new Map(
      (
        await sql<{
          monitor_id: string;
          phase_ms: string | number;
        }>`select monitor_id, phase_ms from check_schedule`.execute(db)
      ).rows.map((r) => [r.monitor_id, Number(r.phase_ms)]),
    );
    // When the down event was written (in the check's transaction): the alerting bench's starting point.
    const recordedAt = new Map(
      (
        await sql<{ id: string; created_at: string | number }>`
          select id, created_at from domain_event where type = 'down' and occurred_at >= ${windowStart}`.execute(db)
      ).rows.map((r) => [r.id, Number(r.created_at)]),
    );
    // When the fan-out wrote each down's delivery row (one per event here: the canaries alert one webhook).
    const fannedAt = new Map(
      (
        await sql<{ event_id: string; created_at: string | number }>`
          select event_id, min(created_at) as created_at from delivery
          where event_type = 'down' and created_at >= ${windowStart} group by event_id`.execute(db)
      ).rows.map((r) => [r.event_id, Number(r.created_at)]),
    );
    const downs = s.receiver.deliveries.filter(
      (d: Delivery) =>
        d.type === 'down' && d.occurredAt !== null && d.occurredAt >= windowStart && d.occurredAt < windowEnd,
    );
    const canary = downs.filter((d) => s.groupOf.get(d.monitorId ?? '') === 'canary');
    const intervalMs = intervalS * 1000;
    const slotOf = (d: Delivery) => {
      const p = phase.get(d.monitorId!) ?? 0;
      return d.occurredAt! - ((((d.occurredAt! - p) % intervalMs) + intervalMs) % intervalMs);
    };
    return {
      config: s.name,
      round,
      load,
      cpuMs,
      checks: slots.checksInWindow,
      checksPerSecond: +(slots.checksInWindow / ((windowEnd - windowStart) / 1000)).toFixed(1),
      cpuMsPerCheck: +(cpuMs / slots.checksInWindow).toFixed(4),
      latenessP99Ms: pct(slots.lateness, 99),
      canaryDowns: canary.length,
      alertFromStartMs: canary.map((d) => d.at - d.occurredAt!).sort((a, b) => a - b),
      alertFromSlotMs: canary.map((d) => d.at - slotOf(d)).sort((a, b) => a - b),
      alertFromRecordMs: canary
        .filter((d) => recordedAt.has(d.eventId))
        .map((d) => d.at - recordedAt.get(d.eventId)!)
        .sort((a, b) => a - b),
      stages: stagesOf(canary, recordedAt, fannedAt),
      heldDowns: downs.filter((d) => s.groupOf.get(d.monitorId ?? '') === 'held').length,
      silencedDowns: downs.filter((d) => s.groupOf.get(d.monitorId ?? '') === 'silenced').length,
    } satisfies RoundFigures;
  } finally {
    await app.close();
  }
}

const setups = [await prepare('plain'), await prepare('quiet')];
const rounds: RoundFigures[] = [];
try {
  for (let round = 1; round <= Number(args.rounds); round++) {
    // Start order alternates (the second process starts on a machine the first already loads).
    const order = round % 2 ? setups : [...setups].reverse();
    const procs: Proc[] = [];
    try {
      for (const s of order) {
        const profDir = args['cpu-prof'] === undefined ? null : join(args['cpu-prof'], `${s.name}-round${round}`);
        if (profDir) mkdirSync(profDir, { recursive: true });
        const heapDir = args['heap-prof'] === undefined ? null : join(args['heap-prof'], `${s.name}-round${round}`);
        if (heapDir) mkdirSync(heapDir, { recursive: true });
        procs.push(
          await startServe(s.name, s.env, [
            ...nodeFlags,
            ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
            ...(heapDir ? ['--heap-prof', `--heap-prof-dir=${heapDir}`] : []),
          ]),
        );
      }
      await new Promise((r) => setTimeout(r, warmMs));
      const cpu0 = procs.map((p) => cpuMsOf(p.child.pid!));
      const windowStart = Date.now();
      await new Promise((r) => setTimeout(r, windowMs));
      const windowEnd = Date.now();
      const cpu1 = procs.map((p) => cpuMsOf(p.child.pid!));
      const load = loadavg().map((l) => +l.toFixed(2));
      // Deliveries of downs late in the window arrive after it: wait for them before stopping.
      await new Promise((r) => setTimeout(r, 5_000));
      const codes = await stopAll(procs);
      if (codes.some((c) => c !== 0)) throw new Error(`round ${round}: exit codes ${codes.join(', ')}`);
      for (const [i, s] of order.entries()) {
        const figures = await readBack(s, round, cpu1[i]! - cpu0[i]!, windowStart, windowEnd, load);
        rounds.push(figures);
        const { alertFromStartMs, alertFromSlotMs, alertFromRecordMs, stages, ...rest } = figures;
        process.stdout.write(
          `${JSON.stringify({
            ...rest,
            alert_from_start_p99_ms: pct(alertFromStartMs, 99),
            alert_from_slot_p99_ms: pct(alertFromSlotMs, 99),
            alert_from_event_row_p99_ms: pct(alertFromRecordMs, 99),
            stages_ms: {
              check_start_to_event_row: p50p99(stages.toEventRow),
              event_row_to_delivery_row: p50p99(stages.toDeliveryRow),
              delivery_row_to_receiver: p50p99(stages.toReceiver),
            },
          })}\n`,
        );
      }
    } finally {
      for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    }
  }
} finally {
  targets.disconnect();
  for (const s of setups) await s.receiver.close();
  for (const s of setups)
    if (s.pgName) {
      const admin = new pg.Client({ connectionString: pgBase });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${s.pgName} WITH (FORCE)`);
      await admin.end();
    }
}

const summary = setups.map((s) => {
  const mine = rounds.filter((r) => r.config === s.name);
  const fromStart = mine.flatMap((r) => r.alertFromStartMs).sort((a, b) => a - b);
  const fromSlot = mine.flatMap((r) => r.alertFromSlotMs).sort((a, b) => a - b);
  const fromRecord = mine.flatMap((r) => r.alertFromRecordMs).sort((a, b) => a - b);
  return {
    config: s.name,
    setup_seconds: s.setupSeconds,
    rounds: mine.length,
    cpu_ms_per_check: mine.map((r) => r.cpuMsPerCheck),
    cpu_ms_per_check_median: median(mine.map((r) => r.cpuMsPerCheck)),
    checks_per_second: mine.map((r) => r.checksPerSecond),
    lateness_p99_ms: mine.map((r) => r.latenessP99Ms),
    canary_downs_delivered: fromStart.length,
    alert_latency_from_check_start_ms: { p50: pct(fromStart, 50), p99: pct(fromStart, 99), max: fromStart.at(-1) },
    alert_latency_from_scheduled_slot_ms: { p50: pct(fromSlot, 50), p99: pct(fromSlot, 99), max: fromSlot.at(-1) },
    alert_latency_from_event_row_ms: { p50: pct(fromRecord, 50), p99: pct(fromRecord, 99), max: fromRecord.at(-1) },
    stages_ms: {
      check_start_to_event_row: p50p99(ascending(mine.flatMap((r) => r.stages.toEventRow))),
      event_row_to_delivery_row: p50p99(ascending(mine.flatMap((r) => r.stages.toDeliveryRow))),
      delivery_row_to_receiver: p50p99(ascending(mine.flatMap((r) => r.stages.toReceiver))),
    },
    held_downs_delivered: mine.reduce((a, r) => a + r.heldDowns, 0),
    silenced_downs_delivered: mine.reduce((a, r) => a + r.silencedDowns, 0),
  };
});
const [plain, quiet] = summary;
const ratios = rounds
  .filter((r) => r.config === 'quiet')
  .map((q) => q.cpuMsPerCheck / rounds.find((p) => p.config === 'plain' && p.round === q.round)!.cpuMsPerCheck);
process.stdout.write(
  `${JSON.stringify(
    {
      machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      node: process.version,
      date: new Date().toISOString(),
      dialect,
      monitors: Number(args.monitors),
      interval_seconds: intervalS,
      windows: windowCount,
      silences: silenceCount,
      window_seconds: windowMs / 1000,
      load_average_per_round: rounds.filter((r) => r.config === 'plain').map((r) => r.load),
      summary,
      cpu_per_check_quiet_over_plain_per_round: ratios.map((x) => +x.toFixed(3)),
      cpu_per_check_quiet_over_plain_median: +median(ratios).toFixed(3),
      goal_cpu_rise_at_most_5_percent: median(ratios) <= 1.05,
      goal_alert_p99_under_250_ms: quiet!.alert_latency_from_check_start_ms.p99 < 250,
      plain_alert_p99_ms: plain!.alert_latency_from_check_start_ms.p99,
    },
    null,
    2,
  )}\n`,
);
process.exit(0);
