/**
 * Benchmark (d): 90 days of rollups of one monitor in 3 regions (3 × 24 × 90 = 6,480 hourly rows, each with
 * a latency sketch of 120 checks, and the 270 daily rows recordBatch maintains beside them), then `GET /monitors/{id}/history?resolution=day` over 90 days, as a
 * service call and as an HTTP call (app.inject, auth included). Goal: < 50 ms.
 * Usage: node bench/storage/history.bench.ts [iterations] (SQLite; PostgreSQL too when
 * TOCSIN_TEST_POSTGRES_URL is set).
 */
import { ExecutionsService, ExecutionsStore } from '../../src/modules/checks/executions/index.ts';
import { LatencySketch, RollupsRepository, type RollupRow } from '../../src/modules/checks/rollups/index.ts';
import type { Dialect } from '../../src/platform/db/index.ts';
import { bearer, createTestApp, ManualClock } from '../../test/support/app.ts';
import { testDialects } from '../../test/support/databases.ts';

const ITERATIONS = Number(process.argv[2] ?? 200);
const HOUR = 3_600_000;
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-22T00:00:00.000Z');
const REGIONS = ['eu-west', 'us-east', 'ap-south'];

let seed = 1;
const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;

function percentile(sorted: number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 10; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

async function run(dialect: Dialect): Promise<void> {
  const t = await createTestApp({ dialect, clock: new ManualClock(NOW) });
  try {
    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: { target: 'https://bench.example.com' },
    });
    const monitorId = (created.json() as { id: string }).id;
    // One execution per region creates the monitor's and regions' keys.
    await new ExecutionsStore().recordBatch(
      t.tocsin.database,
      REGIONS.map((regionCode) => ({
        id: '',
        organizationId: org.organizationId,
        monitorId,
        regionCode,
        startedAt: NOW - 91 * DAY,
        status: 'up' as const,
        durationMs: 100,
        timings: { dns_ms: 1, connect_ms: 1, tls_ms: 1, ttfb_ms: 90, download_ms: 7, total_ms: 100 },
        httpStatus: 200,
        assertions: [],
        error: null,
      })),
    );
    const executions = new ExecutionsService({
      database: t.tocsin.database,
      monitors: {
        get: (actor, id) => t.tocsin.services.monitors.get({ actor, db: t.tocsin.database, clock: t.tocsin.clock }, id),
      },
    });
    const monitorKey = (await executions.monitorKey(monitorId))!;
    const rows: RollupRow[] = [];
    let sketchBytes = 0;
    for (let h = NOW - 90 * DAY; h < NOW; h += HOUR) {
      for (const region of REGIONS) {
        const regionKey = (await executions.regionKey(region))!;
        const sketch = new LatencySketch();
        const base = 80 + REGIONS.indexOf(region) * 60;
        for (let i = 0; i < 120; i++) sketch.add(base * (0.7 + rnd() * 0.6) + (rnd() < 0.02 ? 800 : 0));
        const bytes = sketch.encode();
        sketchBytes += bytes.length;
        const failures = rnd() < 0.01 ? 3 : 0;
        rows.push({
          monitor_key: monitorKey,
          hour_start: h,
          region_key: regionKey,
          checks: 120,
          failures,
          downtime_ms: failures * 30_000,
          sketch: bytes,
        });
      }
    }
    // The daily table, as recordBatch maintains it: the same rows summed per UTC day.
    const days = new Map<string, RollupRow & { merged: LatencySketch }>();
    for (const r of rows) {
      const day = Math.floor(r.hour_start / DAY) * DAY;
      const id = `${day}:${r.region_key}`;
      const d = days.get(id) ?? {
        ...r,
        hour_start: day,
        checks: 0,
        failures: 0,
        downtime_ms: 0,
        merged: new LatencySketch(),
      };
      d.checks += r.checks;
      d.failures += r.failures;
      d.downtime_ms += r.downtime_ms;
      d.merged.mergeEncoded(r.sketch);
      days.set(id, d);
    }
    await t.tocsin.database.transaction(async (tx) => {
      await new RollupsRepository(tx, 'execution_rollup').write(rows);
      await new RollupsRepository(tx, 'execution_rollup_day').write(
        [...days.values()].map(({ merged, ...d }) => ({ ...d, sketch: merged.encode() })),
      );
    });

    const rollups = t.tocsin.services.rollups;
    const actor = (await t.tocsin.services.auth.authenticate(org.apiKey))!;
    const from = NOW - 90 * DAY;
    const service = await time(() => rollups.history(actor, monitorId, { from, to: NOW, resolution: 'day' }));
    const url = `/api/v1/monitors/${monitorId}/history?resolution=day&from=${new Date(from).toISOString()}&to=${new Date(NOW).toISOString()}`;
    const check = await t.tocsin.app.inject({ method: 'GET', url, headers: bearer(org.apiKey) });
    const dayBuckets = (check.json() as { data: unknown[] }).data.length;
    const http = await time(() => t.tocsin.app.inject({ method: 'GET', url, headers: bearer(org.apiKey) }));
    const hourly = await time(() =>
      rollups.history(actor, monitorId, { from: NOW - 7 * DAY, to: NOW, resolution: 'hour' }),
    );
    console.log(
      `${dialect}: ${rows.length} hourly + ${days.size} daily rollup rows (avg sketch ${(sketchBytes / rows.length).toFixed(0)} B), ${dayBuckets} day buckets; ` +
        `service p50 ${service.p50.toFixed(2)} ms p99 ${service.p99.toFixed(2)} ms; HTTP p50 ${http.p50.toFixed(2)} ms p99 ${http.p99.toFixed(2)} ms; ` +
        `7 days hourly (service) p50 ${hourly.p50.toFixed(2)} ms p99 ${hourly.p99.toFixed(2)} ms (${ITERATIONS} iterations)`,
    );
  } finally {
    await t.close();
  }
}

for (const dialect of testDialects()) await run(dialect);
