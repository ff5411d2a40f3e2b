/**
 * Idle CPU of a real `tocsin serve` (issue 18 item 1): no monitors, every role on (HTTP, scheduler, in-process
 * runner, alert dispatcher and workers, purges, reminders, retention), CPU as utime + stime from /proc.
 *   node bench/engine/idle.bench.ts [--seconds 60] [--warm 10] [--dialect sqlite|postgres]
 * Prints the CPU used in the window and the share of one core.
 */
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runServeProcesses } from './serve.processes.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    warm: { type: 'string', default: '10' },
    dialect: { type: 'string', default: 'sqlite' },
  },
});
const windowMs = Number(args.seconds) * 1000;
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  TOCSIN_DATA_DIR: mkdtempSync(join(tmpdir(), 'tocsin-bench-idle-')),
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
};
let pgName: string | null = null;
const base =
  process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
if (args.dialect === 'postgres') {
  pgName = `tocsin_bench_idle_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pgName}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${pgName}`;
  env.DATABASE_URL = u.toString();
}
try {
  const run = await runServeProcesses({
    count: 1,
    env,
    nodeFlags: [...SERVICE_NODE_FLAGS],
    warmMs: Number(args.warm) * 1000,
    windowMs,
  });
  const p = run.processes[0]!;
  const seconds = (run.windowEnd - run.windowStart) / 1000;
  process.stdout.write(
    `${JSON.stringify({
      dialect: args.dialect,
      window_s: Math.round(seconds),
      cpu_ms: p.cpuMs,
      cpu_ms_per_s: Number((p.cpuMs / seconds).toFixed(2)),
      percent_of_a_core: Number(((p.cpuMs / seconds / 1000) * 100).toFixed(3)),
      rss_avg_mib: Math.round(p.rssAvgBytes / 2 ** 20),
    })}\n`,
  );
} finally {
  if (pgName) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await admin.end();
  }
}
