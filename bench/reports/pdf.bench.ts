/**
 * PDF rendering cost (issue 13 item 7: availability and performance PDFs of 1,000 monitors × 90 days < 3 s):
 * synthetic JSON documents (test/support/report.fixtures.ts) go through ReportRenderer.encode(…, 'pdf'), the same
 * call the routes make after building the JSON, so the figure is the PDF's share alone (the JSON's own time is
 * measured by reports.bench.ts). Each kind runs once cold (first document of the process: fonts parsed) and then
 * --runs times warm; prints pages, bytes, median and max wall milliseconds, the median CPU milliseconds (about
 * what an idle machine would take), the load average and the process's peak RSS.
 * --where thread draws on the main thread (its CPU column is the drawing's cost); --where worker as the service does,
 * on the PDF worker thread. CPU is the whole process's (every thread). The last column is the longest the main
 * thread's event loop was held up during the warm runs: what checks and requests would have waited.
 * Usage: node bench/reports/pdf.bench.ts [--monitors 1000] [--days 90] [--runs 3] [--where thread|worker]
 *        [--out DIR (writes the PDFs)]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ServiceContext } from '../../src/modules/auth/index.ts';
import type { ReportKind } from '../../src/modules/reports/index.ts';
import { ReportBuildPool } from '../../src/modules/reports/report-build.pool.ts';
import { InThreadPdf } from '../../src/modules/reports/report-pdf.pool.ts';
import { ReportRenderer } from '../../src/modules/reports/report.render.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import {
  availabilityFixture,
  incidentsFixture,
  intelligenceFixture,
  monitorHealthFixture,
  performanceFixture,
  slaFixture,
} from '../../test/support/report.fixtures.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    days: { type: 'string', default: '90' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string' },
    where: { type: 'string', default: 'thread' },
  },
});
const monitors = Number(args.monitors);
const days = Number(args.days);
const runs = Number(args.runs);
const o = { monitors, days, timezone: 'Europe/Berlin' };

// The renderer alone: its generators are never called here (the documents are given).
const renderer = new ReportRenderer({
  pdf:
    args.where === 'worker'
      ? // the service's report thread (its worker, composed here with builders only: the documents are given)
        new ReportBuildPool({
          workers: 1,
          timeoutMs: 600_000,
          idleMs: 0,
          compose: new URL('../../test/reports/report-worker.fixture.ts', import.meta.url),
          setup: { organization: 'Bench Organization' },
        })
      : new InThreadPdf(),
  organizationName: async () => 'Bench Organization',
  builders: {},
});
const ctx = { actor: { organizationId: 'org_bench' }, clock: new ManualClock(0) } as unknown as ServiceContext;

const docs: Array<[ReportKind, object]> = [
  ['availability', availabilityFixture(o)],
  ['performance', performanceFixture(o)],
  ['sla', slaFixture({ ...o, targets: 100 })],
  ['incidents', incidentsFixture({ ...o, incidents: 2_000 })],
  ['intelligence', intelligenceFixture({ ...o, events: 1_000 })],
  ['monitor_health', monitorHealthFixture(o)],
];

/**
 * How long the main thread's event loop could not run (checks and requests would have waited that long): the
 * longest gap between two ticks of a 2 ms interval, less the interval.
 */
function stallMeter(): { stop(): number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 2);
    last = now;
  }, 2);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(worst, performance.now() - last - 2);
    },
  };
}

// the same meter with nothing to do: what the machine's load alone costs the loop
const idle = stallMeter();
await new Promise((resolve) => setTimeout(resolve, 2_000));
const idleStall = idle.stop();

const pagesOf = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
if (args.out) mkdirSync(args.out, { recursive: true });
console.log(`PDF rendering, ${monitors} monitors × ${days} days (synthetic JSON), Node ${process.version}`);
console.log(`drawn on the ${args.where === 'worker' ? 'report worker thread (as the service does)' : 'main thread'}`);
console.log(
  'kind            pages   KiB   cold ms  warm median ms  warm max ms  warm median CPU ms  main-thread stall max ms',
);
for (const [kind, doc] of docs) {
  const t0 = performance.now();
  const first = await renderer.encode(ctx, kind, doc as never, 'pdf');
  const cold = performance.now() - t0;
  const warm: number[] = [];
  const cpu: number[] = [];
  const stall = stallMeter();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await renderer.encode(ctx, kind, doc as never, 'pdf');
    const used = process.cpuUsage(c);
    warm.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
    // let the loop turn between documents, so that the stall is one document's
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const stalled = stall.stop();
  warm.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  if (args.out) writeFileSync(join(args.out, first.filename), first.body);
  console.log(
    [
      kind.padEnd(15),
      String(pagesOf(first.body)).padStart(5),
      String(Math.round(first.body.length / 1024)).padStart(5),
      cold.toFixed(0).padStart(9),
      (warm[warm.length >> 1] ?? NaN).toFixed(0).padStart(15),
      (warm.at(-1) ?? NaN).toFixed(0).padStart(12),
      (cpu[cpu.length >> 1] ?? NaN).toFixed(0).padStart(20),
      stalled.toFixed(0).padStart(25),
    ].join(' '),
  );
}
console.log(`main-thread stall with nothing running (2 s before the runs): ${idleStall.toFixed(0)} ms`);
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} CPUs`,
);
console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
await renderer.close();
