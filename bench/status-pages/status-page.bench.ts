/**
 * Public status page at scale (issue 17 item 7): `tocsin demo`'s generator writes N monitors × D days of history
 * through the check engine (outages, incidents, a pause, SLA targets; cached between runs under
 * /tmp/tocsin-bench-status-pages/<key>/ for SQLite, database tocsin_bench_status_<key> for PostgreSQL); one public
 * page lists every monitor with its SLA targets shown. Then this times GET /status/{slug} (HTML) and
 * /status/{slug}.json over HTTP (app.inject), and a revalidation that answers 304.
 * Usage: node bench/status-pages/status-page.bench.ts [--dialect sqlite|postgres] [--monitors 50] [--days 90]
 *        [--interval 600] [--runs 30] [--notices 20] [--groups 0] [--serve] [--reseed]
 * `--notices`: published notices on the page (DECISIONS §18), each with three Markdown updates; half open, half
 * resolved lately with a post-mortem (added after the seed, kept between runs).
 * `--groups N`: the page's monitors laid out in N groups (DECISIONS §18 layout; the last one collapsed), set through
 * PATCH /api/v1/status-pages/{id} before measuring; 0 puts them back ungrouped.
 * `--serve`: after the set-up, the same requests go over HTTP (fetch, keep-alive) to a real `tocsin serve` on the
 * bench's data (bench/engine's startServe), and the CPU per request is the serve process's (utime + stime from
 * /proc over all the runs, divided by them: 10 ms ticks, and the process's background roles included).
 * The interval only sets how many checks are seeded: the page reads the monitors' timelines (state transitions),
 * the daily rollups and the incidents, none of which grows with the number of checks.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { cpuMsOf, startServe, stopAll, type Proc } from '../engine/scale-out.processes.ts';
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';
import { demoHistoryPlace, saveMeta, seedDemoHistory } from '../support/demo-history.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    monitors: { type: 'string', default: '50' },
    days: { type: 'string', default: '90' },
    interval: { type: 'string', default: '600' },
    runs: { type: 'string', default: '30' },
    notices: { type: 'string', default: '20' },
    groups: { type: 'string', default: '0' },
    serve: { type: 'boolean', default: false },
    reseed: { type: 'boolean', default: false },
  },
});
const dialect = args.dialect === 'postgres' ? 'postgres' : 'sqlite';
const MONITORS = Number(args.monitors);
const DAYS = Number(args.days);
const INTERVAL = Number(args.interval);
const RUNS = Number(args.runs);
const NOTICES = Number(args.notices);
const GROUPS = Number(args.groups);
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

let served: Proc | null = null;
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET, in process (app.inject) or over HTTP to the serve process; the body as text, the bytes as sent. */
async function get(url: string, headers: Record<string, string>) {
  if (served === null) {
    const res = await tocsin.app.inject({ method: 'GET', url, headers });
    return {
      status: res.statusCode,
      body: res.body,
      etag: String(res.headers.etag ?? ''),
      wireBytes: res.rawPayload.length,
    };
  }
  // node:http, not fetch: fetch would decompress, and the bytes on the wire are what is counted.
  return new Promise<{ status: number; body: string; etag: string; wireBytes: number }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: served!.port!, path: url, headers, agent: keepAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          body: raw.toString('utf8'),
          etag: String(res.headers.etag ?? ''),
          wireBytes: raw.length,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function measure(url: string, headers: Record<string, string> = {}) {
  const wall: number[] = [];
  const cpu: number[] = [];
  let last = { status: 0, body: '', etag: '', wireBytes: 0 };
  let serveCpu0 = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    if (i === 3 && served) serveCpu0 = cpuMsOf(served.child.pid!);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    last = await get(url, headers);
    const c = process.cpuUsage(c0);
    if (i >= 3) {
      wall.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
    }
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
    ...(served
      ? { serve_cpu_avg_ms: r1((cpuMsOf(served.child.pid!) - serveCpu0) / RUNS) }
      : { cpu_median_ms: r1(pct(cpu, 50)) }),
  };
}

/** The page's monitors in GROUPS groups of about equal size (or none), in their order. */
async function layOut(pageId: string): Promise<void> {
  const auth = { authorization: `Bearer ${meta.api_key}` };
  const url = `/api/v1/status-pages/${pageId}`;
  const page = (await tocsin.app.inject({ method: 'GET', url, headers: auth })).json() as {
    monitor_ids: string[];
    groups: Array<{ monitor_ids: string[] }>;
  };
  const all = [...page.groups.flatMap((g) => g.monitor_ids), ...page.monitor_ids];
  const size = Math.ceil(all.length / Math.max(GROUPS, 1));
  const groups = Array.from({ length: GROUPS }, (_, i) => ({
    name: `Group ${i + 1}: region ${String.fromCharCode(65 + i)}`,
    monitor_ids: all.slice(i * size, (i + 1) * size),
    collapsed: i === GROUPS - 1,
  })).filter((g) => g.monitor_ids.length > 0);
  const payload = GROUPS > 0 ? { groups, monitor_ids: [] } : { groups: [], monitor_ids: all };
  const res = await tocsin.app.inject({ method: 'PATCH', url, headers: auth, payload });
  if (res.statusCode !== 200) throw new Error(`layout not set: ${res.statusCode} ${res.body}`);
}

/** The page's notices, up to NOTICES: created through the API (what a team writes), kept for the next run. */
async function ensureNotices(): Promise<number> {
  const auth = { authorization: `Bearer ${meta.api_key}` };
  const api = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await tocsin.app.inject({ method, url, headers: auth, ...(payload && { payload }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as { id: string; data: Array<{ id: string }> };
  };
  const pageId = (await api('GET', '/api/v1/status-pages')).data[0]!.id;
  await layOut(pageId);
  const base = `/api/v1/status-pages/${pageId}/notices`;
  const existing = (await api('GET', `${base}?limit=200`)).data.length;
  for (let i = existing; i < NOTICES; i++) {
    const resolved = i % 2 === 1;
    const notice = await api('POST', base, {
      kind: i % 3 === 0 ? 'maintenance' : 'incident',
      ...(i % 3 !== 0 && { impact: (['minor', 'major', 'critical'] as const)[i % 3] }),
      title: `Notice ${i + 1}: slow responses in one region`,
      body: `We are looking into **slow responses**; see [the runbook](https://example.com/runbook/${i}).`,
      published: true,
      ...(resolved && {
        postmortem: '## What happened\n\n- A bad deploy.\n- Rolled back in *12 minutes*.',
        postmortem_published: true,
      }),
    });
    await api('POST', `${base}/${notice.id}/updates`, { body: 'Identified: a configuration change. `timeout=30s`.' });
    await api('POST', `${base}/${notice.id}/updates`, {
      body: resolved ? 'Fixed and verified.' : 'A fix is rolling out.',
      ...(resolved && { status: 'resolved' }),
    });
  }
  return Math.max(existing, NOTICES);
}

try {
  const noticeCount = await ensureNotices();
  if (args.serve) {
    await tocsin.close();
    served = await startServe('serve', { ...env, LOG_LEVEL: 'warn', NODE_ENV: 'production' }, [
      '--max-old-space-size=512',
      ...SERVICE_NODE_FLAGS,
    ]);
  }
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
    notices: unknown[];
    past_notices: unknown[];
    groups?: unknown[];
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
          notices: view.notices.length,
          past_notices: view.past_notices.length,
        },
        notices_on_page: noticeCount,
        groups: view.groups?.length ?? 0,
        runs: RUNS,
        over: served ? 'HTTP to tocsin serve' : 'app.inject',
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
  keepAlive.destroy();
  if (served) await stopAll([served]);
  else await tocsin.close();
}
