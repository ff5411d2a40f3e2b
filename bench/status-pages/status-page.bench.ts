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
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { demoHistoryPlace, saveMeta, seedDemoHistory } from '../support/demo-history.ts';

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
const logger = createLogger({ level: 'warn', pretty: false, destination: process.stderr });
const SLUG = 'bench-status';

interface Meta {
  organization_id: string;
  api_key: string;
  checks: number;
  incidents: number;
  seed_seconds: number;
}

const place = demoHistoryPlace(dialect, dataDir, `tocsin_bench_status_${key.replace(/-/g, '_')}`);
const { env, pgUrl } = place;

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
  const { result, seedSeconds } = await seedDemoHistory(
    place,
    writeConfig,
    {
      monitors: MONITORS,
      days: DAYS,
      intervalSeconds: INTERVAL,
      organizationName: 'Bench status',
      email: 'bench-status@example.com',
    },
    logger,
    async (tocsin, demo) => {
      const res = await tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/status-pages',
        headers: { authorization: `Bearer ${demo.api_key}` },
        payload: { slug: SLUG, title: 'Bench status', monitor_ids: demo.monitor_ids, show_sla_targets: true },
      });
      if (res.statusCode !== 201) throw new Error(`status page not created: ${res.body}`);
      return {
        organization_id: demo.organization_id,
        api_key: demo.api_key,
        checks: demo.checks,
        incidents: demo.incidents,
      };
    },
  );
  const meta: Meta = { ...result, seed_seconds: seedSeconds };
  saveMeta(place, meta);
  return meta;
}

let meta: Meta;
if (!args.reseed && existsSync(place.metaPath)) {
  meta = JSON.parse(readFileSync(place.metaPath, 'utf8')) as Meta;
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
