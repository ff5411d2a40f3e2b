/**
 * A custom report at scale: a report of six widgets (the six kinds, each over every monitor of the organization, for
 * the whole seeded history) rendered as JSON, CSV and PDF over HTTP (app.inject, auth included), against the sum of
 * its widgets' single reports asked for the same instants. Reads the history that bench/reports/reports.bench.ts
 * seeded and cached (run that first with the same options); the report is made for the run and deleted after it.
 * Usage: node bench/reports/custom.bench.ts [--dialect sqlite|postgres] [--monitors 1000] [--days 90]
 *        [--interval 3600] [--sla-targets 100] [--runs 3]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    monitors: { type: 'string', default: '1000' },
    days: { type: 'string', default: '90' },
    interval: { type: 'string', default: '3600' },
    'sla-targets': { type: 'string', default: '100' },
    runs: { type: 'string', default: '3' },
  },
});
const dialect = args.dialect === 'postgres' ? 'postgres' : 'sqlite';
const RUNS = Number(args.runs);
// The cache key and places of reports.bench.ts.
const key = `m${args.monitors}-d${args.days}-i${args.interval}-t${args['sla-targets']}`;
const dataDir = join('/tmp/tocsin-bench-reports', `${key}-${dialect}`);
const metaPath = join(dataDir, 'meta.json');
if (!existsSync(metaPath)) {
  console.error(`no cached history in ${dataDir}: run bench/reports/reports.bench.ts with the same options first`);
  process.exit(2);
}
const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { api_key: string; from: string; to: string };

const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  TOCSIN_DATA_DIR: dataDir,
  TOCSIN_CONFIG: join(dataDir, 'tocsin.json'),
  NODE_ENV: 'production',
};
delete env.DATABASE_URL;
if (dialect === 'postgres') {
  const u = new URL(process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  u.pathname = `/tocsin_bench_reports_${key.replace(/-/g, '_')}`;
  env.DATABASE_URL = u.toString();
}

const logger = createLogger({ level: 'warn', pretty: false, destination: process.stderr });
const tocsin = await createTocsin(loadConfig({ env, isTty: false }), { logger, clock: systemClock, background: false });
const headers = { authorization: `Bearer ${meta.api_key}` };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

async function get(url: string): Promise<{ ms: number; status: number; bytes: number; body: Buffer }> {
  const t0 = performance.now();
  const res = await tocsin.app.inject({ method: 'GET', url, headers });
  return { ms: performance.now() - t0, status: res.statusCode, bytes: res.rawPayload.length, body: res.rawPayload };
}

/** Median of RUNS timings of one URL (after a first, cold, call that is reported apart). */
async function timed(url: string): Promise<{ cold: number; median: number; bytes: number }> {
  const first = await get(url);
  if (first.status !== 200) throw new Error(`${url}: ${first.status} ${first.body.toString().slice(0, 300)}`);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push((await get(url)).ms);
  samples.sort((a, b) => a - b);
  return { cold: first.ms, median: samples[Math.floor(samples.length / 2)]!, bytes: first.bytes };
}

const KINDS = ['availability', 'performance', 'sla', 'incidents', 'intelligence', 'monitor_health'];
const made = await tocsin.app.inject({
  method: 'POST',
  url: '/api/v1/custom-reports',
  headers,
  payload: {
    name: 'Bench: every kind over every monitor',
    period: { from: meta.from, to: meta.to },
    timezone: 'Europe/Berlin',
    visibility: 'organization',
    widgets: KINDS.map((kind) => ({ kind, title: kind })),
  },
});
if (made.statusCode !== 201) throw new Error(`custom report not made: ${made.statusCode} ${made.body}`);
const report = made.json() as Json;
try {
  const doc = JSON.parse((await get(`/api/v1/custom-reports/${report.id}/render`)).body.toString()) as Json;
  const q = `from=${doc.period.from}&to=${doc.period.to}&timezone=${doc.period.timezone}`;
  const path = (kind: string) => (kind === 'monitor_health' ? 'monitor-health' : kind);
  const singles = (report.widgets as Json[]).map((w) => {
    const parts = [q];
    if (w.monitor_ids) parts.push(`monitor_ids=${(w.monitor_ids as string[]).join(',')}`);
    if (w.tags) parts.push(`tags=${(w.tags as string[]).join(',')}`);
    return { title: w.title as string, url: `/api/v1/reports/${path(w.kind as string)}?${parts.join('&')}` };
  });
  // Rows of each section: monitors, targets, incidents or events.
  const rowsOf = (r: Json | null) => (r ? (r.monitors ?? r.targets ?? r.incidents ?? r.events ?? []).length : 0);
  const monitors = (doc.sections as Json[]).map((s) => rowsOf(s.report as Json | null));
  console.log(
    `${dialect}: "${report.name}" ${doc.period.from} – ${doc.period.to} ${doc.period.timezone}, ` +
      `${singles.length} widgets (${monitors.join(', ')} rows), ${RUNS} warm runs`,
  );
  console.log('| what | cold ms | median ms | size |');
  console.log('| --- | ---: | ---: | ---: |');
  let sum = 0;
  for (const s of singles) {
    const r = await timed(s.url);
    sum += r.median;
    console.log(`| single report: ${s.title} | ${r.cold.toFixed(0)} | ${r.median.toFixed(0)} | ${r.bytes >> 10} KiB |`);
  }
  console.log(`| Σ single reports | | ${sum.toFixed(0)} | |`);
  for (const format of ['json', 'csv', 'pdf']) {
    const r = await timed(`/api/v1/custom-reports/${report.id}/render?format=${format}`);
    console.log(`| custom report, ${format} | ${r.cold.toFixed(0)} | ${r.median.toFixed(0)} | ${r.bytes >> 10} KiB |`);
  }
} finally {
  await tocsin.app.inject({ method: 'DELETE', url: `/api/v1/custom-reports/${report.id}`, headers });
  await tocsin.close();
}
