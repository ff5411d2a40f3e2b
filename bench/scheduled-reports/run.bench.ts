/**
 * Scheduled reports: what one run costs and what an idle installation pays.
 *   - `tocsin demo`'s generator writes --monitors × --days of history (SQLite, a fresh temporary data dir);
 *   - one run per report type (and the demo's custom report): render JSON + CSV + PDF, store the files, write the
 *     outbox event, in the runner as `tocsin serve` runs it; wall time, CPU time (the process's, report threads
 *     included), the main thread's event-loop busy time and file sizes (median of --runs);
 *   - --schedules schedules that are not due: the time of one idle round of the role (its queries), and how often the
 *     role wakes when idle (its timer: at most once a minute).
 * Usage: node bench/scheduled-reports/run.bench.ts [--monitors 25] [--days 90] [--interval 300] [--runs 3]
 *        [--schedules 1000]
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDemo } from '../../src/cli/demo/demo.generator.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '25' },
    days: { type: 'string', default: '90' },
    interval: { type: 'string', default: '300' },
    runs: { type: 'string', default: '3' },
    schedules: { type: 'string', default: '1000' },
  },
});
const MONITORS = Number(args.monitors);
const DAYS = Number(args.days);
const RUNS = Number(args.runs);
const SCHEDULES = Number(args.schedules);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'tocsin-bench-srp-'));
  const env = { TOCSIN_DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'error', DATABASE_URL: '' };
  const logger = createLogger({ level: 'error', pretty: false });
  const started = Date.now();
  const clock = new ManualClock(started);
  const tocsin = await createTocsin(loadConfig({ env, isTty: false }), { logger, clock, background: false });
  try {
    const seedStart = Date.now();
    const demo = await generateDemo(
      { services: tocsin.services, database: tocsin.database, clock, logger },
      {
        monitors: MONITORS,
        days: DAYS,
        intervalSeconds: Number(args.interval),
        now: started,
        seed: 1,
        extraSlaTargets: 0,
        organizationName: 'Bench demo',
        email: 'bench@example.com',
      },
    );
    clock.set(started);
    process.stderr.write(`seeded ${demo.checks} checks in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`);
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await tocsin.app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${demo.api_key}`, 'content-type': 'application/json' },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, unknown>;
    };
    const dst = await call('POST', '/api/v1/auth/organization/webhooks', {
      type: 'email',
      name: 'Bench mail',
      config: { address: 'bench@example.com' },
    });
    const { runner, role } = tocsin.services.scheduledReports;
    const types = ['availability', 'performance', 'sla', 'incidents', 'intelligence', 'monitor_health', 'custom'];
    const rows: string[] = [];
    for (const type of types) {
      const s = await call('POST', '/api/v1/scheduled-reports', {
        report_type: type,
        ...(type === 'custom' && { custom_report_id: demo.custom_report_id }),
        frequency: 'monthly',
        day_of_month: 1,
        time_of_day: '07:00',
        timezone: 'Europe/Berlin',
        destination_ids: [dst.id],
      });
      const wall: number[] = [];
      const cpu: number[] = [];
      const busy: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        await call('POST', `/api/v1/scheduled-reports/${String(s.id)}/run`);
        const c0 = process.cpuUsage();
        const e0 = performance.eventLoopUtilization();
        const t0 = performance.now();
        const made = await runner.runDue();
        wall.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
        // The main thread's event loop busy (checks and requests wait meanwhile); the rest ran on a report thread.
        busy.push(performance.eventLoopUtilization(e0).active);
        if (made !== 1) throw new Error(`${type}: ${made} runs made`);
      }
      const sizes = await tocsin.database
        .tables<{ report_file: { scheduled_report_id: string; kind: string; size_bytes: number } }>()
        .selectFrom('report_file')
        .select(['kind', 'size_bytes'])
        .where('scheduled_report_id', '=', String(s.id))
        .execute();
      const size = (kind: string) => Math.round(Number(sizes.find((f) => f.kind === kind)?.size_bytes ?? 0) / 1024);
      rows.push(
        `| ${type} | ${median(wall).toFixed(0)} | ${median(cpu).toFixed(0)} | ${median(busy).toFixed(0)} | ${size('pdf')} | ${size('csv')} | ${size('json')} |`,
      );
    }
    console.log(
      `monitors ${MONITORS} × ${DAYS} days, interval ${args.interval} s, ${demo.checks} checks; median of ${RUNS}`,
    );
    console.log('| report type | run wall ms | run CPU ms | main loop busy ms | PDF KiB | CSV KiB | JSON KiB |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rows) console.log(r);

    // Created through the service (the HTTP write budget of one key would take minutes for a thousand).
    const actor = await tocsin.services.auth.authenticate(demo.api_key);
    if (!actor) throw new Error('the demo key was not accepted');
    const ctx = { actor, db: tocsin.database, clock };
    for (let i = 0; i < SCHEDULES; i++) {
      await tocsin.services.scheduledReports.service.create(ctx, {
        report_type: 'availability',
        frequency: 'weekly',
        day_of_week: i % 7,
        time_of_day: `${String(i % 24).padStart(2, '0')}:00`,
        timezone: 'America/New_York',
        destination_ids: [String(dst.id)],
      });
    }
    // The runs above are delivered (no SMTP configured: mails go to the log) and settled, so nothing is pending.
    await tocsin.services.alerting.pipeline.runUntilIdle();
    await runner.settleAll();
    // Nothing is due: one idle round, as the role makes it.
    const idle: number[] = [];
    let nextAt = 0;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      nextAt = await role.round();
      idle.push(performance.now() - t0);
    }
    const sleepS = (nextAt - clock.now()) / 1000;
    console.log(
      `idle round with ${SCHEDULES + types.length} schedules (none due): median ${median(idle).toFixed(1)} ms; next wake in ${sleepS.toFixed(0)} s`,
    );
  } finally {
    await tocsin.close();
  }
}

await main();
