/**
 * Public status page at scale (issue 17 item 7): `tocsin demo`'s generator writes N monitors × D days of history
 * through the check engine (outages, incidents, a pause, SLA targets; cached between runs under
 * /tmp/tocsin-bench-status-pages/<key>/ for SQLite, database tocsin_bench_status_<key> for PostgreSQL); one public
 * page lists every monitor with its SLA targets shown. Then this times GET /status/{slug} (HTML) and
 * /status/{slug}.json over HTTP (app.inject), and a revalidation that answers 304.
 * Usage: node bench/status-pages/status-page.bench.ts [--dialect sqlite|postgres] [--monitors 50] [--days 90]
 *        [--interval 600] [--runs 30] [--reseed]
 * The interval only sets how many checks are seeded: the page reads the monitors' timelines (state transitions),
 * the daily rollups and the incidents, none of which grows with the number of checks.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generateDemo } from '../../src/cli/demo/demo.generator.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { ManualClock, systemClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    monitors: { type: 'string', default: '50' },
    days: { type: 'string', default: '90' },
    interval: { type: 'string', default: '600' },
    runs: { type: 'string', default: '30' },
    reseed: { type: 'boolean', default: false },
  },
});
const dialect = args.dialect === 'postgres' ? 'postgres' : 'sqlite';
const MONITORS = Number(args.monitors);
const DAYS = Number(args.days);
const INTERVAL = Number(args.interval);
const RUNS = Number(args.runs);
const key = `m${MONITORS}-d${DAYS}-i${INTERVAL}`;
const dataDir = join('/tmp/tocsin-bench-status-pages', `${key}-${dialect}`);
const metaPath = join(dataDir, 'meta.json');
const logger = createLogger({ level: 'warn', pretty: false, destination: process.stderr });
const SLUG = 'bench-status';

interface Meta {
  organization_id: string;
  api_key: string;
  checks: number;
  incidents: number;
  seed_seconds: number;
}

const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  TOCSIN_DATA_DIR: dataDir,
  TOCSIN_CONFIG: join(dataDir, 'tocsin.json'),
  NODE_ENV: 'production',
};
delete env.DATABASE_URL;
const pgBase =
  process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let pgUrl: string | null = null;
if (dialect === 'postgres') {
  const u = new URL(pgBase);
  u.pathname = `/tocsin_bench_status_${key.replace(/-/g, '_')}`;
  pgUrl = u.toString();
  env.DATABASE_URL = pgUrl;
}

async function pgAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

function writeConfig(): void {
  writeFileSync(
    env.TOCSIN_CONFIG!,
    JSON.stringify({
      intelligence: { enabled: false },
      plans: { enterprise: { interval_floor_seconds: 1, monitors: null, status_pages: null } },
    }),
  );
}

async function seed(): Promise<Meta> {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  writeConfig();
  if (pgUrl) {
    const name = new URL(pgUrl).pathname.slice(1);
    await pgAdmin(`DROP DATABASE IF EXISTS ${name}`);
    await pgAdmin(`CREATE DATABASE ${name}`);
  }
  const started = Date.now();
  const clock = new ManualClock(started);
  const tocsin = await createTocsin(loadConfig({ env, isTty: false }), { logger, clock, background: false });
  try {
    const demo = await generateDemo(
      { services: tocsin.services, database: tocsin.database, clock, logger },
      {
        monitors: MONITORS,
        days: DAYS,
        intervalSeconds: INTERVAL,
        now: started,
        seed: 1,
        organizationName: 'Bench status',
        email: 'bench-status@example.com',
      },
    );
    const res = await tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      headers: { authorization: `Bearer ${demo.api_key}` },
      payload: { slug: SLUG, title: 'Bench status', monitor_ids: demo.monitor_ids, show_sla_targets: true },
    });
    if (res.statusCode !== 201) throw new Error(`status page not created: ${res.body}`);
    const meta: Meta = {
      organization_id: demo.organization_id,
      api_key: demo.api_key,
      checks: demo.checks,
      incidents: demo.incidents,
      seed_seconds: (Date.now() - started) / 1000,
    };
    writeFileSync(metaPath, JSON.stringify(meta));
    return meta;
  } finally {
    await tocsin.close();
  }
}

let meta: Meta;
if (!args.reseed && existsSync(metaPath)) {
  meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Meta;
  console.log(`using the cached history in ${pgUrl ? new URL(pgUrl).pathname.slice(1) : dataDir}`);
} else {
  meta = await seed();
  console.log(`seeded ${MONITORS} monitors × ${DAYS} days (${meta.checks} checks) in ${meta.seed_seconds} s`);
}

const tocsin = await createTocsin(loadConfig({ env, isTty: false }), {
  logger,
  clock: systemClock,
  background: false,
});
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const r1 = (v: number) => Math.round(v * 10) / 10;

async function measure(url: string, headers: Record<string, string> = {}) {
  const wall: number[] = [];
  const cpu: number[] = [];
  let last = { status: 0, body: '', etag: '', wireBytes: 0 };
  for (let i = 0; i < RUNS + 3; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const res = await tocsin.app.inject({ method: 'GET', url, headers });
    const c = process.cpuUsage(c0);
    if (i >= 3) {
      wall.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
    }
    last = {
      status: res.statusCode,
      body: res.body,
      etag: String(res.headers.etag ?? ''),
      wireBytes: res.rawPayload.length,
    };
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    url,
    status: last.status,
    etag: last.etag,
    body: last.body,
    wire_bytes: last.wireBytes,
    median_ms: r1(pct(wall, 50)),
    p95_ms: r1(pct(wall, 95)),
    max_ms: r1(wall[wall.length - 1]!),
    cpu_median_ms: r1(pct(cpu, 50)),
  };
}

try {
  const html = await measure(`/status/${SLUG}`);
  const json = await measure(`/status/${SLUG}.json`);
  // As a browser asks: gzip accepted (the bytes on the wire), then a reload that revalidates.
  const htmlGzip = await measure(`/status/${SLUG}`, { 'accept-encoding': 'gzip, deflate, br' });
  const revalidated = await measure(`/status/${SLUG}`, { 'if-none-match': html.etag });
  const view = JSON.parse(json.body) as {
    monitors: unknown[];
    incidents: unknown[];
    past_incidents: unknown[];
    sla_targets: unknown[];
  };
  console.log(
    JSON.stringify(
      {
        dialect,
        monitors: view.monitors.length,
        days: DAYS,
        seeded_checks: meta.checks,
        seeded_incidents: meta.incidents,
        shown: {
          open_incidents: view.incidents.length,
          past_incidents: view.past_incidents.length,
          sla_targets: view.sla_targets.length,
        },
        runs: RUNS,
        machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, load ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
        html: {
          ...{ ...html, body: undefined, etag: undefined },
          bytes: Buffer.byteLength(html.body),
        },
        json: {
          ...{ ...json, body: undefined, etag: undefined },
          bytes: Buffer.byteLength(json.body),
        },
        html_gzip: { ...htmlGzip, body: undefined, etag: undefined },
        revalidated_304: { ...revalidated, body: undefined, etag: undefined },
      },
      null,
      2,
    ),
  );
} finally {
  await tocsin.close();
}
