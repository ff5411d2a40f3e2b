/**
 * Benchmark: GET /api/v1/reports/incidents/export over real HTTP (loopback) for 100,000 incidents of one
 * organization, CSV and JSON, on SQLite and PostgreSQL. Goal (issue 13): the export streams in constant memory,
 * RSS growth < 50 MiB while it runs. The incidents are inserted in multi-row batches through the incidents
 * repository (test/support/incidents.seed.ts): 90 days, every third acknowledged, 95 % resolved, a fifth of the
 * resolved ones tied to one of 50 monitors, titles with commas and quotes.
 *
 * Usage: node --expose-gc bench/reports/incidents-export.bench.ts [incidents=100000]
 * (PostgreSQL too when TOCSIN_TEST_POSTGRES_URL is set). Prints one JSON line per dialect and format.
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { Dialect } from '../../src/platform/db/index.ts';
import { bearer, createTestApp, ManualClock } from '../../test/support/app.ts';
import { testDialects } from '../../test/support/databases.ts';
import { seedIncidents } from '../../test/support/incidents.seed.ts';

const COUNT = Number(process.argv[2] ?? 100_000);
const NOW = Date.parse('2026-11-24T00:00:00.000Z');
const DAY = 86_400_000;
const MIB = 1024 * 1024;

const gc = (globalThis as { gc?: () => void }).gc;

/** The reader: GET with the key, counts bytes and line feeds (a record per line: the titles have none). */
const CLIENT = `
const http = require('node:http');
http.get(process.argv[1], { headers: { authorization: 'Bearer ' + process.argv[2] } }, (res) => {
  let bytes = 0, records = 0;
  res.on('data', (c) => { bytes += c.length; for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) records++; });
  res.on('end', () => process.stdout.write(JSON.stringify({ status: res.statusCode, bytes, records })));
}).on('error', (e) => { console.error(e); process.exit(1); });
`;

interface Result {
  status: number;
  bytes: number;
  records: number;
  ms: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  rssGrowthMiB: number;
  heapPeakMiB: number;
}

/** Streams the export through a real socket to another process, sampling this (the server's) RSS every 20 ms. */
async function streamExport(port: number, key: string, format: 'csv' | 'json'): Promise<Result> {
  gc?.();
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  let heapPeak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, 20);
  const started = process.hrtime.bigint();
  const from = new Date(NOW - 90 * DAY).toISOString();
  const to = new Date(NOW).toISOString();
  // The client runs in a child process, so the figures are the server's alone (not the reader's buffers).
  const url = `http://127.0.0.1:${port}/api/v1/reports/incidents/export?format=${format}&from=${from}&to=${to}`;
  const { status, bytes, records } = await new Promise<{ status: number; bytes: number; records: number }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, ['-e', CLIENT, url, key], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0
          ? resolve(JSON.parse(out) as { status: number; bytes: number; records: number })
          : reject(new Error(out)),
      );
    },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampler);
  return {
    status,
    bytes,
    // CSV: header + rows; JSON: '[', rows, ']'.
    records: format === 'csv' ? records - 1 : records - 2,
    ms: Math.round(ms),
    rssBeforeMiB: Math.round(rssBefore / MIB),
    rssPeakMiB: Math.round(rssPeak / MIB),
    rssGrowthMiB: Math.round(((rssPeak - rssBefore) / MIB) * 10) / 10,
    heapPeakMiB: Math.round(heapPeak / MIB),
  };
}

async function run(dialect: Dialect): Promise<void> {
  const t = await createTestApp({ dialect, clock: new ManualClock(NOW) });
  try {
    const org = await t.createOrg();
    const monitors: string[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: { target: `https://svc${i}.example.com/health`, name: `Service ${i}` },
      });
      monitors.push((res.json() as { id: string }).id);
    }
    const seedStarted = Date.now();
    const step = Math.floor((90 * DAY) / COUNT);
    await seedIncidents(t.tocsin.database, org.organizationId, COUNT, (i) => {
      const openedAt = NOW - 90 * DAY + i * step;
      const resolved = i % 20 !== 0;
      return {
        openedAt,
        title: `Checkout, "payments" step ${i} failed`,
        cause: i % 7 === 0 ? 'HTTP 503 (expected 200)' : 'timeout: no complete response within 10000 ms',
        // At most one open monitor incident per monitor (a unique index): the open ones are api incidents.
        source: i % 5 === 0 && resolved ? 'monitor' : 'api',
        monitorId: i % 5 === 0 && resolved ? monitors[i % 50]! : null,
        ...(i % 3 === 0 && { acknowledgedAt: openedAt + 120_000, acknowledgedBy: 'usr_bench' }),
        ...(resolved && { resolvedAt: openedAt + 900_000, resolvedBy: 'auto' }),
        status: resolved ? 'resolved' : i % 3 === 0 ? 'acknowledged' : 'opened',
      };
    });
    const seedMs = Date.now() - seedStarted;
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.tocsin.app.server.address() as AddressInfo;
    // Two runs of each format: the first in a process that never streamed an export (cold), then again (warm).
    for (const run of ['cold', 'warm'] as const) {
      for (const format of ['csv', 'json'] as const) {
        const r = await streamExport(port, org.apiKey, format);
        if (r.status !== 200 || r.records !== COUNT) throw new Error(`${format}: ${JSON.stringify(r)}`);
        console.log(JSON.stringify({ dialect, format, run, incidents: COUNT, seedMs, ...r }));
      }
    }
  } finally {
    await t.close();
  }
}

for (const dialect of testDialects()) await run(dialect);
